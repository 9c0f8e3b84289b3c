"""Run an in-process drawing library (matplotlib and the libraries drawing on it) in
worker processes, so a source that hangs or crashes it cannot hang or crash diagbench.

`run_jobs(function, jobs, workers, timeout, preload)` calls `function(job)` (a
"module:attr" reference, imported in the worker) for each job in `workers` processes
(`python -m diagbench.render.worker function [module …]`, jobs and answers pickled
over its stdin/stdout), each under an address-space limit (`MEMORY_BYTES`). A worker
first imports the `preload` modules (the drawing library) and says it is ready, within
`STARTUP_SECONDS`; then a job that takes longer than `timeout` seconds has its worker
killed (a fresh one takes the next job);
a worker that dies (a crash, the memory limit) fails only its job. Each job's outcome
is `(True, value)` or `(False, reason)`. A worker sees only the few environment
variables a drawing needs (`_PASSED`), never an API key.
"""

from __future__ import annotations

import os
import pickle
import queue
import select
import struct
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

#: The address space a worker may use (the drawing of a huge source stops at it).
MEMORY_BYTES = 3 * 1024**3
#: How long a worker may take to import its drawing library (a busy machine is slow).
STARTUP_SECONDS = 120.0
_SRC = str(Path(__file__).resolve().parents[2])
#: The environment variables a worker gets from diagbench's (no others: no secrets).
_PASSED = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "MPLCONFIGDIR", "VIRTUAL_ENV")

Outcome = tuple[bool, Any]


def _write(stream: IO[bytes], value: Any) -> None:
    data = pickle.dumps(value)
    stream.write(struct.pack("<Q", len(data)) + data)
    stream.flush()


def _read(stream: IO[bytes]) -> Any:
    head = stream.read(8)
    if len(head) < 8:
        raise EOFError("the stream ended")
    return pickle.loads(stream.read(struct.unpack("<Q", head)[0]))


def serve(function: str, preload: list[str]) -> None:
    """A worker's loop: import `preload`, say "ready", then read a job from stdin and
    answer its outcome on stdout, until the input ends. What the library prints goes
    to stderr."""
    import importlib
    import resource

    from diagbench.references import load

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    work = load(function)
    for module in preload:
        importlib.import_module(module)
    _write(answers, "ready")
    jobs = sys.stdin.buffer
    while True:
        try:
            job = _read(jobs)
        except EOFError:
            return
        try:
            outcome: Outcome = (True, work(job))
        except MemoryError:
            outcome = (False, "out of memory")
        except Exception as exc:  # the library's own error is the answer
            outcome = (False, str(exc) or type(exc).__name__)
        _write(answers, outcome)


class _Worker:
    """One worker process, started when first needed."""

    def __init__(self, function: str, preload: tuple[str, ...]) -> None:
        self.function = function
        self.preload = preload
        self.process: subprocess.Popen[bytes] | None = None

    def _start(self) -> str | None:
        """Start the process and wait until it is ready; why not, or None."""
        path = os.pathsep.join([_SRC, os.environ.get("PYTHONPATH", "")])
        # only what a drawing needs: no API key or other secret reaches the worker
        env = {name: os.environ[name] for name in _PASSED if name in os.environ}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "diagbench.render.worker", self.function, *self.preload],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=env | {"PYTHONPATH": path, "MPLBACKEND": "Agg"})
        if self._answer(STARTUP_SECONDS) != "ready":
            self.stop()
            return f"the drawing process did not start within {STARTUP_SECONDS:g} s"
        return None

    def _answer(self, timeout: float) -> Any:
        """The next message of the process, or None after `timeout` seconds."""
        assert self.process is not None and self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        return _read(self.process.stdout) if ready else None

    def run(self, job: Any, timeout: float) -> Outcome:
        try:
            if self.process is None or self.process.poll() is not None:
                failed = self._start()
                if failed is not None:
                    return False, failed
            assert self.process is not None and self.process.stdin is not None
            _write(self.process.stdin, job)
            outcome: Outcome | None = self._answer(timeout)
            if outcome is not None:
                return outcome
        except (EOFError, OSError, pickle.UnpicklingError):
            self.stop()
            return False, "the drawing process died (a crash or its memory limit)"
        self.stop()
        return False, f"timed out after {timeout:g} s"

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            for stream in (self.process.stdin, self.process.stdout):
                if stream is not None:
                    stream.close()
        self.process = None

    def close(self) -> None:
        if self.process is not None and self.process.stdin is not None:
            try:
                self.process.stdin.close()
                self.process.wait(5)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.stop()


def run_jobs(function: str, jobs: list[Any], workers: int, timeout: float,
             preload: tuple[str, ...] = ()) -> list[Outcome]:
    """The outcome of `function(job)` for every job, run in `workers` processes (see the
    module's docstring)."""
    outcomes: list[Outcome] = [(False, "not run")] * len(jobs)
    todo: queue.SimpleQueue[int] = queue.SimpleQueue()
    for k in range(len(jobs)):
        todo.put(k)

    def drain() -> None:
        worker = _Worker(function, preload)
        try:
            while True:
                try:
                    k = todo.get_nowait()
                except queue.Empty:
                    return
                outcomes[k] = worker.run(jobs[k], timeout)
        finally:
            worker.close()

    threads = [threading.Thread(target=drain) for _ in range(max(1, min(workers, len(jobs))))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


if __name__ == "__main__":
    serve(sys.argv[1], sys.argv[2:])
