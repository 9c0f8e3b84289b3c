"""PlantUML on several channels of one JVM: `SharedJVM` and its `ChannelWorker`s.

A second JVM costs its own start, class loading and JIT warm-up, as much as drawing
dozens of small diagrams. So an engine runs one JVM with one PlantUML pipe loop per
channel, each on its own thread and drawing its own format (PNG channels and SVG
channels warm up together): our launcher (`java/DiagbenchPipes.java`, compiled once
per machine with `javac` into the cache folder) gives each thread its own stdin, stdout
and stderr, three inherited pipes. A diagram that times out, or a JVM that dies, ends
the JVM for every channel: the channels that were drawing draw their diagram again in
the next JVM. The JVM runs in an empty folder, in PlantUML's sandbox environment, and
every write to a channel (`render.process.write_within`) and every read from it
(`read_reply`) has a deadline. Without `javac`, the engine falls back to one JVM per
worker (`PipeWorker`, a `render.process` warm process).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from diagbench.render.java_launcher import compiled
from diagbench.render.plantuml import (
    MAX_HEAP_MB,
    WARM_JVM_OPTIONS,
    class_archive,
    jar_path,
    java_command,
    sandbox_env,
)
from diagbench.render.plantuml_process import (
    STARTUP_SECONDS,
    ArchiveWriter,
    Died,
    Timeout,
    encoded,
    new_delimiter,
    pipe_arguments,
    read_reply,
    stop,
)
from diagbench.render.process import ProcessTimeout, write_within

LAUNCHER = "DiagbenchPipes"
#: Times a channel draws a diagram again after another channel's diagram ended the JVM.
REDRAWS = 3
_Fds = tuple[int, int, int]  # a channel's ends of its pipes: (stdin to write, stdout, stderr)


def launcher_jar() -> Path | None:
    """The launcher, compiled on first use into a jar in the cache folder (a class-data
    archive maps classes from jars only) and run once with no channel, or None when there
    is no `javac`, or it fails, or `java` cannot run what it made."""
    return compiled(LAUNCHER, jar_path(), "launcher", sandbox_env(),
                    lambda packed: _run(java_command("", main=(packed, LAUNCHER))) == 0)


def _run(command: list[str]) -> int:
    """The exit status of a short Java tool run."""
    return subprocess.run(command, capture_output=True, timeout=120, check=False,
                          env=sandbox_env()).returncode


class SharedJVM:
    """One PlantUML JVM serving a channel per entry of `formats` (the format it draws,
    "png" or "svg"); started when a channel first needs it, ended by `end` (a time-out, a
    death) and started again by the next channel."""

    def __init__(self, formats: tuple[str, ...], launcher: Path,
                 write_archive: bool = True) -> None:
        self.formats = formats
        self.launcher = launcher
        self.max_heap = max_heap = f"{MAX_HEAP_MB * len(formats)}m"  # as much per channel
        self.delimiter = new_delimiter()
        self.archives = ArchiveWriter(class_archive(max_heap, launcher), write_archive)
        self.lock = threading.Lock()
        self.generation = 0  # one more each time a JVM ends
        self.process: subprocess.Popen[bytes] | None = None
        self.jail: str | None = None  # the running JVM's working folder, empty
        self.dump: Path | None = None
        self.unchecked: int | None = None  # a generation started to map the archive
        self.waiting: dict[int, _Fds] = {}  # channel -> its pipes, until it takes them
        self.taken: dict[int, _Fds] = {}  # channel -> pipes it holds (of any generation)

    def running(self, generation: int) -> bool:
        """Whether the JVM of `generation` is the current one and still runs."""
        process = self.process
        return generation == self.generation and process is not None and process.poll() is None

    def connect(self, channel: int) -> tuple[int, _Fds]:
        """(generation, pipes) of `channel` on the running JVM, started if need be (again,
        when the one running has ended)."""
        with self.lock:
            ended = None
            if self.process is not None and self.process.poll() is not None:
                ended = self._retire()
            if self.process is None:
                self._start()
            fds = self.waiting.pop(channel)
            self.taken[channel] = fds
            generation = self.generation
        if ended is not None:
            stop(ended[0], clean=False, dump=ended[1], archives=self.archives)
        return generation, fds

    def answered(self, generation: int) -> None:
        """The JVM of `generation` has drawn: by now it maps the class-data archive it was
        started with, or that archive is of no use (`ArchiveWriter.unmapped`)."""
        with self.lock:
            if generation != self.unchecked or self.process is None:
                return
            self.unchecked, pid = None, self.process.pid
        self.archives.unmapped(pid)

    def release(self, channel: int) -> None:
        """Close the pipes `channel` holds (its JVM has ended)."""
        with self.lock:
            fds = self.taken.pop(channel, None)
        for fd in fds or ():
            os.close(fd)

    def end(self, generation: int) -> bool:
        """Kill the JVM of `generation` if it still runs; whether this call ended it."""
        with self.lock:
            if generation != self.generation or self.process is None:
                return False
            process, dump = self._retire()
        stop(process, clean=False, dump=dump, archives=self.archives)
        return True

    def close(self, clean: bool = True) -> None:
        """End the JVM: every channel's input closed and (`clean`) time given to write the
        class-data archive, or killed."""
        with self.lock:
            held, self.taken = list(self.taken.values()), {}
            process, dump = self._retire() if self.process is not None else (None, None)
        for stdin, _, _ in held:
            os.close(stdin)  # PlantUML exits when its input ends
        if process is not None:
            stop(process, clean=clean, dump=dump, archives=self.archives)
        for _, stdout, stderr in held:
            os.close(stdout)
            os.close(stderr)

    def _start(self) -> None:
        parent: dict[int, _Fds] = {}
        child: list[int] = []
        spec: list[str] = []
        for k, fmt in enumerate(self.formats):
            stdin, stdout, stderr = os.pipe(), os.pipe(), os.pipe()
            parent[k] = (stdin[1], stdout[0], stderr[0])
            child += [stdin[0], stdout[1], stderr[1]]
            spec += [str(stdin[0]), str(stdout[1]), str(stderr[1]), fmt]
        options, self.dump = self.archives.options()
        self.unchecked = self.generation if options and self.dump is None else None
        self.jail = tempfile.mkdtemp(prefix="diagbench-jvm-")
        command = java_command(",".join(spec), *pipe_arguments(self.delimiter),
                               max_heap=self.max_heap,
                               jvm_options=(*WARM_JVM_OPTIONS, *options),
                               main=(self.launcher, LAUNCHER))
        try:
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                            stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL, pass_fds=child,
                                            env=sandbox_env(), cwd=self.jail)
        except BaseException:
            for fd in (fd for fds in parent.values() for fd in fds):
                os.close(fd)
            shutil.rmtree(self.jail, ignore_errors=True)
            self.jail = None
            raise
        finally:
            for fd in child:
                os.close(fd)
        self.waiting = parent

    def _retire(self) -> tuple[subprocess.Popen[bytes], Path | None]:
        """Forget the running JVM (under the lock): (process, archive dump) to stop."""
        process, dump = self.process, self.dump
        assert process is not None
        self.process, self.dump = None, None
        if self.jail is not None:
            shutil.rmtree(self.jail, ignore_errors=True)
            self.jail = None
        self.generation += 1
        for fds in self.waiting.values():
            for fd in fds:
                os.close(fd)
        self.waiting = {}
        return process, dump


class ChannelWorker:
    """One channel of a `SharedJVM`, used by one thread at a time: draws one diagram at a
    time, in its channel's format."""

    def __init__(self, jvm: SharedJVM, channel: int) -> None:
        self.jvm = jvm
        self.channel = channel
        self.fmt = jvm.formats[channel]
        self.held: tuple[int, _Fds] | None = None  # (generation, pipes)

    def render(self, source: str, timeout: float) -> tuple[bytes, str]:
        """(image bytes, stderr) for one diagram; `Timeout` (the JVM ended) when it takes
        longer than `timeout` seconds or the JVM dies on it."""
        data = encoded(source)
        for _ in range(REDRAWS + 1):
            allowed = timeout
            if self.held is None or not self.jvm.running(self.held[0]):
                self._drop()
                self.held = self.jvm.connect(self.channel)
                allowed += STARTUP_SECONDS  # this channel's first diagram in this JVM
            generation, (stdin, stdout, stderr) = self.held
            try:
                deadline = time.monotonic() + allowed
                write_within(stdin, data, allowed)
                reply = read_reply(stdout, stderr, self.jvm.delimiter, self.fmt, deadline)
                self.jvm.answered(generation)
                return reply
            except (Died, BrokenPipeError):
                self._drop()
                if self.jvm.end(generation):
                    raise Timeout from None  # it died on this diagram
            except (Timeout, ProcessTimeout):
                self.jvm.end(generation)
                self._drop()
                raise Timeout from None
        raise Timeout

    def _drop(self) -> None:
        if self.held is not None:
            self.held = None
            self.jvm.release(self.channel)

