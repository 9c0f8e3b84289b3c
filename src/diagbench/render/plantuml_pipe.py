"""PlantUML in warm JVMs: each worker is one `java -jar plantuml.jar -pipe` process.

A diagram is written to the process's stdin; PlantUML answers with the image
on stdout followed by a delimiter, and with `ERROR / line / message` on
stderr when the diagram has a syntax error. A diagram that takes longer than
the time-out gets its process killed and restarted; the batch goes on.

Where the time goes (200 small diagrams, half sequence, half class, PNG): in
the JVM, drawing and PNG encoding (PlantUML tries two palette reductions on
every image before writing it) on the main thread, and the JIT compilers, as
much again per JVM; class loading at start-up. So a batch gets one JVM per
`DIAGRAMS_PER_JVM` diagrams (up to `jobs`), since a second JVM's warm-up costs
more than it saves on a smaller batch; classes come from a class-data archive;
and each image is checked in Python while the JVM draws the next one.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import subprocess
import threading
import time
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from diagbench.formats.plantuml import parse_sequence
from diagbench.render.plantuml import (
    MAX_HEAP,
    PLANTUML_VERSION,
    WARM_JVM_OPTIONS,
    class_archive,
    java_command,
    sandbox_env,
)
from diagbench.render.result import RenderResult, finish, refusal

#: Kinds PlantUML lays out with Graphviz `dot` (unless `!pragma layout smetana`).
_DOT_KINDS = frozenset({"class", "state", "usecase", "component", "object", "unknown"})
#: Where PlantUML looks for `dot` when GRAPHVIZ_DOT is not set.
_DOT_PLACES = ("/usr/bin/dot", "/usr/local/bin/dot", "/opt/local/bin/dot")
#: Diagrams per JVM before a batch gets another one: a JVM's warm-up (start, class
#: loading, JIT) costs about as much as drawing 60 small diagrams. On 2 idle cores
#: (`diagbench render`, medians of 3): 60 diagrams, one JVM 7.8 s, two 7.7 s; 200
#: diagrams, one JVM 19.1 s, two 15.7 s. (On cores other work keeps busy, one JVM
#: wins longer: 200 diagrams at load ~15, one JVM 50 s, two 66 s.)
DIAGRAMS_PER_JVM = 60
#: Seconds a worker's clean exit may take to write the class-data archive.
ARCHIVE_TIMEOUT = 60.0


class _Timeout(Exception):
    pass


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


class PipeWorker:
    """One long-lived PlantUML process rendering one diagram at a time.

    With `archive`, the process maps that class-data archive when it exists; else,
    when `write_archive`, its first process writes it at a clean `close()`."""

    def __init__(self, fmt: str, max_heap: str = MAX_HEAP, archive: Path | None = None,
                 write_archive: bool = False) -> None:
        self.fmt = fmt
        self.max_heap = max_heap
        self.delimiter = f"--diagbench-{uuid.uuid4().hex}--".encode()
        self.process: subprocess.Popen[bytes] | None = None
        self.archive = archive
        self.write_archive = write_archive and archive is not None
        self.dump: Path | None = None  # where the running process writes the archive

    def _start(self) -> subprocess.Popen[bytes]:
        options = list(WARM_JVM_OPTIONS)
        if self.archive is not None and self.archive.is_file():
            options.append(f"-XX:SharedArchiveFile={self.archive}")
        elif self.archive is not None and self.write_archive:
            self.write_archive = False  # the first process only
            try:
                self.archive.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            except OSError:
                pass  # no cache folder: no archive
            else:
                self.dump = self.archive.with_name(f"{self.archive.name}.{uuid.uuid4().hex}")
                options.append(f"-XX:ArchiveClassesAtExit={self.dump}")
        command = java_command("-pipe", f"-t{self.fmt}", "-charset", "UTF-8", "-pipedelimitor",
                               self.delimiter.decode(), max_heap=self.max_heap,
                               jvm_options=tuple(options))
        return subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=sandbox_env())

    def close(self, clean: bool = True) -> None:
        """Stop the process: killed, or (`clean`, when it writes the class-data archive)
        told the input has ended and given `ARCHIVE_TIMEOUT` seconds to exit."""
        process, dump, self.process, self.dump = self.process, self.dump, None, None
        if process is None:
            return
        if clean and dump is not None and process.poll() is None:
            with contextlib.suppress(subprocess.TimeoutExpired, OSError):
                process.communicate(timeout=ARCHIVE_TIMEOUT)
        process.kill()
        process.wait()
        if dump is not None and self.archive is not None:
            if process.returncode == 0 and dump.is_file():
                os.replace(dump, self.archive)
            dump.unlink(missing_ok=True)

    def render(self, source: str, timeout: float) -> tuple[bytes, str]:
        """(image bytes, stderr) for one `@startuml … @enduml` diagram."""
        if self.process is None or self.process.poll() is not None:
            self.process = self._start()
        stdin, stdout, stderr = self.process.stdin, self.process.stdout, self.process.stderr
        assert stdin is not None and stdout is not None and stderr is not None  # all piped
        try:
            stdin.write(source.removeprefix("\ufeff").encode("utf-8") + b"\n")
            stdin.flush()
            return self._read(stdout.fileno(), stderr.fileno(), time.monotonic() + timeout)
        except (_Timeout, BrokenPipeError):
            self.close(clean=False)
            raise _Timeout from None

    def _read(self, stdout: int, stderr: int, deadline: float) -> tuple[bytes, str]:
        """What the process writes to the file descriptors `stdout` and `stderr` for one
        diagram, up to the delimiter."""
        out, err = bytearray(), bytearray()
        streams = {stdout: out, stderr: err}
        with selectors.DefaultSelector() as selector:
            for fd in streams:
                selector.register(fd, selectors.EVENT_READ)
            while self.delimiter not in out:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise _Timeout
                for key, _ in selector.select(left):
                    chunk = os.read(key.fd, 1 << 16)
                    if not chunk:
                        raise _Timeout  # the process died
                    streams[key.fd] += chunk
            while selector.select(0):  # what stderr already holds
                chunk = os.read(stderr, 1 << 16)
                if not chunk:
                    break
                err += chunk
        image, _, rest = bytes(out).partition(self.delimiter)
        if rest.strip():
            raise _Timeout  # out of step with the process: restart it
        return image.strip(b"\r\n") if self.fmt == "svg" else image.lstrip(b"\r\n"), \
            err.decode("utf-8", "replace")


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
        workers: list[PipeWorker] = []
        lock = threading.Lock()
        archive = class_archive(MAX_HEAP)
        checks = ThreadPoolExecutor(max_workers=1)  # image checks overlap the next drawing

        def work(k: int) -> Future[RenderResult]:
            if not hasattr(local, "worker"):
                with lock:
                    local.worker = PipeWorker(fmt, archive=archive, write_archive=not workers)
                    workers.append(local.worker)
            start = time.perf_counter()
            result, data = self._draw(local.worker, k, sources[k])
            return checks.submit(self._check, result, data, fmt, out_dir, start, progress)

        jvms = min(self.jobs, max(1, len(sources) // DIAGRAMS_PER_JVM))
        clean = False
        try:
            with checks, ThreadPoolExecutor(max_workers=jvms) as pool:
                futures = list(pool.map(work, range(len(sources))))
            results = [future.result() for future in futures]
            clean = True
            return results
        finally:
            for worker in workers:
                worker.close(clean)

    def _draw(self, worker: PipeWorker, k: int, source: str) -> tuple[RenderResult, bytes | None]:
        """The result of drawing `source` (with the reason when not drawn) and the bytes."""
        result = RenderResult(k, self.name, PLANTUML_VERSION)
        result.error = _refusal(source)
        if result.error is not None:
            return result, None
        try:
            data, stderr = worker.render(source, self.timeout)
        except _Timeout:
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
