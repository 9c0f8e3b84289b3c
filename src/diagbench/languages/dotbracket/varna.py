"""VARNA kept warm: one JVM draws structure after structure (`warm_varna`).

A JVM's start costs as much as drawing a structure several times over, so VARNA runs
in JVMs that stay: our launcher (`render/java/DiagbenchVarna.java`, compiled once per
machine with `javac` into diagbench's JVM cache folder) runs VARNA's own command line
(`VARNAcmd`) for each structure it is sent, with the options `engine.run_varna` gives,
and answers with what a fresh `VARNAcmd` would have left: its exit status, its stdout
and stderr, and the SVG. Each JVM is a `render.process` warm process (an empty jail
folder, its working folder, where VARNA writes the one drawing; a minimal environment;
the heap capped at `HEAP`), one per drawing thread, kept for the Python process and
replaced after `process.STRUCTURES_PER_VARNA_JVM` structures; every answer is awaited
with the structure's time-out, past which the JVM is killed (the next structure starts
a fresh one). Without `javac`, or when the launcher does not build, `warm_varna` says
so (None) and each structure gets a JVM of its own.
"""

from __future__ import annotations

import atexit
import os
import queue
import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from diagbench.render import process
from diagbench.render.java_launcher import compiled
from diagbench.render.process import WarmProcess, frame

LAUNCHER = "DiagbenchVarna"
#: The heap of a VARNA JVM (as each one-structure JVM had).
HEAP = "-Xmx512m"
#: Seconds a JVM may take to start, on top of its first structure's time-out.
START_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class VarnaRun:
    """What one `VARNAcmd` run left: its exit status, stdout, stderr and the SVG (None
    when it wrote none)."""

    status: int
    stdout: bytes
    stderr: bytes
    svg: bytes | None


@cache
def launcher(jar: Path) -> Path | None:
    """The launcher jar, compiled on first use into the JVM cache folder (keyed by its
    source, Java and VARNA's jar), or None without `javac` or when it does not build."""
    return compiled(LAUNCHER, jar, "varna-launcher",
                    {"PATH": os.environ.get("PATH", process.DEFAULT_PATH)})


class VarnaJVM:
    """One warm VARNA JVM (see the module's docstring)."""

    def __init__(self, java: str, jar: Path, launcher_jar: Path, options: list[str]) -> None:
        self.process = WarmProcess(
            [java, "-Djava.awt.headless=true", HEAP, "-XX:+UseSerialGC", "-cp",
             f"{jar}{os.pathsep}{launcher_jar}", LAUNCHER, *options],
            max_requests=process.STRUCTURES_PER_VARNA_JVM)

    def draw(self, sequence: str, structure: str, timeout: float) -> VarnaRun:
        """VARNA's run on one structure; ProcessTimeout past `timeout` seconds (its
        first structure also has `process.START_SECONDS` to start), ProcessDied when the
        JVM ends before it answers (both kill it)."""
        wait = timeout + (START_SECONDS if self.process.ensure() else 0.0)
        self.process.send(frame(f"{sequence}\n{structure}".encode()), wait)
        status = int(self.process.read_frame(wait))
        stdout, stderr = self.process.read_frame(wait), self.process.read_frame(wait)
        svg = self.process.read_frame(wait)
        return VarnaRun(status, stdout, stderr, svg or None)

    def close(self) -> None:
        self.process.finish(2)


class VarnaPool:
    """The warm JVMs of this Python process: one per thread drawing at once, idle ones
    kept for the next structure."""

    def __init__(self, java: str, jar: Path, launcher_jar: Path, options: list[str]) -> None:
        self.args = (java, jar, launcher_jar, options)
        self.idle: queue.LifoQueue[VarnaJVM] = queue.LifoQueue()
        self.made: list[VarnaJVM] = []
        atexit.register(self.close)

    def draw(self, sequence: str, structure: str, timeout: float) -> VarnaRun:
        """VARNA's run on one structure in an idle JVM (a new one when none is idle)."""
        try:
            jvm = self.idle.get_nowait()
        except queue.Empty:
            jvm = VarnaJVM(*self.args)
            self.made.append(jvm)
        try:
            return jvm.draw(sequence, structure, timeout)
        finally:
            self.idle.put(jvm)

    def close(self) -> None:
        for jvm in self.made:
            jvm.close()


_POOLS: dict[tuple[str, ...], VarnaPool] = {}
_POOLS_LOCK = threading.Lock()


def warm_varna(java: str, jar: Path, options: list[str]) -> VarnaPool | None:
    """The pool of warm JVMs running VARNA with `options`, or None when the launcher
    cannot be built (see the module's docstring)."""
    key = (java, str(jar), *options)
    with _POOLS_LOCK:
        if key not in _POOLS:
            launcher_jar = launcher(jar)
            if launcher_jar is None:
                return None
            _POOLS[key] = VarnaPool(java, jar, launcher_jar, options)
        return _POOLS[key]


def end_pools() -> None:
    """End every warm VARNA JVM of this process (the next structure starts one again)."""
    with _POOLS_LOCK:
        pools = list(_POOLS.values())
    for pool in pools:
        pool.close()
