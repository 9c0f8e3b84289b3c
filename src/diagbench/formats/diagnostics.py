"""Diagnostics: what a parser could not read, with where and why."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem found in a source: 1-based line number, the line's text, the reason."""

    line: int
    text: str
    reason: str
    severity: Severity = "error"

    def __str__(self) -> str:
        return f"line {self.line}: {self.severity}: {self.reason}: {self.text.strip()[:120]}"
