"""A tool's warm Node process and the Chromium it launches, drawing jobs of diagrams: the
engines that draw in a browser through Node (Mermaid's `tools/mermaid`, bpmn-js'
`tools/bpmn`) share how a worker's diagrams go to it and come back.

The tool's `render.mjs` reads one job a line (`out_dir`, `timeout_ms`, `items` of `id`
and `code`, and the engine's own fields), writes each drawing into `out_dir` (the
process's jail folder) and reports it on a line of its own (`id`, `ok`, `seconds`, and
`error` and `line` when not ok), then `{"done": true}`. Every report is awaited with a
time-out; a process draws at most `process.DIAGRAMS_PER_BROWSER` diagrams (a browser
grows with what it draws) before a fresh one takes over; when a process stops part-way
the diagram it stopped at is reported and the rest go to a new process; two processes
in a row that draw nothing end the worker's lane.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from diagbench.render import process
from diagbench.render.chromium import CHROMIUM_ENV, chromium
from diagbench.render.process import ProcessDied, ProcessTimeout, WarmProcess
from diagbench.render.result import RenderResult

#: Seconds Node may take to start its browser and load its page, on top of the first
#: diagram's time-out (a busy machine is slow).
START_SECONDS = 120.0
#: Seconds a diagram's report may come after its time-out (the tool's own timer ends a
#: diagram; past this margin the browser is taken for hung).
MARGIN_SECONDS = 30.0

#: What an engine does with one report: (the diagram's index, the report, the folder
#: its drawing was written in).
OnReport = Callable[[int, dict[str, Any], Path], None]


class NodeBrowser:
    """One warm Node process running `tool`'s `render.mjs` and its browser (one worker of
    an engine), and how many diagrams it drew."""

    def __init__(self, tool: Path, renderer: str) -> None:
        self.node = WarmProcess(["node", str(tool / "render.mjs")], stderr="keep",
                                extra_env={CHROMIUM_ENV: chromium()})
        self.renderer = renderer  # as errors name it ("Mermaid")
        self.drawn = 0
        self.lock = threading.Lock()

    def close(self) -> None:
        """Kill it (it timed out or broke off)."""
        self.node.close()
        self.drawn = 0

    def end(self) -> None:
        """End it cleanly: its input closed, Node closes its browser and removes the
        browser's profile."""
        self.node.finish(10)
        self.drawn = 0

    def draw(self, lane: list[int], sources: list[str], fields: dict[str, Any],
             on_report: OnReport, results: list[RenderResult], timeout: float,
             progress: Callable[[], None]) -> int:
        """Draw the diagrams `lane` (indexes into `sources` and `results`), each job with
        the engine's own `fields`, `on_report` taking each report; the browser launches
        it took. A diagram not drawn because the browser stopped is reported in
        `results`."""
        launches, todo, idle = 0, list(lane), 0
        with self.lock:
            while todo and idle < 2:
                size = process.DIAGRAMS_PER_BROWSER
                launched, drawn, left = self._job(todo[:size], sources, fields, on_report,
                                                  results, timeout, progress)
                launches += launched
                todo = left + todo[size:]
                idle = 0 if drawn else idle + 1
        for k in todo:  # two processes in a row drew nothing: the engine is broken
            results[k].error = f"the {self.renderer} renderer stopped before this diagram"
            progress()
        return launches

    def _job(self, chunk: list[int], sources: list[str], fields: dict[str, Any],
             on_report: OnReport, results: list[RenderResult], timeout: float,
             progress: Callable[[], None]) -> tuple[int, int, list[int]]:
        """Draw `chunk` as one job of the warm process (a fresh one when it has drawn its
        share); whether a browser was launched for it, how many diagrams it reported on
        and those after the one it stopped at (none when it finished)."""
        if self.drawn + len(chunk) > process.DIAGRAMS_PER_BROWSER:
            self.end()
        node = self.node
        launches, seen, why = 0, set(), ""
        start = time.perf_counter()
        try:
            launches = int(node.ensure())
            assert node.jail is not None
            work = Path(node.jail)  # the drawings are written there
            job = {**fields, "out_dir": str(work), "timeout_ms": int(timeout * 1000),
                   "items": [{"id": f"{k:06d}", "code": sources[k]} for k in chunk]}
            # the first answer of a new process waits for its browser to start
            wait = timeout + (START_SECONDS if launches else MARGIN_SECONDS)
            node.send(json.dumps(job).encode("utf-8") + b"\n", wait)
            while True:
                report = json.loads(node.read_line(wait))
                wait = timeout + MARGIN_SECONDS
                if report.get("done"):
                    self.drawn += len(chunk)
                    break
                k = int(report["id"])
                seen.add(k)
                on_report(k, report, work)
                progress()
        except ProcessTimeout:
            why = "timed out"
            self.close()
        except (ProcessDied, OSError, ValueError):  # ended, or a line cut short
            why = (node.stderr_tail().strip().splitlines() or [""])[-1][:200]
            self.close()
        unseen = [k for k in chunk if k not in seen]
        if unseen:
            stopped = results[unseen[0]]
            stopped.error = (f"the {self.renderer} renderer stopped at this diagram"
                             + (f": {why}" if why else ""))
            stopped.seconds = time.perf_counter() - start
            progress()
        return launches, len(seen), unseen[1:]
