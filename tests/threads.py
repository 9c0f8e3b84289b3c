"""A test helper: run something in a thread of its own (what a drawing thread does)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def in_a_thread(work: Callable[[], T]) -> T:
    """What `work()` gives in a thread of its own, once that thread has ended."""
    out: list[T] = []
    thread = threading.Thread(target=lambda: out.append(work()))
    thread.start()
    thread.join()
    return out[0]
