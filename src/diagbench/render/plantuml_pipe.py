"""PlantUML in warm JVMs: the engine `diagbench render` and the benchmarks use.

Where the time goes (200 small diagrams, half sequence, half class, PNG): in the JVM,
drawing and PNG encoding (PlantUML tries two palette reductions on every image before
writing it) on the drawing threads, and the JIT compilers, as much again per JVM; class
loading at start-up. So an engine keeps one JVM from its first batch to `close()`, whose
channels (`plantuml_channels`; `jobs` drawing PNG, `jobs` drawing SVG) draw at once:
a later batch, in either format, finds it started and its code compiled. Classes come
from a class-data archive, and each image is checked in Python while the JVM draws the
next one. Without `javac` to build the channels' launcher, a batch gets one JVM per
`process.DIAGRAMS_PER_JVM` diagrams (up to `jobs`) per format, kept likewise, since a
second JVM's warm-up costs more than it saves on a smaller batch.
"""

from __future__ import annotations

import os
import queue
import threading
import time
import weakref
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


#: The formats a PlantUML engine draws, each on channels of its own.
FORMATS = ("png", "svg")


class _WarmJVMs:
    """The JVM an engine keeps between batches (or, without `javac`, its one-format JVMs)
    and the workers that draw in it, each used by one batch thread at a time."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.lock = threading.Lock()
        self.looked_up = False
        self.launcher: Path | None = None
        self.jvm: SharedJVM | None = None
        self.channels: dict[str, list[ChannelWorker]] = {}
        self.pipes: dict[str, list[PipeWorker]] = {fmt: [] for fmt in FORMATS}

    def workers(self, fmt: str, diagrams: int) -> list[Worker]:
        """The workers a batch of `diagrams` in `fmt` draws with, started if need be."""
        if fmt not in FORMATS:
            raise ValueError(f"PlantUML draws {' or '.join(FORMATS)} here, not {fmt!r}")
        with self.lock:
            if not self.looked_up:
                self.launcher, self.looked_up = launcher_jar(), True
            if self.launcher is not None:
                if self.jvm is None:
                    formats = tuple(f for f in FORMATS for _ in range(self.jobs))
                    self.jvm = SharedJVM(formats, self.launcher)
                    self.channels = {f: [ChannelWorker(self.jvm, k)
                                         for k, g in enumerate(formats) if g == f]
                                     for f in FORMATS}
                return list(self.channels[fmt][:max(1, min(self.jobs, diagrams))])
            pool = self.pipes[fmt]
            wanted = min(self.jobs, max(1, diagrams // process.DIAGRAMS_PER_JVM))
            while len(pool) < wanted:
                first = not any(self.pipes.values())
                pool.append(PipeWorker(fmt, archive=class_archive(MAX_HEAP),
                                       write_archive=first))
            return list(pool[:wanted])

    def close(self, clean: bool = True) -> None:
        """End the JVMs; `clean`: their input closed, and time given to write the
        class-data archive (else killed)."""
        with self.lock:
            jvm, self.jvm, self.channels = self.jvm, None, {}
            pipes = [w for pool in self.pipes.values() for w in pool]
            self.pipes = {fmt: [] for fmt in FORMATS}
        if jvm is not None:
            jvm.close(clean)
        for worker in pipes:
            worker.close(clean)


class PlantUMLEngine:
    """Render PlantUML diagrams in warm JVMs, `jobs` diagrams at once, kept warm from the
    first batch until `close()` (or until the engine is dropped, or diagbench exits)."""

    name = "plantuml"

    def __init__(self, jobs: int = 2, timeout: float = 20.0) -> None:
        self.jobs = jobs
        self.timeout = timeout
        self._warm = _WarmJVMs(jobs)
        self._batches = {fmt: threading.Lock() for fmt in FORMATS}  # one batch a format
        self._ended = weakref.finalize(self, self._warm.close)

    def version(self) -> str:
        return PLANTUML_VERSION

    def close(self, clean: bool = True) -> None:
        """End the warm JVMs (`clean`: see `_WarmJVMs.close`); a later batch starts anew."""
        self._warm.close(clean)

    def render(self, sources: list[str], out_dir: Path, fmt: str = "png",
               progress=lambda: None) -> list[RenderResult]:
        """Render every source (one diagram each) into `out_dir`/NNNNNN.<fmt>."""
        with self._batches.get(fmt, threading.Lock()):
            return self._batch(sources, out_dir, fmt, progress)

    def _batch(self, sources: list[str], out_dir: Path, fmt: str,
               progress) -> list[RenderResult]:
        workers = self._warm.workers(fmt, len(sources))
        todo: queue.SimpleQueue[int] = queue.SimpleQueue()
        for k in range(len(sources)):
            todo.put(k)
        futures: dict[int, Future[RenderResult]] = {}
        checks = ThreadPoolExecutor(max_workers=1)  # image checks overlap the next drawing

        failed = threading.Event()  # a thread failed: the others stop too

        def drain(worker: Worker) -> None:
            while not failed.is_set():
                try:
                    k = todo.get_nowait()
                except queue.Empty:
                    return
                start = time.perf_counter()
                try:
                    result, data = self._draw(worker, k, sources[k])
                except BaseException:
                    failed.set()
                    raise
                futures[k] = checks.submit(self._check, result, data, fmt, out_dir, start,
                                           progress)

        try:
            with checks, ThreadPoolExecutor(max_workers=len(workers)) as pool:
                for done in [pool.submit(drain, worker) for worker in workers]:
                    done.result()
            return [futures[k].result() for k in range(len(sources))]
        except BaseException:
            self.close(clean=False)
            raise

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
