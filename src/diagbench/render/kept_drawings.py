"""Drawings an engine made of a batch in a format it was not asked for (the SVG of a
PNG's drawing), kept for the next batch only: a build renders a batch in PNG, then the
same sources in SVG, which then draws none of them again."""

from __future__ import annotations

import hashlib
from typing import Generic, TypeVar

T = TypeVar("T")


class KeptDrawings(Generic[T]):
    """Drawings by format and source: those kept while a batch renders are found by the
    next batch only (`next_batch`), and none after `clear`."""

    def __init__(self) -> None:
        self._last: dict[tuple[str, str], T] = {}
        self._this: dict[tuple[str, str], T] = {}

    def next_batch(self) -> None:
        """A batch starts: what the last one kept can be found, anything older is gone."""
        self._last, self._this = self._this, {}

    def find(self, fmt: str, source: bytes) -> T | None:
        """The drawing of `source` in `fmt` the last batch kept, or None."""
        return self._last.get((fmt, hashlib.sha256(source).hexdigest()))

    def keep(self, fmt: str, source: bytes, drawing: T) -> None:
        """Keep the drawing of `source` in `fmt` for the next batch."""
        self._this[(fmt, hashlib.sha256(source).hexdigest())] = drawing

    def clear(self) -> None:
        self._last.clear()
        self._this.clear()
