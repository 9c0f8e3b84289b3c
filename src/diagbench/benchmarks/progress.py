"""Progress reporting for long benchmark phases: the CLI passes a bar factory
(length, label) → context manager whose value has `update(n, item=None)`."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

Bars = Callable[[int, str], contextlib.AbstractContextManager]


class _Silent:
    def update(self, n: int, item: object = None) -> None:
        return None


def no_bars(length: int, label: str) -> contextlib.AbstractContextManager:
    """The default: no progress shown."""
    return contextlib.nullcontext(_Silent())
