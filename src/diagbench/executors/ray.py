"""The Ray executor: `map` runs one Ray task per item; `engine` renders on one pool of
Ray actors, each holding a warm engine of every kind asked for (one engine process per
actor, started once per chunk of up to `CHUNK` diagrams rather than once per diagram).

Images travel back as bytes and are written where the caller asked, so the workers
need no shared file system; a render gives the same bytes wherever it runs.
`ray.init(address=...)` joins a cluster (`HOST:PORT`, `auto`, `ray://HOST:10001`);
without an address a Ray instance already started in this process is used, else a
local one is started (and shut down on `close`).
"""

from __future__ import annotations

import logging
import math
import socket
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from diagbench.executors.protocol import ExecutorUnavailable
from diagbench.languages import make_engine
from diagbench.render.engines import Engine
from diagbench.render.process import DIAGRAMS_PER_JVM
from diagbench.render.result import RenderResult

A = TypeVar("A")
R = TypeVar("R")

#: Most diagrams one actor renders per call: its engine process starts once per chunk.
CHUNK = 256
#: Fewest diagrams per chunk (but one chunk for a smaller batch): fewer do not repay an
#: engine process's start and warm-up (the local PlantUML engine's `DIAGRAMS_PER_JVM`).
MIN_CHUNK = DIAGRAMS_PER_JVM


class Renderer:
    """A Ray actor's state: one engine of each kind it was asked for, each with one
    process, kept for the actor's lifetime."""

    def __init__(self) -> None:
        self.engines: dict[tuple[str, float], Engine] = {}

    def _engine(self, name: str, timeout: float) -> Engine:
        if (name, timeout) not in self.engines:
            self.engines[name, timeout] = make_engine(name, 1, timeout)
        return self.engines[name, timeout]

    def version(self, name: str, timeout: float) -> str:
        return self._engine(name, timeout).version()

    def close(self, name: str) -> None:
        """End the engine `name`'s processes (a later render starts them again)."""
        for (engine, _), held in self.engines.items():
            if engine == name:
                held.close()

    def render(self, name: str, timeout: float, batch: list[tuple[int, str]], fmt: str
               ) -> list[tuple[RenderResult, bytes | None]]:
        """Each (index, source) rendered by the engine `name`: its result (numbered by
        index) and the image bytes of a valid render."""
        with tempfile.TemporaryDirectory() as tmp:
            results = self._engine(name, timeout).render([s for _, s in batch], Path(tmp), fmt)
            out = []
            for (k, _), result in zip(batch, results, strict=True):
                data = result.image.read_bytes() if result.ok and result.image else None
                result.index, result.image = k, None
                out.append((result, data))
            return out


class RayEngine:
    """The engine `name`, its diagrams rendered by a pool of `Renderer` actors."""

    def __init__(self, name: str, timeout: float, actors: list[Any]) -> None:
        self.name = name
        self.timeout = timeout
        self.actors = actors

    def version(self) -> str:
        import ray
        return str(ray.get(self.actors[0].version.remote(self.name, self.timeout)))

    def close(self) -> None:
        """End this engine's processes in every actor (a later render starts them again)."""
        import ray
        ray.get([actor.close.remote(self.name) for actor in self.actors])

    def render(self, sources: list[str], out_dir: Path, fmt: str = "png",
               progress: Callable[[], None] = lambda: None) -> list[RenderResult]:
        """Render every source into `out_dir`/NNNNNN.<fmt>, as the local engines do."""
        from ray.util import ActorPool

        size = max(1, min(CHUNK, max(MIN_CHUNK, math.ceil(len(sources) / len(self.actors)))))
        numbered = list(enumerate(sources))
        chunks = [numbered[i:i + size] for i in range(0, len(numbered), size)]
        results: dict[int, RenderResult] = {}
        pool = ActorPool(self.actors)
        for done in pool.map_unordered(  # chunks as they finish; put back in order below
                lambda actor, chunk: actor.render.remote(self.name, self.timeout, chunk, fmt),
                chunks):
            for result, data in done:
                if data is not None:
                    result.image = out_dir / f"{result.index:06d}.{fmt}"
                    result.image.write_bytes(data)
                results[result.index] = result
                progress()
        return [results[k] for k in range(len(sources))]


def _check_reachable(address: str | None, timeout: float = 10.0) -> None:
    """OSError unless the HOST:PORT of `address` accepts a connection within `timeout`
    seconds (Ray itself retries an unreachable head for minutes); `auto` and no address
    are left to Ray."""
    if address is None or address == "auto":
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not port.isdigit():
        raise ValueError(f"{address!r} is not HOST:PORT, auto or ray://HOST:PORT")
    with socket.create_connection((host.strip("[]"), int(port)), timeout):
        pass


class RayExecutor:
    name = "ray"

    def __init__(self, address: str | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise ExecutorUnavailable("--executor ray needs Ray: pip install "
                                      "'diagbench[ray]'") from None
        self.started = False
        self.actors: list[Any] = []  # the renderer pool
        self.lock = threading.Lock()  # engines are asked for from several threads
        if ray.is_initialized() and address is None:
            return
        try:
            _check_reachable(address)
            ray.init(address=address, include_dashboard=False, log_to_driver=False,
                     logging_level=logging.WARNING)
        except (OSError, ValueError, RuntimeError) as exc:
            where = f"the Ray cluster at {address}" if address else "a local Ray instance"
            raise ExecutorUnavailable(f"cannot start or join {where}: {exc}") from None
        self.started = True

    def map(self, fn: Callable[[A], R], items: Sequence[A],
            progress: Callable[[], None] = lambda: None) -> list[R]:
        """One Ray task per item; the renderer pool is released first (its CPUs too)."""
        import ray

        self.release()
        task = ray.remote(num_cpus=1)(fn)
        refs = [task.remote(item) for item in items]
        waiting = list(refs)
        while waiting:
            _, waiting = ray.wait(waiting, num_returns=1)
            progress()
        return list(ray.get(refs))

    def engine(self, name: str, jobs: int, timeout: float) -> RayEngine:
        """The engine `name` on a pool of `jobs` renderer actors (at most one per CPU of
        the cluster), one CPU each, spread over the nodes. One pool serves every engine
        and is kept until `close` (or the next `map`, or a pool of another size). Safe
        from several threads: one never kills the pool another was given."""
        import ray

        size = min(jobs, max(1, int(ray.cluster_resources().get("CPU", 1))))
        with self.lock:
            if len(self.actors) != size:
                self.release()
                actor = ray.remote(num_cpus=1, scheduling_strategy="SPREAD")(Renderer)
                self.actors = [actor.remote() for _ in range(size)]
            return RayEngine(name, timeout, self.actors)

    def release(self) -> None:
        """Kill the renderer actors (and their engine processes)."""
        import ray

        for actor in self.actors:
            ray.kill(actor)
        self.actors = []

    def close(self) -> None:
        import ray

        self.release()
        if self.started:
            ray.shutdown()
