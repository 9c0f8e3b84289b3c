"""The one way diagbench keeps a program running and talks to it: `WarmProcess`.

A warm process (a drawing library's Python worker, Node reading DBML, Stockfish, git's
blob reader) is started on first use in a jail — a new empty temporary folder that is
its working folder and, unless HOME is passed on, its home — with a minimal environment
(`minimal_env`: PATH, a UTF-8 locale and only the variables named; never an API key)
and, where given, its address space capped (`memory_bytes`). Requests are written and
answers read in frames: lines (`read_line`), length-prefixed blobs (`frame`,
`read_frame`) or a given number of bytes (`read_exact`); every write and every read has
a time-out. Past it the process is killed and `ProcessTimeout` raised; when its output
ends (a crash, its memory limit) it is killed and `ProcessDied` raised; either way the
next request starts a fresh process. After `max_requests` requests a process is ended
and the next request starts a fresh one (a program that grows as it serves). A process
forked from ours never uses our child: it starts its own. A process runs in a process
group of its own, killed whole (what it started too). A `LibraryWorker` is a warm
`python -m` worker calling a C library (librsvg, Graphviz) over framed requests (its
side: `serve`), one per drawing thread (`thread_worker`). The batch sizes of the warm
processes are here too (`DIAGRAMS_PER_JVM`, `DIAGRAMS_PER_BROWSER`,
`STRUCTURES_PER_VARNA_JVM`).
"""

from __future__ import annotations

import contextlib
import os
import resource
import selectors
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Literal, NoReturn, TypeVar

# The batch sizes of the warm processes, in one place.
#: Diagrams per PlantUML JVM before a batch gets another one: a JVM's warm-up (start,
#: class loading, JIT) costs about as much as drawing 60 small diagrams. On 2 idle cores
#: (`diagbench render`, medians of 3): 60 diagrams, one JVM 7.8 s, two 7.7 s; 200
#: diagrams, one JVM 19.1 s, two 15.7 s. (On cores other work keeps busy, one JVM
#: wins longer: 200 diagrams at load ~15, one JVM 50 s, two 66 s.)
DIAGRAMS_PER_JVM = 60
#: Diagrams one browser (Mermaid's) draws before a fresh one takes over: a browser that
#: has drawn thousands grows until it stops.
DIAGRAMS_PER_BROWSER = 300
#: Structures one VARNA JVM draws before a fresh one takes over (a bound on its growth).
STRUCTURES_PER_VARNA_JVM = 1000

#: Where the programs are looked for when PATH is not set.
DEFAULT_PATH = "/usr/bin:/bin"
_LENGTH = struct.Struct("<Q")
_CHUNK = 1 << 16


class ProcessTimeout(Exception):
    """The process did not answer (or take a request) in time; it was killed."""


class ProcessDied(Exception):
    """The process ended, or its answer broke the framing; it was killed."""


def minimal_env(home: str, passed: Sequence[str] = (),
                extra: dict[str, str] | None = None) -> dict[str, str]:
    """PATH, HOME (`home`), a UTF-8 locale, the variables of ours named in `passed`
    (those set) and `extra`: nothing else of our environment."""
    env = {"PATH": os.environ.get("PATH", DEFAULT_PATH), "HOME": home, "LANG": "C.UTF-8"}
    env |= {name: os.environ[name] for name in passed if name in os.environ}
    return env | (extra or {})


def frame(data: bytes) -> bytes:
    """`data` with its length in front (8 bytes, little-endian), as `read_frame` reads it."""
    return _LENGTH.pack(len(data)) + data


def read_frame_from(stream: IO[bytes]) -> bytes:
    """The next frame of `stream`, waiting as long as it takes (for the child's side,
    which waits for its next request), read to its end and no further from an
    unbuffered stream too; EOFError when the stream ends."""
    head = _read_up_to(stream, _LENGTH.size)
    if len(head) < _LENGTH.size:
        raise EOFError("the stream ended")
    size = _LENGTH.unpack(head)[0]
    data = _read_up_to(stream, size)
    if len(data) < size:
        raise EOFError("the stream ended inside a frame")
    return data


def _read_up_to(stream: IO[bytes], size: int) -> bytes:
    """`size` bytes of `stream`, fewer only where it ends (an unbuffered stream's read
    may give fewer before its end)."""
    chunks, left = [], size
    while left:
        chunk = stream.read(min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def write_within(fd: int, data: bytes, timeout: float) -> None:
    """Write `data` to the pipe `fd` (made non-blocking) within `timeout` seconds:
    ProcessTimeout past it (the reader took no more), OSError (a broken pipe) when the
    reader has ended."""
    os.set_blocking(fd, False)
    view, deadline = memoryview(data), time.monotonic() + timeout
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_WRITE)
        while view:
            try:
                view = view[os.write(fd, view[:_CHUNK]):]
                continue
            except BlockingIOError:
                pass
            left = deadline - time.monotonic()
            if left <= 0 or not selector.select(left):
                raise ProcessTimeout(f"took no input for {timeout:g} s")


class WarmProcess:
    """One long-lived `command`, started when first needed (see the module's docstring).

    `passed`: the variables of our environment it sees; `extra_env`: variables set for
    it; `cwd`: its working folder (default: its jail); `memory_bytes`: its address-space
    limit; `max_requests`: requests it serves before a fresh process takes over;
    `stderr`: what it writes on stderr dropped ("drop"), kept in a file (`stderr_tail`,
    "keep") or a pipe the caller reads (`process.stderr`, "pipe": a protocol of its own
    on two streams, always with a deadline).
    Not thread-safe: one caller at a time (a lock around it, or one per thread)."""

    def __init__(self, command: Sequence[str], *, passed: Sequence[str] = (),
                 extra_env: dict[str, str] | None = None, cwd: str | None = None,
                 memory_bytes: int | None = None, max_requests: int | None = None,
                 stderr: Literal["drop", "keep", "pipe"] = "drop") -> None:
        self.command = list(command)
        self.passed = tuple(passed)
        self.extra_env = dict(extra_env or {})
        self.cwd = cwd
        self.memory_bytes = memory_bytes
        self.max_requests = max_requests
        self.stderr = stderr
        self.process: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self.jail: str | None = None
        self.started = 0  # processes started, for tests and benchmarks
        self.requests = 0  # requests of the running process
        self._pid = os.getpid()
        self._buffer = bytearray()

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None \
            and self._pid == os.getpid()

    def ensure(self) -> bool:
        """Start the process unless it runs (a fresh one after `max_requests`); whether
        it was started now. OSError when the program cannot be started."""
        if os.getpid() != self._pid:  # a forked child: the parent's process is not ours
            self.process, self.jail, self._pid = None, None, os.getpid()
        if self.running and (self.max_requests is None or self.requests < self.max_requests):
            return False
        self.close()
        if self._stderr is not None:
            self._stderr.close()
        self.jail = tempfile.mkdtemp(prefix="diagbench-process-")
        home = os.environ.get("HOME", self.jail) if "HOME" in self.passed else self.jail
        self._stderr = tempfile.TemporaryFile() if self.stderr == "keep" else None  # noqa: SIM115
        try:
            self.process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=self._stderr or (subprocess.PIPE if self.stderr == "pipe"
                                        else subprocess.DEVNULL),
                cwd=self.cwd or self.jail, start_new_session=True,  # its own process group
                env=minimal_env(home, self.passed, self.extra_env))
        except OSError:
            self.close()
            raise
        if self.memory_bytes is not None:
            with contextlib.suppress(OSError):  # it may have ended already
                resource.prlimit(self.process.pid, resource.RLIMIT_AS,
                                 (self.memory_bytes, self.memory_bytes))
        assert self.process.stdin is not None
        os.set_blocking(self.process.stdin.fileno(), False)  # writes wait with a deadline
        self.started += 1
        self.requests = 0
        self._buffer.clear()
        return True

    def send(self, data: bytes, timeout: float) -> None:
        """Write one request (starting the process when it does not run), within
        `timeout` seconds."""
        self.ensure()
        self.requests += 1
        self.write(data, timeout)

    def write(self, data: bytes, timeout: float) -> None:
        """Write `data` to the running process within `timeout` seconds."""
        process = self._running()
        assert process.stdin is not None
        try:
            write_within(process.stdin.fileno(), data, timeout)
        except ProcessTimeout as exc:
            self._fail(exc)
        except OSError:  # a broken pipe: it has ended
            self._fail(ProcessDied("the process stopped reading its input"))

    def end_input(self) -> None:
        """Close its input (a program that reads its whole input before answering)."""
        process = self._running()
        assert process.stdin is not None
        with contextlib.suppress(OSError):
            process.stdin.close()

    def stderr_tail(self, size: int = 4096) -> str:
        """The last `size` bytes it wrote on stderr (with `stderr="keep"`; kept until the
        next process starts)."""
        if self._stderr is None:
            return ""
        self._stderr.seek(max(0, self._stderr.seek(0, os.SEEK_END) - size))
        return self._stderr.read().decode("utf-8", "replace")

    def read_line(self, timeout: float, max_bytes: int = 1 << 26) -> bytes:
        """The next line of its output (without the newline) within `timeout` seconds;
        ProcessDied when the output ends first or the line is over `max_bytes`."""
        deadline = time.monotonic() + timeout
        while (end := self._buffer.find(b"\n")) < 0:
            if len(self._buffer) > max_bytes:
                self._fail(ProcessDied(f"an answer line over {max_bytes:,} bytes"))
            self._fill(deadline, timeout)
        line = bytes(self._buffer[:end])
        del self._buffer[:end + 1]
        return line

    def read_exact(self, size: int, timeout: float) -> bytes:
        """The next `size` bytes of its output within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while len(self._buffer) < size:
            self._fill(deadline, timeout)
        data = bytes(self._buffer[:size])
        del self._buffer[:size]
        return data

    def read_frame(self, timeout: float, max_bytes: int = 1 << 32) -> bytes:
        """The next frame (see `frame`) of its output within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        size = _LENGTH.unpack(self.read_exact(_LENGTH.size, timeout))[0]
        if size > max_bytes:
            self._fail(ProcessDied(f"an answer of {size:,} bytes, over {max_bytes:,}"))
        return self.read_exact(size, max(0.0, deadline - time.monotonic()))

    def finish(self, timeout: float) -> None:
        """End the process cleanly: its input closed, `timeout` seconds to exit, then
        killed."""
        if self.running:
            assert self.process is not None and self.process.stdin is not None
            with contextlib.suppress(OSError):
                self.process.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout)
        self.close()

    def close(self) -> None:
        """Kill the process and every process it started (its process group: a browser
        its Node started), remove its jail (the next request starts a new one); what it
        wrote on stderr is kept until the next process starts."""
        process, jail, self.process, self.jail = self.process, self.jail, None, None
        if process is not None and self._pid == os.getpid():
            with contextlib.suppress(ProcessLookupError, PermissionError):  # all ended
                os.killpg(process.pid, signal.SIGKILL)
            process.kill()
            process.wait()
            for stream in (process.stdin, process.stdout, process.stderr):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
        if jail is not None:
            shutil.rmtree(jail, ignore_errors=True)
        self._buffer.clear()

    def _running(self) -> subprocess.Popen[bytes]:
        if self.process is None or self._pid != os.getpid():
            raise ProcessDied("the process is not running")
        return self.process

    def _fill(self, deadline: float, timeout: float) -> None:
        """Add what the process writes next to the buffer, before `deadline`."""
        process = self._running()
        assert process.stdout is not None
        fd = process.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            if not self._wait(selector, deadline):
                self._fail(ProcessTimeout(f"no answer within {timeout:g} s"))
        chunk = os.read(fd, _CHUNK)
        if not chunk:
            self._fail(ProcessDied("the process ended"))
        self._buffer += chunk

    @staticmethod
    def _wait(selector: selectors.BaseSelector, deadline: float) -> bool:
        left = deadline - time.monotonic()
        return left > 0 and bool(selector.select(left))

    def _fail(self, error: Exception) -> NoReturn:
        self.close()
        raise error


# --- a warm Python worker calling a C library (librsvg, Graphviz) -------------------------

#: Seconds a library worker may take to start (load its libraries, say it is ready).
WORKER_START_SECONDS = 30.0
_SRC = str(Path(__file__).resolve().parents[2])
READY = b"ready"  # what a library worker says once its library is loaded
W = TypeVar("W", bound="LibraryWorker")


class LibraryWorker:
    """A warm `python -m module` calling a C library through ctypes: its own process (a
    crash or a leak of the library's stays there), diagbench importable, an empty jail
    and a minimal environment plus `extra_env`, its address space capped at
    `memory_bytes`. It says `READY` once its library is loaded (`serve` does, or a loop
    of its own: the warm Graphviz's forks a child per request); one that
    ends before that, or takes longer than `WORKER_START_SECONDS`, cannot load it and is
    never started again (`unusable`): its callers fall back to the library's program."""

    def __init__(self, module: str, name: str, memory_bytes: int,
                 extra_env: dict[str, str] | None = None) -> None:
        path = os.pathsep.join([_SRC, *(os.path.abspath(p) for p in
                                        os.environ.get("PYTHONPATH", "").split(os.pathsep)
                                        if p)])
        self.name = name
        self.process = WarmProcess([sys.executable, "-m", module],
                                   extra_env={"PYTHONPATH": path, "LC_ALL": "C.UTF-8"}
                                   | (extra_env or {}), memory_bytes=memory_bytes)
        self.unusable = False  # it could not start: no library

    def ask(self, request: Sequence[bytes], answers: int, timeout: float) -> list[bytes] | None:
        """The `answers` frames it answers `request` (frames) with, or None when it cannot
        answer (it cannot start, or it ended on this request: the next one starts a fresh
        process); subprocess.TimeoutExpired past `timeout` seconds."""
        if self.unusable:
            return None
        try:
            if self.process.ensure():
                try:
                    self.process.read_frame(WORKER_START_SECONDS)  # ready
                except (ProcessDied, ProcessTimeout):
                    self.unusable = True
                    return None
            self.process.send(b"".join(frame(part) for part in request), timeout)
            return [self.process.read_frame(timeout) for _ in range(answers)]
        except ProcessTimeout:
            raise subprocess.TimeoutExpired(self.name, timeout) from None
        except (ProcessDied, OSError):
            return None

    def close(self) -> None:
        self.process.close()


def thread_worker(local: threading.local, attribute: str, make: Callable[[], W]) -> W:
    """This thread's worker, kept as `attribute` of `local`: made by `make` on the
    thread's first call, closed when the thread ends (a render's drawing threads end with
    the render, so nothing stays once an engine has drawn)."""
    worker: W | None = getattr(local, attribute, None)
    if worker is None:
        worker = make()
        setattr(local, attribute, worker)
        weakref.finalize(worker, worker.process.close)
    return worker


def answer_channel() -> int:
    """A library worker's answers' channel: a descriptor of its stdout kept to itself,
    stdout itself sent to /dev/null (what the library writes there is no answer)."""
    answers = os.dup(1)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.close(null)
    return answers


def serve(answer: Callable[[list[bytes]], list[bytes]], frames: int) -> None:
    """A library worker's side: say it is ready, then answer each request of `frames`
    frames on stdin with the frames `answer` gives (on `answer_channel`), until the
    input ends; after each answer the memory freed goes back to the system."""
    import ctypes

    answers = os.fdopen(answer_channel(), "wb")
    trim = ctypes.CDLL(None).malloc_trim
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    requests = sys.stdin.buffer
    answers.write(frame(READY))
    answers.flush()
    while True:
        try:
            request = [read_frame_from(requests) for _ in range(frames)]
        except EOFError:
            return
        answers.write(b"".join(frame(part) for part in answer(request)))
        answers.flush()
        trim(0)
