"""Diagnostics: what a parser could not read, with where and why."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem found in a source: 1-based line number, the line's text, the reason,
    and the 1-based column when the reader knows it (0: not given)."""

    line: int
    text: str
    reason: str
    severity: Severity = "error"
    column: int = 0

    def __str__(self) -> str:
        where = f"line {self.line}" + (f", column {self.column}" if self.column else "")
        return f"{where}: {self.severity}: {self.reason}: {self.text.strip()[:120]}"
