"""The PlantUML command line on a folder of sources, one Java process per batch.

An oracle independent of the warm engine (`diagbench.render.plantuml_pipe`) for the tests,
and the one-JVM-per-diagram baseline of bench/render.py.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from diagbench.render.plantuml import PlantUMLError, java_command, sandbox_env

_START_LINE = re.compile(r"^([ \t]*@start[a-z]+)[^\n]*", re.MULTILINE | re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class BatchResult:
    """The images PlantUML wrote for each source (one per diagram block), and its messages."""

    images: list[list[Path]]
    returncode: int
    stderr: str


def render_batch(sources: list[str], fmt: str = "svg", timeout: float = 120.0,
                 work: Path | None = None) -> BatchResult:
    """Render `sources` (PlantUML text) in one Java process, the way the PlantUML
    command line renders a folder, into `work` (a new temporary folder when None,
    which the caller then owns). Names after `@startuml` are dropped, since
    PlantUML would use them as output file names (and paths).
    """
    work = work or Path(tempfile.mkdtemp(prefix="diagbench-plantuml-"))
    work.mkdir(parents=True, exist_ok=True)
    names = [f"d{k:06d}" for k in range(len(sources))]
    for name, text in zip(names, sources, strict=True):
        (work / f"{name}.puml").write_text(_START_LINE.sub(r"\1", text), encoding="utf-8")
    command = java_command(f"-t{fmt}", "-charset", "UTF-8", "-nbthread", "1",
                           *[f"{name}.puml" for name in names])
    try:
        done = subprocess.run(command, cwd=work, capture_output=True, text=True,
                              env=sandbox_env(), timeout=timeout + 2 * len(sources), check=False)
    except subprocess.TimeoutExpired:
        raise PlantUMLError(f"PlantUML did not finish {len(sources)} diagrams in time") from None
    images = [sorted(work.glob(f"{name}*.{fmt}")) for name in names]
    return BatchResult(images, done.returncode, done.stderr)
