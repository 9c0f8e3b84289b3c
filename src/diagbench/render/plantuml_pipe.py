"""PlantUML in warm JVMs: the engine `diagbench render` and the benchmarks use.

Where the time goes (200 small diagrams, half sequence, half class, PNG): in the JVM,
drawing and PNG encoding (PlantUML tries two palette reductions on every image before
writing it) on the drawing threads, and the JIT compilers, as much again per JVM; class
loading at start-up. So a batch gets one JVM whose `jobs` channels draw at once
(`plantuml_channels`), classes come from a class-data archive, and each image is checked
in Python while the JVM draws the next one. Without `javac` to build the channels'
launcher, a batch gets one JVM per `process.DIAGRAMS_PER_JVM` diagrams (up to `jobs`), since a
second JVM's warm-up costs more than it saves on a smaller batch.
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Protocol

from diagbench.formats.plantuml import parse_sequence
from diagbench.render import process
from diagbench.render.plantuml import MAX_HEAP, PLANTUML_VERSION, class_archive
from diagbench.render.plantuml_channels import ChannelWorker, SharedJVM, launcher_jar
from diagbench.render.plantuml_process import PipeWorker, Timeout
from diagbench.render.result import RenderResult, finish, refusal

#: Kinds PlantUML lays out with Graphviz `dot` (unless `!pragma layout smetana`).
_DOT_KINDS = frozenset({"class", "state", "usecase", "component", "object", "unknown"})
#: Where PlantUML looks for `dot` when GRAPHVIZ_DOT is not set.
_DOT_PLACES = ("/usr/bin/dot", "/usr/local/bin/dot", "/opt/local/bin/dot")


def graphviz_found() -> bool:
    """Whether PlantUML will find Graphviz `dot` (it draws an error image otherwise)."""
    configured = os.environ.get("GRAPHVIZ_DOT")
    return any(os.access(p, os.X_OK) for p in ([configured] if configured else _DOT_PLACES))


def needs_graphviz(source: str) -> bool:
    """Whether PlantUML lays this diagram out with Graphviz."""
    if "smetana" in source:
        return False
    parsed = parse_sequence(source)
    return bool(parsed) and parsed[0].kind in _DOT_KINDS


class Worker(Protocol):
    """Draws one diagram at a time in a warm JVM."""

    def render(self, source: str, timeout: float) -> tuple[bytes, str]: ...


def _error(stderr: str) -> tuple[str, int | None] | None:
    """(message, 1-based line in the block) from PlantUML's `ERROR` report, if any."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    if "ERROR" not in lines:
        return None
    at = lines.index("ERROR")
    line = int(lines[at + 1]) + 1 if at + 1 < len(lines) and lines[at + 1].isdigit() else None
    message = lines[at + 2] if at + 2 < len(lines) else "syntax error"
    return message, line


def _refusal(source: str) -> str | None:
    """Why PlantUML is not given a source at all, or None."""
    if (reason := refusal(source)) is not None:
        return reason
    if "@end" not in source:
        return "no @startuml … @enduml block"
    if not graphviz_found() and needs_graphviz(source):
        return ("Graphviz 'dot' is not installed, and PlantUML needs it for this diagram "
                "(install graphviz, or add '!pragma layout smetana')")
    return None


class PlantUMLEngine:
    """Render PlantUML diagrams in `jobs` warm JVMs."""

    name = "plantuml"

    def __init__(self, jobs: int = 2, timeout: float = 20.0) -> None:
        self.jobs = jobs
        self.timeout = timeout

    def version(self) -> str:
        return PLANTUML_VERSION

    def render(self, sources: list[str], out_dir: Path, fmt: str = "png",
               progress=lambda: None) -> list[RenderResult]:
        """Render every source (one diagram each) into `out_dir`/NNNNNN.<fmt>."""
        local = threading.local()
        lock = threading.Lock()
        launcher = launcher_jar()
        threads = min(self.jobs, max(1, len(sources) if launcher is not None
                                     else len(sources) // process.DIAGRAMS_PER_JVM))
        jvm = None if launcher is None else SharedJVM(fmt, threads, launcher)
        channels = iter(range(threads))
        workers: list[PipeWorker] = []
        archive = class_archive(MAX_HEAP) if jvm is None else None  # the fallback's
        checks = ThreadPoolExecutor(max_workers=1)  # image checks overlap the next drawing

        def new_worker() -> Worker:
            with lock:
                if jvm is not None:
                    return ChannelWorker(jvm, next(channels))
                workers.append(PipeWorker(fmt, archive=archive, write_archive=not workers))
                return workers[-1]

        def work(k: int) -> Future[RenderResult]:
            if not hasattr(local, "worker"):
                local.worker = new_worker()
            start = time.perf_counter()
            result, data = self._draw(local.worker, k, sources[k])
            return checks.submit(self._check, result, data, fmt, out_dir, start, progress)

        clean = False
        try:
            with checks, ThreadPoolExecutor(max_workers=threads) as pool:
                futures = list(pool.map(work, range(len(sources))))
            results = [future.result() for future in futures]
            clean = True
            return results
        finally:
            if jvm is not None:
                jvm.close(clean)
            for worker in workers:
                worker.close(clean)

    def _draw(self, worker: Worker, k: int, source: str) -> tuple[RenderResult, bytes | None]:
        """The result of drawing `source` (with the reason when not drawn) and the bytes."""
        result = RenderResult(k, self.name, PLANTUML_VERSION)
        result.error = _refusal(source)
        if result.error is not None:
            return result, None
        try:
            data, stderr = worker.render(source, self.timeout)
        except Timeout:
            result.error = f"timed out after {self.timeout:g} s (process restarted)"
            return result, None
        error = _error(stderr)
        if error:
            result.error, result.error_line = error
            return result, None
        return result, data

    @staticmethod
    def _check(result: RenderResult, data: bytes | None, fmt: str, out_dir: Path,
               start: float, progress) -> RenderResult:
        """Check drawn bytes and keep them in `out_dir`/NNNNNN.<fmt> when valid."""
        if data is not None:
            finish(result, data, fmt, out_dir / f"{result.index:06d}.{fmt}")
        result.seconds = time.perf_counter() - start
        progress()
        return result
