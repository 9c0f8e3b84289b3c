"""The `plotly` engine: Plotly figures drawn by Kaleido (plotly.js in Debian's
Chromium) to SVG and PNG, and what an SVG shows (`figure_statistics`).

One browser serves every figure of a diagbench process: a drawing worker
(`render.worker`'s loop over `browser.draw`, in an empty jail folder with a minimal
environment) that starts Kaleido once (a few seconds) and draws figure after figure;
a figure that takes longer than the time-out has its worker (and its browser) killed,
and the next figure starts a fresh one. A figure is read first (`read.validated`): a
figure Plotly refuses is not drawn, its first error (reason, line) is the render's
error.

Before drawing, a figure is made safe (`drawable`), so that the browser neither
fetches nor reads anything: a layout image (of the layout or its template) whose
source is not a `data:` URI (an `http://…` or `file://…` address) is left out, and so
is such a source of the images' defaults; trace types that fetch map tiles or topojson
(geo and map traces) are refused; MathJax is off (LaTeX is drawn as its text); and a
request that would still leave the machine goes to a closed proxy port (Chromium does
not proxy loopback addresses: what could ask for one, a layout image, is left out
before). Figures over `MAX_PIXELS` are refused as too large. A trace without a `uid`
gets its index as one, and the figure's own random id and the order of its root
element's attributes are made steady in its SVG (`render.svg_ids`), so that the same
figure draws the same bytes.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import threading
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from diagbench.render.chromium import chromium
from diagbench.render.kept_drawings import KeptDrawings
from diagbench.render.process import DIAGRAMS_PER_BROWSER
from diagbench.render.result import EngineMissing, RenderResult, finish, refusal
from diagbench.render.svg_ids import steady_plotly
from diagbench.render.worker import Worker

#: Seconds the browser may take to start (on top of a figure's time-out; a busy
#: machine is slow).
START_SECONDS = 120.0
#: The largest drawing (width × height, pixels) drawn.
MAX_PIXELS = 4000 * 4000
#: Trace types that fetch what they draw from the network (map tiles, topojson).
NETWORKED = frozenset({"scattergeo", "choropleth", "scattermapbox", "choroplethmapbox",
                       "densitymapbox", "scattermap", "choroplethmap", "densitymap"})
_SVG = "{http://www.w3.org/2000/svg}"


@cache
def kaleido_version() -> str:
    """"plotly X + kaleido Y + Chromium Z"; EngineMissing when one is absent."""
    from importlib.metadata import PackageNotFoundError, version

    browser = chromium()
    if not os.access(browser, os.X_OK):
        raise EngineMissing(f"Plotly figures are drawn by Chromium, not found at {browser}: "
                            "bash scripts/setup.sh installs it")
    try:
        return f"plotly {version('plotly')} + kaleido {version('kaleido')}"
    except PackageNotFoundError as exc:
        raise EngineMissing(f"the Python package {exc} is not installed: "
                            "bash scripts/setup.sh installs it") from None


def drawable(source: str) -> tuple[dict[str, Any] | None, str | None, int | None, bool]:
    """(the figure to draw, or None with the error, its line and whether it is refused
    only for its size) of a source (see the module's docstring)."""
    from diagbench.languages.plotly.read import validated

    figure, diagnostics = validated(source)
    errors = [d for d in diagnostics if d.severity == "error"]
    if figure is None or errors:
        first = errors[0]
        return None, first.reason, first.line, False
    networked = sorted({str(t.get("type")) for t in figure["data"]} & NETWORKED)
    if networked:
        return None, f"{', '.join(networked)} traces fetch their maps from the network: " \
            "not drawn", None, False
    layout = figure["layout"]
    width, height = layout.get("width", 700), layout.get("height", 500)
    if width * height > MAX_PIXELS:
        return None, f"a {width:g} × {height:g} drawing, over the {MAX_PIXELS:,}-pixel limit", \
            None, True
    for k, trace in enumerate(figure["data"]):  # not plotly.js' random one: steady SVGs
        trace.setdefault("uid", str(k))
    for part in (layout, layout.get("template", {}).get("layout", {})):
        if "images" in part:
            part["images"] = [image for image in part["images"]
                              if _inline(image.get("source"))]
        if not _inline(part.get("imagedefaults", {}).get("source")):
            del part["imagedefaults"]["source"]
    return figure, None, None, False


def _inline(source: object) -> bool:
    """Whether an image's source is none (the template's, by `templateitemname`) or a
    `data:` URI: nothing to fetch or read."""
    return source is None or str(source).startswith("data:")


class _Browser:
    """The one drawing worker of this process, its browser started on first use; a
    fresh one takes over after `process.DIAGRAMS_PER_BROWSER` drawings (a browser grows
    with what it has drawn)."""

    def __init__(self) -> None:
        self.worker = Worker("diagbench.languages.plotly.browser:draw", (), memory_bytes=None)
        self.lock = threading.Lock()
        self.started = 0  # the worker process the browser was started in
        self.drawn = 0  # drawings by that browser
        atexit.register(self.worker.close)

    def close(self) -> None:
        """End the worker and its browser (the next figure starts them again)."""
        with self.lock:
            self.worker.close()

    def draw(self, job: tuple[str, Any], timeout: float) -> tuple[bool, Any]:
        """The outcome of a drawing job (`browser.draw`'s) within `timeout` seconds."""
        with self.lock:
            if self.drawn >= DIAGRAMS_PER_BROWSER:
                self.worker.close()
            process = self.worker.process
            if not process.running or process.started != self.started:
                ok, said = self.worker.run(("start", chromium()), START_SECONDS + timeout)
                if not ok:
                    return False, f"the browser did not start: {said}"
                self.started, self.drawn = process.started, 0
            self.drawn += 1
            return self.worker.run(job, timeout)


@cache
def shared_browser() -> _Browser:
    return _Browser()


class PlotlyEngine:
    """Draw Plotly figures with the process's one Kaleido browser (`jobs` is not used:
    one browser draws a batch, figure after figure). A PNG is drawn with its SVG, from
    one plotly.js drawing (`browser.BOTH`); the SVG is kept until the next batch (a
    build draws the same sources in SVG right after), by the sha256 of the figure
    drawn."""

    name = "plotly"

    def __init__(self, jobs: int = 1, timeout: float = 20.0) -> None:
        self.timeout = timeout
        self._kept: KeptDrawings[bytes] = KeptDrawings()  # a PNG's SVG

    def version(self) -> str:
        return kaleido_version()

    def close(self) -> None:
        """Forget the SVGs kept of the last batch and end the browser's worker (the next
        figure starts it again)."""
        self._kept.clear()
        shared_browser().close()

    def render(self, sources: list[str], out_dir: Path, fmt: str = "png",
               progress: Callable[[], None] = lambda: None) -> list[RenderResult]:
        version = self.version()
        self._kept.next_batch()
        results = [RenderResult(k, self.name, version, error=refusal(s))
                   for k, s in enumerate(sources)]
        for k, (source, result) in enumerate(zip(sources, results, strict=True)):
            if result.error is None:
                self._render_one(source, result, out_dir / f"{k:06d}.{fmt}", fmt)
            progress()
        return results

    def _render_one(self, source: str, result: RenderResult, out: Path, fmt: str) -> None:
        figure, error, line, too_large = drawable(source)
        if figure is None:
            result.error, result.error_line, result.too_large = error, line, too_large
            return
        start = time.perf_counter()
        ok, value = self._drawn(json.dumps(figure, default=_listed), fmt)
        if not ok:
            result.error = f"Kaleido: {value}"
            return
        finish(result, steady_plotly(value) if fmt == "svg" else value, fmt, out)
        result.seconds = time.perf_counter() - start

    def _drawn(self, figure: str, fmt: str) -> tuple[bool, Any]:
        """The outcome of drawing `figure` (JSON) in `fmt`: kept from the last batch,
        else drawn (a PNG with its SVG, the SVG kept for the next batch)."""
        found = self._kept.find(fmt, figure.encode())
        if found is not None:
            return True, found
        if fmt != "png":
            return shared_browser().draw(("draw", (figure, fmt)), self.timeout)
        ok, value = shared_browser().draw(("both", figure), self.timeout)
        if not ok:
            return False, value
        self._kept.keep("svg", figure.encode(), value["svg"])
        return True, value["png"]


def _listed(value: Any) -> Any:
    """A NumPy array (Plotly's validated data) as JSON can write it."""
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"{type(value).__name__} is not JSON")


# --- what the SVG shows -------------------------------------------------------------

_TRACE_LAYERS = {"bars": "bar", "scatter": "scatter", "boxes": "box", "violins": "violin"}


def figure_statistics(svg: str) -> dict[str, Any]:
    """What a Kaleido SVG of a figure shows, read off plotly.js' classes:

    - a chart's `traces` (a cartesian `g.trace` (bars, scatter, boxes …), a pie's
      `g.trace` in the pie layer, a heatmap's `g.hm`; not a range slider's copies),
      by type (`trace_types`);
      its `points` — bars (`g.point` of a bar trace), markers (`path.point` of a
      scatter trace) and slices (`g.slice`) — when every trace drawn is one of
      those (a line, a box, a heatmap has no mark per point; a histogram's bars, drawn
      as a bar trace's, are its bins, not its samples);
    - a table's `tables` (`g.table`), `columns` (`g.y-column`), `rows` (the cells of
      a table's first column outside its header block, summed over the tables) and
      `cells` (every cell outside the header blocks), and the `header` texts.

    plotly.js draws only the rows a table's height shows: `rows` and `cells` are what
    is drawn."""
    root = ET.fromstring(svg)
    groups = list(_drawn_groups(root))
    tables = [g for g in groups if _classes(g)[:1] == ["table"]]
    if tables:
        return _table_statistics(tables)
    types: list[str] = []
    points = 0
    marked = True
    for g in groups:
        classes = _classes(g)
        if classes[:1] == ["trace"] and len(classes) > 1 and classes[1] in _TRACE_LAYERS:
            kind = _TRACE_LAYERS[classes[1]]
            types.append(kind)
            if kind == "bar":
                points += sum(1 for p in g.iter(f"{_SVG}g") if _classes(p) == ["point"])
            elif kind == "scatter":
                markers = sum(1 for p in g.iter(f"{_SVG}path") if _classes(p) == ["point"])
                marked &= markers > 0
                points += markers
            else:
                marked = False
        elif classes == ["trace"] and any(_classes(s) == ["slice"] for s in g):
            types.append("pie")
            points += sum(1 for s in g if _classes(s) == ["slice"])
        elif classes == ["hm"]:
            types.append("heatmap")
            marked = False
    stats: dict[str, Any] = {"traces": len(types)}
    if marked and types:
        stats["points"] = points
    return stats | {"trace_types": ",".join(types)}


def _drawn_groups(element: ET.Element) -> Iterator[ET.Element]:
    """The `g` elements of the figure, those of a range slider (which draws the traces
    again, small) left out."""
    for child in element:
        if child.tag == f"{_SVG}g":
            if "rangeslider-container" in _classes(child):
                continue
            yield child
        yield from _drawn_groups(child)


def _table_statistics(tables: list[ET.Element]) -> dict[str, Any]:
    rows = cells = columns = 0
    header: list[str] = []
    for table in tables:
        first = True
        for column in table.iter(f"{_SVG}g"):
            if _classes(column) != ["y-column"]:
                continue
            columns += 1
            body = 0
            for block in column:
                if _classes(block) != ["column-block"]:
                    continue
                count = sum(1 for c in block.iter(f"{_SVG}g") if _classes(c) == ["column-cell"])
                if block.get("id") == "header":
                    header.append(" ".join("".join(t.itertext()) for t in block.iter(f"{_SVG}text")
                                           if _classes(t) == ["cell-text"]).strip())
                else:
                    body += count
            cells += body
            if first:
                rows, first = rows + body, False
    return {"tables": len(tables), "columns": columns, "rows": rows, "cells": cells,
            "header": " | ".join(header)}


def _classes(element: ET.Element) -> list[str]:
    return re.split(r"\s+", (element.get("class") or "").strip()) if element.get("class") else []
