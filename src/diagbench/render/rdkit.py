"""RDKit's 2D depiction of SMILES, in worker processes with a time-out and size limits.

RDKit is a C++ library: run in diagbench's own process, a molecule that makes it hang
or crash would take diagbench along. Each of `jobs` threads keeps one warm worker
(`diagbench.render.rdkit_worker`, RDKit imported once) and sends it one molecule at a
time; a worker that does not answer within the time-out is killed, the molecule gets
that error, and a fresh worker takes the next one (so does a worker that died). A
worker caps its own memory (`rdkit_worker.MEMORY_BYTES`), and a source over `refusal`'s size or the
worker's atom limit is refused with its reason.

One source is one molecule (one line of a `.smi` file, `diagbench.render.engines.
diagrams` splits files), or for `RdkitReactionEngine` one reaction (a line of a
`.rxn.smi` file, drawn by RDKit's reaction depiction). The worker draws the SVG
(for a molecule with RDKit's metadata: each atom's and bond's SMILES) and the PNG in
one pass; the image asked for is the result's, the other is written beside it with the
same name. Valid means RDKit read and drew it; the error is RDKit's own message.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from importlib.metadata import version as package_version
from pathlib import Path
from typing import Any

from diagbench.formats.smiles import records
from diagbench.render.result import RenderResult, finish, refusal

#: The side of the square drawing, in pixels.
SIZE = 300
_SRC = Path(__file__).resolve().parents[2]


@cache
def rdkit_version() -> str:
    return package_version("rdkit")


class _Worker:
    """One worker process, started when first asked and again after it was killed."""

    def __init__(self, home: str) -> None:
        self.home = home
        self.process: subprocess.Popen[str] | None = None
        self.answers: queue.Queue[str | None] = queue.Queue()

    def _start(self) -> subprocess.Popen[str]:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self.home,
               "PYTHONPATH": str(_SRC), "LANG": "C.UTF-8"}
        process = subprocess.Popen(
            [sys.executable, "-m", "diagbench.render.rdkit_worker"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
            cwd=self.home)
        self.answers = queue.Queue()
        stdout, answers = process.stdout, self.answers
        assert stdout is not None

        def read() -> None:
            for line in stdout:
                answers.put(line)
            answers.put(None)  # the worker ended

        threading.Thread(target=read, daemon=True).start()
        return process

    def ask(self, job: dict[str, Any], timeout: float) -> dict[str, Any]:
        """The worker's answer to one job, or the error of its time-out or crash."""
        if self.process is None or self.process.poll() is not None:
            self.process = self._start()
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(job) + "\n")
            self.process.stdin.flush()
            line = self.answers.get(timeout=timeout)
        except queue.Empty:
            self.stop()
            return {"ok": False, "error": f"timed out after {timeout:g} s"}
        except OSError:
            line = None
        if line is None:
            code = self.process.wait()
            self.process = None
            return {"ok": False, "error": f"the RDKit worker died (exit {code})"}
        answer: dict[str, Any] = json.loads(line)
        return answer

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


class RdkitEngine:
    """Draw SMILES with RDKit, `jobs` worker processes at a time."""

    name = "rdkit"
    #: Whether a source is a reaction SMILES (drawn by RDKit's reaction depiction).
    reaction = False

    def __init__(self, jobs: int = 2, timeout: float = 20.0) -> None:
        self.jobs = jobs
        self.timeout = timeout

    def version(self) -> str:
        return rdkit_version()

    def render(self, sources: list[str], out_dir: Path, fmt: str = "png",
               progress: Callable[[], None] = lambda: None) -> list[RenderResult]:
        results = [RenderResult(k, self.name, self.version()) for k in range(len(sources))]
        lanes = max(1, min(self.jobs, len(sources)))
        with tempfile.TemporaryDirectory(prefix="diagbench-rdkit-") as home:

            def lane(first: int) -> None:
                worker = _Worker(home)
                try:
                    for k in range(first, len(sources), lanes):
                        self._one(worker, results[k], sources[k], fmt, out_dir, home)
                        progress()
                finally:
                    worker.stop()

            with ThreadPoolExecutor(max_workers=lanes) as pool:
                list(pool.map(lane, range(lanes)))
        return results

    def _one(self, worker: _Worker, result: RenderResult, source: str, fmt: str,
             out_dir: Path, home: str) -> None:
        start = time.perf_counter()
        result.error = refusal(source)
        lines = records(source) if result.error is None else []
        if result.error is None and len(lines) != 1:
            what = "reaction" if self.reaction else "molecule"
            result.error = f"one {what} per drawing, not {len(lines)}"
        if result.error is None:
            number, line = lines[0]
            paths = {f: Path(home) / f"{result.index:06d}.{f}" for f in ("svg", "png")}
            answer = worker.ask({"smiles": line, "svg": str(paths["svg"]),
                                 "png": str(paths["png"]), "size": SIZE,
                                 "reaction": self.reaction}, self.timeout)
            if not answer["ok"]:
                result.error, result.error_line = answer["error"], number
            else:
                other = "png" if fmt == "svg" else "svg"
                finish(result, paths[fmt].read_bytes(), fmt, out_dir / f"{result.index:06d}.{fmt}")
                if result.ok:
                    shutil.move(paths[other], out_dir / f"{result.index:06d}.{other}")
        result.seconds = time.perf_counter() - start


class RdkitReactionEngine(RdkitEngine):
    """Draw reaction SMILES with RDKit's reaction depiction (same workers and limits)."""

    name = "rdkit-reaction"
    reaction = True
