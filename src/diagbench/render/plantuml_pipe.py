"""PlantUML in warm JVMs: each worker is one `java -jar plantuml.jar -pipe` process.

A diagram is written to the process's stdin; PlantUML answers with the image
on stdout followed by a delimiter, and with `ERROR / line / message` on
stderr when the diagram has a syntax error. A diagram that takes longer than
the time-out gets its process killed and restarted; the batch goes on.
"""

from __future__ import annotations

import os
import selectors
import subprocess
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from diagbench.formats.plantuml import parse_sequence
from diagbench.render.plantuml import (
    PLANTUML_VERSION,
    WARM_JVM_OPTIONS,
    java_command,
    sandbox_env,
)
from diagbench.render.result import RenderResult, finish, refusal

#: Kinds PlantUML lays out with Graphviz `dot` (unless `!pragma layout smetana`).
_DOT_KINDS = frozenset({"class", "state", "usecase", "component", "object", "unknown"})
#: Where PlantUML looks for `dot` when GRAPHVIZ_DOT is not set.
_DOT_PLACES = ("/usr/bin/dot", "/usr/local/bin/dot", "/opt/local/bin/dot")


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
    """One long-lived PlantUML process rendering one diagram at a time."""

    def __init__(self, fmt: str, max_heap: str = "768m") -> None:
        self.fmt = fmt
        self.max_heap = max_heap
        self.delimiter = f"--diagbench-{uuid.uuid4().hex}--".encode()
        self.process: subprocess.Popen[bytes] | None = None

    def _start(self) -> subprocess.Popen[bytes]:
        command = java_command("-pipe", f"-t{self.fmt}", "-charset", "UTF-8", "-pipedelimitor",
                               self.delimiter.decode(), max_heap=self.max_heap,
                               jvm_options=WARM_JVM_OPTIONS)
        return subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=sandbox_env())

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

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
            self.close()
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

        def work(k: int) -> RenderResult:
            if not hasattr(local, "worker"):
                local.worker = PipeWorker(fmt)
                with lock:
                    workers.append(local.worker)
            result = self._one(local.worker, k, sources[k], fmt, out_dir)
            progress()
            return result

        try:
            with ThreadPoolExecutor(max_workers=max(1, self.jobs)) as pool:
                return list(pool.map(work, range(len(sources))))
        finally:
            for worker in workers:
                worker.close()

    def _one(self, worker: PipeWorker, k: int, source: str, fmt: str,
             out_dir: Path) -> RenderResult:
        result = RenderResult(k, self.name, PLANTUML_VERSION)
        start = time.perf_counter()
        result.error = _refusal(source)
        if result.error is None:
            try:
                data, stderr = worker.render(source, self.timeout)
            except _Timeout:
                result.error = f"timed out after {self.timeout:g} s (process restarted)"
            else:
                error = _error(stderr)
                if error:
                    result.error, result.error_line = error
                else:
                    finish(result, data, fmt, out_dir / f"{k:06d}.{fmt}")
        result.seconds = time.perf_counter() - start
        return result
