"""The `bpmn` engine: bpmn-js draws BPMN 2.0 XML in Debian's Chromium.

One Node process per worker (`tools/bpmn/render.mjs`) launches one browser (spoken to
over a pipe, so that it ends with Node even when Node is killed; its profile in the
process's jail folder), loads bpmn-js's viewer into one page once
(`tools/bpmn/page.html`) and draws its share of each batch diagram after diagram
(`render.node_browser`: every report awaited with a time-out, a fresh process after
`process.DIAGRAMS_PER_BROWSER` diagrams or after the diagram one stopped at). The
processes stay warm from batch to batch (one per worker for the Python process,
`_browser`).
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
import os
import shutil
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from diagbench.languages.bpmn.moddle import TOOL, ToolMissing, tool_version
from diagbench.languages.bpmn.read import declaration
from diagbench.languages.bpmn.styles import STYLES
from diagbench.languages.styled import opened, with_style_sheet
from diagbench.render.chromium import chromium
from diagbench.render.node_browser import NodeBrowser
from diagbench.render.programs import rsvg_version, svg_to_png
from diagbench.render.result import EngineMissing, RenderResult, finish, refusal
from diagbench.render.svg_ids import steady_markers

#: Diagrams a browser is given at least before a second one starts: a browser starts in
#: about a second, and draws a diagram in a tenth of one.
PER_BROWSER_AT_LEAST = 20

_BROWSERS: list[NodeBrowser] = []
_BROWSERS_LOCK = threading.Lock()


def _close_all() -> None:
    for browser in _BROWSERS:
        with browser.lock:
            browser.close()


def _browser(worker: int) -> NodeBrowser:
    """The warm browser of `worker` in this Python process, stopped at exit."""
    with _BROWSERS_LOCK:
        if not _BROWSERS:
            atexit.register(_close_all)
        while len(_BROWSERS) <= worker:
            _BROWSERS.append(NodeBrowser(TOOL, "BPMN"))
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
        if not os.access(chromium(), os.X_OK) or shutil.which("rsvg-convert") is None:
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
        """Draw `lane` in the worker's browser."""
        _browser(worker).draw(
            lane, sources, {},
            lambda k, report, work: self._finish(results[k], sources[k], report, work,
                                                 out_dir, fmt),
            results, self.timeout, progress)

    def _finish(self, result: RenderResult, source: str, report: dict, work: Path,
                out_dir: Path, fmt: str) -> None:
        """Keep what bpmn-js drew of `source` (its SVG, or its error) and use it."""
        drawn: dict[str, Any]
        if report["ok"]:
            drawing = work / f"{report['id']}.svg"
            drawn = {"svg": steady_markers(drawing.read_bytes())}
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
