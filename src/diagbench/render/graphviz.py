"""Graphviz as `dot -T<fmt>` draws, sandboxed; each source given in the encoding it
declares (`charset=latin1`), else UTF-8.

PNG and SVG are drawn by a warm Graphviz (`render.graphviz_warm`, one process per
drawing thread, the same bytes and messages as `dot`), a PNG's SVG from the same layout
kept until the next batch (a build draws the same sources in SVG right after); anything
the warm Graphviz leaves (another format, a source it is not sure to draw as `dot`
does, a process that cannot start or ends on a source) is drawn by `dot` itself, one
process per diagram. A diagram is invalid when `dot` would exit non-zero or say "Error";
the first line it says is the error, with its line.

Graphviz can read local files through `image`/`shapefile` attributes; with
SERVER_NAME set it runs in its web-server mode, where such paths may only
name files in GV_FILE_PATH, which here is an empty directory (`dot`'s and each warm
process's own).
"""

from __future__ import annotations

import re
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

from diagbench.formats.source import encode_source
from diagbench.render import graphviz_warm
from diagbench.render.graphviz_warm import DotOutput
from diagbench.render.kept_drawings import KeptDrawings
from diagbench.render.programs import program, run_program
from diagbench.render.result import RenderResult, finish, refusal

_LINE = re.compile(r"\bline (\d+)")
#: The formats the warm Graphviz draws (checked byte for byte against `dot`).
WARM_FORMATS = ("png", "svg")


def dot_path() -> str:
    """The path of `dot`; EngineMissing when Graphviz is not installed."""
    return program("dot")


@cache
def dot_version() -> str:
    done = run_program([dot_path(), "-V"], timeout=30)
    m = re.search(r"version (\S+)", done.stderr.decode("utf-8", "replace"))
    return m.group(1) if m else "unknown"


class GraphvizEngine:
    """Render DOT sources as `dot` does, `jobs` at a time (see the module's docstring)."""

    name = "graphviz"

    def __init__(self, jobs: int = 2, timeout: float = 20.0) -> None:
        self.jobs = jobs
        self.timeout = timeout
        self._kept: KeptDrawings[DotOutput] = KeptDrawings()  # a PNG's SVG

    def version(self) -> str:
        return dot_version()

    def close(self) -> None:
        """Forget the drawings kept of the last batch (its warm processes ended with it)."""
        self._kept.clear()

    def render(self, sources: list[str], out_dir: Path, fmt: str = "png",
               progress=lambda: None) -> list[RenderResult]:
        self._kept.next_batch()
        with tempfile.TemporaryDirectory(prefix="diagbench-dot-") as jail:
            env = {"SERVER_NAME": "diagbench", "GV_FILE_PATH": jail}

            def work(k: int) -> RenderResult:
                result = self._one(k, sources[k], fmt, out_dir, env, jail)
                progress()
                return result

            with ThreadPoolExecutor(max_workers=max(1, self.jobs)) as pool:
                return list(pool.map(work, range(len(sources))))

    def _one(self, k: int, source: str, fmt: str, out_dir: Path, env: dict[str, str],
             jail: str) -> RenderResult:
        result = RenderResult(k, self.name, self.version())
        start = time.perf_counter()
        result.error = refusal(source)
        if result.error is None:
            try:
                done = self._drawn(encode_source(source), fmt, env, jail)
            except subprocess.TimeoutExpired:
                result.error = f"timed out after {self.timeout:g} s"
            else:
                stderr = done.stderr.strip()
                if done.returncode or "Error" in stderr:
                    result.error = stderr.splitlines()[0] if stderr else f"exit {done.returncode}"
                    m = _LINE.search(stderr)
                    result.error_line = int(m.group(1)) if m else None
                else:
                    finish(result, done.data, fmt, out_dir / f"{k:06d}.{fmt}")
        result.seconds = time.perf_counter() - start
        return result

    def _drawn(self, source: bytes, fmt: str, env: dict[str, str], jail: str) -> DotOutput:
        """What `dot -T<fmt>` writes and says of `source`: kept from the last batch, else
        by this thread's warm Graphviz (keeping an SVG drawn with a PNG), else by `dot`."""
        found = self._kept.find(fmt, source)
        if found is not None:
            return found
        if fmt in WARM_FORMATS:
            formats = (fmt, "svg") if fmt == "png" else (fmt,)
            drawn = graphviz_warm.draw(source, formats, self.timeout, self.version())
            if drawn is not None:
                for other in formats[1:]:
                    self._kept.keep(other, source, drawn[other])
                return drawn[fmt]
        done = run_program([dot_path(), f"-T{fmt}"], self.timeout, source, jail, env)
        return DotOutput(done.stdout, done.stderr.decode("utf-8", "replace"), done.returncode)
