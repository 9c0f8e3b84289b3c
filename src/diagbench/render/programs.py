"""The separate programs some engines run (Graphviz's dot, abcm2ps, VARNA's Java,
rsvg-convert): found
on the PATH (`EngineMissing` names the Debian package that brings one), their versions
as they say them, and each run without a shell, in an empty temporary folder that is
also its HOME, with a minimal environment and a time-out (`subprocess.TimeoutExpired`
goes to the caller: `render.drawing` makes it the source's error).

`svg_to_png` rasterises an SVG as rsvg-convert (librsvg, LGPL-2.1) does, by a warm
librsvg (`render.rsvg`) where it can, for the engines whose drawing is SVG (the chess
board, abcm2ps, VARNA, netlistsvg, schemdraw): PNG and SVG from one drawing.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from contextlib import nullcontext
from functools import cache

from diagbench.render import rsvg
from diagbench.render.result import EngineMissing

#: The Debian package that brings each program (what `scripts/setup.sh` installs).
PACKAGES = {"abcm2ps": "abcm2ps", "dot": "graphviz", "java": "default-jdk-headless",
            "rsvg-convert": "librsvg2-bin"}


@cache
def program(name: str) -> str:
    """The path of the program `name`; EngineMissing when it is not installed."""
    path = shutil.which(name)
    if path is None:
        raise EngineMissing(f"{name!r} not found: install Debian's {PACKAGES.get(name, name)} "
                            "(bash scripts/setup.sh does it)")
    return path


@cache
def program_version(name: str, option: str, pattern: str) -> str:
    """The version the program `name` prints when given `option`: the first group of
    `pattern` in its output ("unknown" when it is not there)."""
    done = run_program([program(name), option], timeout=60)
    said = re.search(pattern, (done.stdout + done.stderr).decode("utf-8", "replace"))
    return said.group(1) if said else "unknown"


def rsvg_version() -> str:
    """rsvg-convert's version ("2.54.7")."""
    return program_version("rsvg-convert", "--version", r"version (\S+)")


def run_program(command: list[str], timeout: float, stdin: bytes = b"",
                jail: str | None = None,
                env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run `command` (no shell) with `stdin`, in `jail` (a new empty temporary folder
    when None) that is also its HOME, with only PATH, a UTF-8 locale and `env` set."""
    folder = nullcontext(jail) if jail else tempfile.TemporaryDirectory(prefix="diagbench-program-")
    with folder as cwd:
        return subprocess.run(command, input=stdin, capture_output=True, cwd=cwd,
                              env={"PATH": "/usr/bin:/bin", "HOME": cwd,
                                   "LC_ALL": "C.UTF-8"} | (env or {}),
                              timeout=timeout, check=False)


def svg_to_png(svg: bytes, timeout: float, zoom: float = 1.0) -> bytes:
    """The PNG rsvg-convert draws of `svg` (on white, `zoom` times its size), by a warm
    librsvg (`render.rsvg`, the same bytes) where it can; ValueError with rsvg-convert's
    message when it draws none."""
    png = rsvg.to_png(svg, f"{zoom:.4f}", timeout)
    if png is not None:
        return png
    done = run_program([program("rsvg-convert"), "--format", "png", "--background-color",
                        "white", "--zoom", f"{zoom:.4f}"], timeout, stdin=svg)
    if done.returncode or not done.stdout:
        message = done.stderr.decode("utf-8", "replace").strip()
        raise ValueError("rsvg-convert: " + (message.splitlines()[0] if message
                                             else f"exit {done.returncode}"))
    return done.stdout
