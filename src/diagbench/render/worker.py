"""Run an in-process drawing library (matplotlib and the libraries drawing on it) in
worker processes, so a source that hangs or crashes it cannot hang or crash diagbench.

`Workers(function, preload, count).run(jobs, timeout)` calls `function(job)` (a
"module:attr" reference, imported in the worker) for each job in `count` processes
(`python -m diagbench.render.worker function [module …]`, a `render.process` warm
process: jobs and answers pickled in frames over its stdin/stdout), kept warm for the
next batch until `close()` (or this process's end), each under an
address-space limit (`MEMORY_BYTES`), in an empty jail folder. A worker
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
import sys
import threading
from pathlib import Path
from typing import Any

from diagbench.render.process import (
    ProcessDied,
    ProcessTimeout,
    WarmProcess,
    frame,
    read_frame_from,
)

#: The address space a worker may use (the drawing of a huge source stops at it).
MEMORY_BYTES = 3 * 1024**3
#: How long a worker may take to import its drawing library (a busy machine is slow).
STARTUP_SECONDS = 120.0
_SRC = str(Path(__file__).resolve().parents[2])
#: The environment variables a worker gets from diagbench's (no others: no secrets).
_PASSED = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "MPLCONFIGDIR", "VIRTUAL_ENV")

Outcome = tuple[bool, Any]


def serve(function: str, preload: list[str]) -> None:
    """A worker's loop: import `preload`, say "ready", then read a job from stdin and
    answer its outcome on stdout, until the input ends. What the library prints goes
    to stderr."""
    import importlib

    from diagbench.references import load

    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    work = load(function)
    for module in preload:
        importlib.import_module(module)
    answers.write(frame(pickle.dumps("ready")))
    answers.flush()
    while True:
        try:
            job = pickle.loads(read_frame_from(sys.stdin.buffer))
        except EOFError:
            return
        try:
            outcome: Outcome = (True, work(job))
        except MemoryError:
            outcome = (False, "out of memory")
        except Exception as exc:  # the library's own error is the answer
            outcome = (False, str(exc) or type(exc).__name__)
        answers.write(frame(pickle.dumps(outcome)))
        answers.flush()


class Worker:
    """One worker process, started when first needed; `memory_bytes`: its address-space
    limit (None for a worker that starts a browser, whose address-space reservations
    exceed any useful limit)."""

    def __init__(self, function: str, preload: tuple[str, ...],
                 memory_bytes: int | None = MEMORY_BYTES) -> None:
        # the worker runs in a jail: our import path made absolute
        path = os.pathsep.join([_SRC, *(os.path.abspath(p) for p in
                                        os.environ.get("PYTHONPATH", "").split(os.pathsep)
                                        if p)])
        self.process = WarmProcess(
            [sys.executable, "-m", "diagbench.render.worker", function, *preload],
            passed=_PASSED, extra_env={"PYTHONPATH": path, "MPLBACKEND": "Agg"},
            memory_bytes=memory_bytes)

    def run(self, job: Any, timeout: float) -> Outcome:
        try:
            if self.process.ensure():
                try:
                    ready = pickle.loads(self.process.read_frame(STARTUP_SECONDS))
                except ProcessTimeout:
                    return False, f"the drawing process did not start within {STARTUP_SECONDS:g} s"
                if ready != "ready":
                    raise ProcessDied("out of step")
            self.process.send(frame(pickle.dumps(job)), timeout)
            outcome: Outcome = pickle.loads(self.process.read_frame(timeout))
            return outcome
        except ProcessTimeout:
            return False, f"timed out after {timeout:g} s"
        except (ProcessDied, OSError, EOFError, pickle.UnpicklingError):
            self.process.close()
            return False, "the drawing process died (a crash or its memory limit)"

    def close(self) -> None:
        self.process.finish(5)


class Workers:
    """Up to `count` workers of one `function`, each started when first needed and kept
    for every later batch (a drawing library imported once per worker, not once per
    batch) until `close()`; batches run one at a time."""

    def __init__(self, function: str, preload: tuple[str, ...], count: int) -> None:
        self.function, self.preload, self.count = function, preload, max(1, count)
        self.workers: list[Worker] = []
        self._batch = threading.Lock()

    def run(self, jobs: list[Any], timeout: float) -> list[Outcome]:
        """The outcome of `function(job)` for every job (see the module's docstring)."""
        outcomes: list[Outcome] = [(False, "not run")] * len(jobs)
        todo: queue.SimpleQueue[int] = queue.SimpleQueue()
        for k in range(len(jobs)):
            todo.put(k)

        def drain(worker: Worker) -> None:
            while True:
                try:
                    k = todo.get_nowait()
                except queue.Empty:
                    return
                outcomes[k] = worker.run(jobs[k], timeout)

        with self._batch:
            while len(self.workers) < min(self.count, len(jobs)):
                self.workers.append(Worker(self.function, self.preload))
            threads = [threading.Thread(target=drain, args=(w,))
                       for w in self.workers[:max(1, min(self.count, len(jobs)))]]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        return outcomes

    def close(self) -> None:
        """End every worker (a later batch starts them again)."""
        workers, self.workers = self.workers, []
        for worker in workers:
            worker.close()


if __name__ == "__main__":
    serve(sys.argv[1], sys.argv[2:])
