"""Graphviz `dot`, one process per diagram (it starts in milliseconds), sandboxed; each
source given in the encoding it declares (`charset=latin1`), else UTF-8.

`dot` can read local files through `image`/`shapefile` attributes; with
SERVER_NAME set it runs in its web-server mode, where such paths may only
name files in GV_FILE_PATH, which here is an empty directory.
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
from diagbench.render.programs import program, run_program
from diagbench.render.result import RenderResult, finish, refusal

_LINE = re.compile(r"\bline (\d+)")


def dot_path() -> str:
    """The path of `dot`; EngineMissing when Graphviz is not installed."""
    return program("dot")


@cache
def dot_version() -> str:
    done = run_program([dot_path(), "-V"], timeout=30)
    m = re.search(r"version (\S+)", done.stderr.decode("utf-8", "replace"))
    return m.group(1) if m else "unknown"


class GraphvizEngine:
    """Render DOT sources with `dot`, `jobs` at a time."""

    name = "graphviz"

    def __init__(self, jobs: int = 2, timeout: float = 20.0) -> None:
        self.jobs = jobs
        self.timeout = timeout

    def version(self) -> str:
        return dot_version()

    def close(self) -> None:
        """Nothing to end: one `dot` a diagram."""

    def render(self, sources: list[str], out_dir: Path, fmt: str = "png",
               progress=lambda: None) -> list[RenderResult]:
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
                done = run_program([dot_path(), f"-T{fmt}"], self.timeout,
                                   encode_source(source), jail, env)
            except subprocess.TimeoutExpired:
                result.error = f"timed out after {self.timeout:g} s"
            else:
                stderr = done.stderr.decode("utf-8", "replace").strip()
                if done.returncode or "Error" in stderr:
                    result.error = stderr.splitlines()[0] if stderr else f"exit {done.returncode}"
                    m = _LINE.search(stderr)
                    result.error_line = int(m.group(1)) if m else None
                else:
                    finish(result, done.stdout, fmt, out_dir / f"{k:06d}.{fmt}")
        result.seconds = time.perf_counter() - start
        return result
