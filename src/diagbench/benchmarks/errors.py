"""The errors of a benchmark's data: data it cannot use, and a build that fell short."""

from __future__ import annotations


class DataError(ValueError):
    """Data a benchmark cannot use; str() names the file (and line) and the reason."""


class IncompleteBuild(DataError):
    """A build that wrote its data but fell short of what was asked: `lines` are what it
    prints, str() why it fails (the command then exits 1)."""

    def __init__(self, lines: list[str], reason: str) -> None:
        super().__init__(reason)
        self.lines = lines
