"""Talking to long-lived PlantUML processes in pipe mode, and `PipeWorker`: one process each.

A diagram is written to the process's input; PlantUML answers with the image on its
output followed by a delimiter, and with `ERROR / line / message` on its error stream
when the diagram has a syntax error. Long-lived processes load their classes from a
class-data archive, which the first one writes at a clean exit.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import subprocess
import time
import uuid
from pathlib import Path

from diagbench.render.plantuml import (
    KEPT_ENV,
    MAX_HEAP,
    SANDBOX,
    WARM_JVM_OPTIONS,
    java_command,
)
from diagbench.render.process import ProcessDied, ProcessTimeout, WarmProcess

#: Seconds a process's clean exit may take to write the class-data archive.
ARCHIVE_TIMEOUT = 60.0
#: Seconds a JVM may take to start, beyond a diagram's time-out, for the first diagram
#: each of its pipe loops draws (a busy machine starts a JVM in tens of seconds: counted
#: in that diagram's time-out, the start ended the JVM, whose next start did again).
STARTUP_SECONDS = 60.0


class Timeout(Exception):
    """A diagram took longer than its time-out."""


class Died(Timeout):
    """A PlantUML process ended, or fell out of step, while drawing a diagram."""


def new_delimiter() -> bytes:
    """A delimiter no diagram's image contains."""
    return f"--diagbench-{uuid.uuid4().hex}--".encode()


def pipe_arguments(delimiter: bytes) -> tuple[str, ...]:
    """PlantUML's command-line arguments for pipe mode (the format, `-tpng` or `-tsvg`,
    given apart)."""
    return ("-pipe", "-charset", "UTF-8", "-pipedelimitor", delimiter.decode())


def encoded(source: str) -> bytes:
    """A diagram's source as PlantUML's pipe mode reads it."""
    return source.removeprefix("\ufeff").encode("utf-8") + b"\n"


def read_reply(stdout: int, stderr: int, delimiter: bytes, fmt: str,
               deadline: float) -> tuple[bytes, str]:
    """(image, error stream) PlantUML writes to the file descriptors `stdout` and `stderr` for
    one diagram, up to the `delimiter`: `Timeout` past the `deadline`, `Died` when a stream
    ends first or more than one reply came."""
    out, err = bytearray(), bytearray()
    streams = {stdout: out, stderr: err}
    with selectors.DefaultSelector() as selector:
        for fd in streams:
            selector.register(fd, selectors.EVENT_READ)
        while delimiter not in out:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Timeout
            for key, _ in selector.select(left):
                chunk = os.read(key.fd, 1 << 16)
                if not chunk:
                    raise Died
                streams[key.fd] += chunk
        while selector.select(0):  # what stderr already holds
            chunk = os.read(stderr, 1 << 16)
            if not chunk:
                break
            err += chunk
    image, _, rest = bytes(out).partition(delimiter)
    if rest.strip():
        raise Died
    return image.strip(b"\r\n") if fmt == "svg" else image.lstrip(b"\r\n"), \
        err.decode("utf-8", "replace")


class ArchiveWriter:
    """The class-data archive of long-lived processes: the options that map it when it
    exists, else (the first process only) the options that write it at a clean exit."""

    def __init__(self, archive: Path | None, write: bool) -> None:
        self.archive = archive
        self.write = write and archive is not None

    def options(self) -> tuple[list[str], Path | None]:
        """(JVM options, where this process writes the archive or None)."""
        if self.archive is None:
            return [], None
        if self.archive.is_file():
            return [f"-XX:SharedArchiveFile={self.archive}"], None
        if not self.write:
            return [], None
        self.write = False  # the first process only
        try:
            self.archive.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError:
            return [], None  # no cache folder: no archive
        dump = self.archive.with_name(f"{self.archive.name}.{uuid.uuid4().hex}")
        return [f"-XX:ArchiveClassesAtExit={dump}"], dump

    def unmapped(self, pid: int) -> None:
        """Remove the archive when the process `pid`, started to map it, has not (damaged,
        or stale: Java then drops it, and its own default archive too, without a word), so
        that a later first process writes it again. Linux (/proc); elsewhere nothing."""
        if self.archive is None:
            return
        try:
            with open(f"/proc/{pid}/maps", encoding="utf-8") as maps:
                if any(str(self.archive) in line for line in maps):
                    return
        except OSError:
            return
        self.archive.unlink(missing_ok=True)

    def keep(self, returncode: int | None, dump: Path | None) -> None:
        """Keep the archive a process wrote at a clean exit; remove any partial one."""
        if dump is None or self.archive is None:
            return
        if returncode == 0 and dump.is_file():
            os.replace(dump, self.archive)
        dump.unlink(missing_ok=True)


def stop(process: subprocess.Popen[bytes], clean: bool, dump: Path | None,
         archives: ArchiveWriter) -> None:
    """End a process: killed, or (`clean`, when it writes the class-data archive) given
    `ARCHIVE_TIMEOUT` seconds to exit once its input has ended."""
    if clean and dump is not None and process.poll() is None:
        with contextlib.suppress(subprocess.TimeoutExpired, OSError):
            process.communicate(timeout=ARCHIVE_TIMEOUT)
    process.kill()
    process.wait()
    archives.keep(process.returncode, dump)


class PipeWorker:
    """One long-lived PlantUML process rendering one diagram at a time, a `render.process`
    warm process (an empty jail folder, PlantUML's sandbox environment).

    With `archive`, the process maps that class-data archive when it exists; else,
    when `write_archive`, its first process writes it at a clean `close()`."""

    def __init__(self, fmt: str, max_heap: str = MAX_HEAP, archive: Path | None = None,
                 write_archive: bool = False) -> None:
        self.fmt = fmt
        self.max_heap = max_heap
        self.delimiter = new_delimiter()
        self.archives = ArchiveWriter(archive, write_archive)
        self.dump: Path | None = None  # where the running process writes the archive
        self.warm = WarmProcess([], passed=KEPT_ENV, extra_env=SANDBOX, stderr="pipe")

    @property
    def process(self) -> subprocess.Popen[bytes] | None:
        """The running PlantUML process, if any."""
        return self.warm.process

    def close(self, clean: bool = True) -> None:
        """Stop the process (see `stop`)."""
        process, dump, self.dump = self.warm.process, self.dump, None
        if process is not None:
            stop(process, clean, dump, self.archives)
        self.warm.close()

    def render(self, source: str, timeout: float) -> tuple[bytes, str]:
        """(image bytes, stderr) for one `@startuml … @enduml` diagram; `Timeout` (the
        process killed) when it takes longer than `timeout` seconds or the process ends."""
        fresh = not self.warm.running
        if fresh:
            self.close(clean=False)
            options, self.dump = self.archives.options()
            self.warm.command = java_command(f"-t{self.fmt}", *pipe_arguments(self.delimiter),
                                             max_heap=self.max_heap,
                                             jvm_options=(*WARM_JVM_OPTIONS, *options))
        allowed = timeout + (STARTUP_SECONDS if fresh else 0.0)
        try:
            self.warm.send(encoded(source), allowed)
            process = self.warm.process
            assert process is not None and process.stdout is not None \
                and process.stderr is not None  # both piped
            return read_reply(process.stdout.fileno(), process.stderr.fileno(),
                              self.delimiter, self.fmt, time.monotonic() + allowed)
        except (Timeout, ProcessTimeout, ProcessDied):
            self.close(clean=False)
            raise Timeout from None
