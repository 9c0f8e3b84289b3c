"""The `bpmn` engine: bpmn-js draws BPMN 2.0 XML in Debian's Chromium.

One Node process per worker (`tools/bpmn/render.mjs`) launches one browser (spoken to
over a pipe, so that it ends with Node even when Node is killed; its profile in the
process's jail folder), loads bpmn-js's viewer into one page once
(`tools/bpmn/page.html`) and draws its share of each batch diagram after diagram. The
processes stay warm from batch to batch (one per worker for the Python process,
`_browser`), each a `render.process` warm process (an
empty jail folder, where it writes the SVGs, and a minimal environment) whose every
report is awaited with a time-out, and a fresh one takes over after
`process.DIAGRAMS_PER_BROWSER` diagrams; when a process stops part-way, the diagram it
stopped at is reported and the rest go to a new process.
A document without diagram interchange is laid out by bpmn-auto-layout first (in
Node; its first process only). The SVG is bpmn-js's own export (`saveSVG`), each drawn
element marked with its BPMN type (`drawn_statistics` reads them back); the PNG is that
SVG drawn by rsvg-convert; an engine keeps each source's SVG (or bpmn-js' error), so
that rendering the same sources in the other format (a build's PNG, then its SVG)
draws nothing again. The browser has no network (every request goes to a closed
proxy port, loopback included), and a document declaring a DOCTYPE or an entity is
refused before Node sees it (`read.declaration`). A source in an envelope
(`languages.styled`) is drawn in its style: its style sheet (`STYLES`) put last in the
SVG.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import shutil
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from diagbench.languages.bpmn.moddle import TOOL, ToolMissing, tool_version
from diagbench.languages.bpmn.read import declaration
from diagbench.languages.bpmn.styles import STYLES
from diagbench.languages.styled import opened, with_style_sheet
from diagbench.render import process
from diagbench.render.process import ProcessDied, ProcessTimeout, WarmProcess
from diagbench.render.programs import rsvg_version, svg_to_png
from diagbench.render.result import EngineMissing, RenderResult, finish, refusal

CHROMIUM_ENV = "DIAGBENCH_CHROMIUM"
#: Seconds Node may take to start its browser and load bpmn-js, on top of the first
#: diagram's time-out.
START_SECONDS = 120.0
#: Seconds a diagram's report may come after its time-out.
MARGIN_SECONDS = 30.0
#: Diagrams a browser is given at least before a second one starts: a browser starts in
#: about a second, and draws a diagram in a tenth of one.
PER_BROWSER_AT_LEAST = 20


def _chromium() -> str:
    return os.environ.get(CHROMIUM_ENV, "/usr/bin/chromium")


class _Browser:
    """One warm Node process and its browser (one worker), and the diagrams it drew."""

    def __init__(self) -> None:
        self.node = WarmProcess(["node", str(TOOL / "render.mjs")], stderr="keep",
                                extra_env={CHROMIUM_ENV: _chromium()})
        self.drawn = 0
        self.lock = threading.Lock()

    def close(self) -> None:
        self.node.close()
        self.drawn = 0


_BROWSERS: list[_Browser] = []
_BROWSERS_LOCK = threading.Lock()


def _close_all() -> None:
    for browser in _BROWSERS:
        with browser.lock:
            browser.close()


def _browser(worker: int) -> _Browser:
    """The warm browser of `worker` in this Python process, stopped at exit."""
    with _BROWSERS_LOCK:
        if not _BROWSERS:
            atexit.register(_close_all)
        while len(_BROWSERS) <= worker:
            _BROWSERS.append(_Browser())
        return _BROWSERS[worker]


class BpmnEngine:
    """Draw BPMN documents with bpmn-js in `jobs` browsers, one Node process each."""

    name = "bpmn"

    def __init__(self, jobs: int = 2, timeout: float = 20.0) -> None:
        self.jobs = jobs
        self.timeout = timeout
        self._drawn: dict[str, dict[str, Any]] = {}  # by source: its SVG, or bpmn-js' error
        self._sheets: dict[int, str] = {}  # of the batch drawn: by index, its style's

    def version(self) -> str:
        try:
            versions = [f"{p} {tool_version(p)}" for p in ("bpmn-js", "bpmn-auto-layout")]
        except ToolMissing as exc:
            raise EngineMissing(str(exc)) from None
        if not os.access(_chromium(), os.X_OK) or shutil.which("rsvg-convert") is None:
            raise EngineMissing("BPMN rendering needs chromium and rsvg-convert")
        return " + ".join(versions) + f" + rsvg-convert {rsvg_version()}"

    def close(self) -> None:
        """End this process's browsers and forget the drawings kept of its last batches
        (a later render starts them again)."""
        self._drawn.clear()
        _close_all()

    def render(self, sources: list[str], out_dir: Path, fmt: str = "png",
               progress: Callable[[], None] = lambda: None) -> list[RenderResult]:
        version = self.version()
        results = [RenderResult(k, self.name, version, error=refusal(s))
                   for k, s in enumerate(sources)]
        sources, self._sheets = list(sources), {}
        for k, result in enumerate(results):  # each source out of its envelope
            try:
                style, sources[k] = opened(sources[k], STYLES)
            except ValueError as exc:
                result.error = result.error or str(exc)
            else:
                self._sheets[k] = STYLES.get(style, "")
        for result, source in zip(results, sources, strict=True):
            refused = None if result.error else declaration(source)
            if refused is not None:
                result.error, result.error_line = refused.reason, refused.line
            if result.error:
                progress()
        todo = []
        for k, result in enumerate(results):
            if result.error is None and _key(sources[k]) in self._drawn:
                self._use(result, self._drawn[_key(sources[k])], out_dir, fmt)
                progress()
            elif result.error is None:
                todo.append(k)
        browsers = max(1, min(self.jobs, len(todo) // PER_BROWSER_AT_LEAST))
        lanes = [todo[i::browsers] for i in range(browsers) if todo[i::browsers]]
        with ThreadPoolExecutor(max_workers=max(1, len(lanes))) as pool:
            list(pool.map(lambda worker: self._lane(worker, lanes[worker], sources, results,
                                                    out_dir, fmt, progress),
                          range(len(lanes))))
        return results

    def _lane(self, worker: int, lane: list[int], sources: list[str],
              results: list[RenderResult], out_dir: Path, fmt: str,
              progress: Callable[[], None]) -> None:
        """Draw `lane` in the worker's browser, in jobs of at most `DIAGRAMS_PER_BROWSER`
        diagrams, a new process taking over after the diagram one stopped at; two
        processes in a row that draw nothing end the lane."""
        browser = _browser(worker)
        todo, idle = list(lane), 0
        with browser.lock:
            while todo and idle < 2:
                size = process.DIAGRAMS_PER_BROWSER
                drawn, left = self._job(browser, todo[:size], sources, results, out_dir, fmt,
                                        progress)
                todo = left + todo[size:]
                idle = 0 if drawn else idle + 1
        for k in todo:
            results[k].error = "the BPMN renderer stopped before this diagram"
            progress()

    def _job(self, browser: _Browser, chunk: list[int], sources: list[str],
             results: list[RenderResult], out_dir: Path, fmt: str,
             progress: Callable[[], None]) -> tuple[int, list[int]]:
        """Draw `chunk` as one job of the warm browser (a fresh one when it has drawn
        its share); return how many diagrams it reported on and those after the one it
        stopped at (none when it finished)."""
        if browser.drawn + len(chunk) > process.DIAGRAMS_PER_BROWSER:
            browser.close()
        node = browser.node
        seen: set[int] = set()
        why, start = "", time.perf_counter()
        try:
            wait = self.timeout + (START_SECONDS if node.ensure() else 0.0)
            assert node.jail is not None
            work = Path(node.jail)
            job = {"out_dir": str(work), "timeout_ms": int(self.timeout * 1000),
                   "items": [{"id": f"{k:06d}", "code": sources[k]} for k in chunk]}
            node.send(json.dumps(job).encode("utf-8") + b"\n", wait)
            while True:
                report = json.loads(node.read_line(wait))
                wait = self.timeout + MARGIN_SECONDS
                if report.get("done"):
                    break
                k = int(report["id"])
                seen.add(k)
                self._finish(results[k], sources[k], report, work, out_dir, fmt)
                progress()
            browser.drawn += len(chunk)
        except ProcessTimeout:
            why = "timed out"
            browser.close()
        except (ProcessDied, OSError, ValueError):
            why = (node.stderr_tail().strip().splitlines() or [""])[-1][:200]
            browser.close()
        unseen = [k for k in chunk if k not in seen]
        if unseen:
            stopped = results[unseen[0]]
            stopped.error = "the BPMN renderer stopped at this diagram" + (
                f": {why}" if why else "")
            stopped.seconds = time.perf_counter() - start
            progress()
        return len(seen), unseen[1:]

    def _finish(self, result: RenderResult, source: str, report: dict, work: Path,
                out_dir: Path, fmt: str) -> None:
        """Keep what bpmn-js drew of `source` (its SVG, or its error) and use it."""
        drawn: dict[str, Any]
        if report["ok"]:
            drawing = work / f"{report['id']}.svg"
            drawn = {"svg": drawing.read_bytes()}
            drawing.unlink()
        else:
            drawn = {"error": f"bpmn-js: {report['error']}", "line": report["line"]}
        self._drawn[_key(source)] = drawn
        result.seconds = report["seconds"]
        self._use(result, drawn, out_dir, fmt)

    def _use(self, result: RenderResult, drawn: dict[str, Any], out_dir: Path, fmt: str) -> None:
        """The result of a source from what bpmn-js drew of it."""
        if "error" in drawn:
            result.error, result.error_line = drawn["error"], drawn["line"]
            return
        svg = drawn["svg"]
        if self._sheets.get(result.index):
            svg = with_style_sheet(svg.decode("utf-8"), self._sheets[result.index]
                                   ).encode("utf-8")
        if fmt == "png":
            try:
                data = svg_to_png(svg, self.timeout)
            except ValueError as exc:
                result.error = str(exc)
                return
        else:
            data = svg
        finish(result, data, fmt, out_dir / f"{result.index:06d}.{fmt}")


def _key(source: str) -> str:
    return hashlib.sha256(source.encode("utf-8")).hexdigest()
