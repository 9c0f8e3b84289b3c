"""The local executor: what diagbench does without a cluster — functions run in this
process, and engines are the warm engine processes of `diagbench.render`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from diagbench.languages import make_engine
from diagbench.render.engines import Engine

A = TypeVar("A")
R = TypeVar("R")


class LocalExecutor:
    name = "local"

    def __init__(self, address: str | None = None) -> None:
        del address  # nothing to join

    def map(self, fn: Callable[[A], R], items: Sequence[A],
            progress: Callable[[], None] = lambda: None) -> list[R]:
        out = []
        for item in items:
            out.append(fn(item))
            progress()
        return out

    def engine(self, name: str, jobs: int, timeout: float) -> Engine:
        return make_engine(name, jobs, timeout)

    def close(self) -> None:
        return None
