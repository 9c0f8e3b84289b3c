"""The executor protocol: `map` a function over items (in order, with progress) and
`engine`, a rendering engine whose work runs where the executor runs it.

    local  this process and its warm engine processes (`local.LocalExecutor`)
    ray    Ray tasks, and pools of Ray actors each holding a warm engine (`ray.RayExecutor`)

Executors are named in `diagbench.executors.registry` and imported when opened.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    from diagbench.render.engines import Engine

A = TypeVar("A")
R = TypeVar("R")

class ExecutorUnavailable(RuntimeError):
    """An executor cannot be used here (Ray not installed, cluster not reachable); the
    message says why and what to do."""


class Executor(Protocol):
    name: str

    def map(self, fn: Callable[[A], R], items: Sequence[A],
            progress: Callable[[], None] = ...) -> list[R]:
        """[fn(x) for x in items], in that order; `progress` is called once per item done."""
        ...

    def engine(self, name: str, jobs: int, timeout: float) -> Engine:
        """The rendering engine `name` (a language's `engine`) working with
        `jobs` processes, each diagram allowed `timeout` seconds."""
        ...

    def close(self) -> None:
        """Release what the executor holds (processes, actors, a Ray instance it started)."""
        ...
