"""Plotly figure JSON (STRUDEL's charts and tables): the reader on Plotly's own
validation, checked on plotly.js' own test figures (`plotly-mocks`,
`plotly-table-mocks`: MIT, see their LICENSE) against Plotly's figure objects; the
Kaleido engine and what its SVG shows; the layout images it neither fetches nor
reads; the similarity on hand-worked figures; the facts; `diagbench parse`."""

from __future__ import annotations

import http.server
import json
import random
import struct
import subprocess
import sys
import threading
import zlib
from pathlib import Path
from typing import Any

import pytest

from diagbench.languages import detect, named
from diagbench.languages.plotly.engine import (
    PlotlyEngine,
    drawable,
    figure_statistics,
    shared_browser,
)
from diagbench.languages.plotly.model import Chart, TableFigure
from diagbench.languages.plotly.read import read_plotly
from diagbench.languages.plotly.similarity import agree, data_agreement, trace_pair
from diagbench.languages.plotly.variants import edited
from diagbench.render.svg_ids import steady_plotly
from tests.sizes import sized

PLOTLY = named("plotly")
REALWORLD = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "realworld"
MOCKS = sorted((REALWORLD / "plotly-mocks" / "test" / "image" / "mocks").glob("*.json"))
TABLES = sorted((REALWORLD / "plotly-table-mocks" / "test" / "image" / "mocks").glob("*.json"))
#: The real charts these tests read (every one at full size).
CHARTS = MOCKS[::max(1, len(MOCKS) // sized(8, len(MOCKS)))]
#: The real tables compared (the birds' 50,000 cells take seconds: at full size only).
COMPARED_TABLES = TABLES[:sized(1, len(TABLES))]
EXAMPLES = {p.name: p.read_text(encoding="utf-8") for p in PLOTLY.example_paths()}
CHART = EXAMPLES["chart-sales.plotly.json"]
TABLE = EXAMPLES["table-prices.plotly.json"]


@pytest.fixture(scope="module")
def engine() -> PlotlyEngine:
    return PlotlyEngine(timeout=60.0)


def _one(text: str):
    [parsed] = read_plotly(text)
    return parsed


def _changed(text: str, change) -> str:
    figure = json.loads(text)
    change(figure)
    return json.dumps(figure)


def _score(gold: str, pred: str, valid: bool = True) -> float:
    return PLOTLY.compare_code(gold, pred, valid).score


# --- the real figures -------------------------------------------------------------


def test_the_real_figures_are_there():
    assert len(MOCKS) == 58 and len(TABLES) == 2


@pytest.mark.parametrize("path", CHARTS + TABLES, ids=lambda p: p.name)
def test_a_real_figure_reads_as_plotly_counts_it(path: Path):
    import plotly.io as pio

    text = path.read_text(encoding="utf-8")
    parsed = _one(text)
    assert detect(path, text) is PLOTLY and parsed.errors == ()
    figure = pio.from_json(text, skip_invalid=True)  # Plotly's figure, the oracle
    drawn = [t for t in figure.data if t.visible in (None, True)]
    if parsed.kind == "table":
        assert isinstance(parsed.diagram, TableFigure)
        columns = [c for t in drawn for c in t.cells["values"]]
        assert parsed.counts()["columns"] == len(columns) == sum(
            len(t.header["values"]) for t in drawn)
        assert parsed.counts()["rows"] == sum(max(len(c) for c in t.cells["values"])
                                             for t in drawn)
        return
    assert isinstance(parsed.diagram, Chart) and parsed.counts()["traces"] == len(drawn)
    for trace, read in zip(drawn, parsed.diagram.traces, strict=True):
        assert read.type == trace.type
        if trace.type in ("bar", "scatter") and trace.x is not None and trace.y is not None:
            assert len(read.points) == min(len(trace.x), len(trace.y))
        elif trace.type in ("bar", "scatter"):
            assert len(read.points) == len(trace.y if trace.y is not None else trace.x)


@pytest.mark.parametrize("path", CHARTS + COMPARED_TABLES, ids=lambda p: p.name)
def test_a_real_figure_scores_1_against_itself_and_less_after_one_change(path: Path):
    text = path.read_text(encoding="utf-8")
    assert _score(text, text) == 1.0
    changed = edited(text, random.Random(0))
    if _one(text).counts() in ({"traces": 0, "points": 0},):  # a layout alone
        assert changed is None
        return
    assert changed is not None and 0.0 < _score(text, changed) < 1.0


def test_a_real_figure_with_stale_attributes_reads_with_plotlys_warning():
    parsed = _one((REALWORLD / "plotly-mocks/test/image/mocks/style_bar.json"
                   ).read_text(encoding="utf-8"))
    [warning] = parsed.diagnostics
    assert warning.severity == "warning" and parsed.errors == ()
    assert "Plotly: Invalid property specified" in warning.reason and "'titlefont'" in \
        warning.reason
    assert '"titlefont"' in warning.text and warning.line > 1 and warning.column > 0


def test_a_broken_figure_scores_0_with_plotlys_own_error():
    gold = MOCKS[0].read_text(encoding="utf-8")
    wrong = _changed(gold, lambda f: f["data"][0].update(type="barchart"))
    [error] = _one(wrong).errors
    assert "Plotly: Invalid element(s) received for the 'data' property" in error.reason
    assert _score(gold, wrong) == 0.0
    not_data = _changed(gold, lambda f: f["data"][0].update(y="many"))
    assert "Plotly: Invalid value of type 'builtins.str' received for the 'y' property" in \
        _one(not_data).errors[0].reason
    cut = _one(gold[:200])  # json's position: just past the cut text's last character
    [error] = cut.errors
    assert cut.kind == "unknown" and error.reason == "JSON: Expecting value"
    assert (error.line, error.column) == (gold[:200].count("\n") + 1,
                                          len(gold[:200].splitlines()[-1]) + 1)


# --- reading ------------------------------------------------------------------------


def test_the_example_chart_is_read_with_its_data_axes_and_legend():
    chart = _one(CHART).diagram
    assert isinstance(chart, Chart) and chart.title == "Quarterly revenue"
    assert [(t.type, t.name, len(t.points)) for t in chart.traces] == [
        ("bar", "Revenue", 4), ("scatter", "Target", 4)]
    assert [(p.key, p.value) for p in chart.traces[0].points][:2] == [("Q1", 120.0),
                                                                     ("Q2", 180.0)]
    assert [(a.name, a.title, a.range) for a in chart.axes] == [
        ("xaxis", "Quarter", None), ("yaxis", "Revenue (k$)", (0.0, 250.0))]
    assert chart.legend == ("Revenue", "Target") and chart.extremes() == (120.0, 210.0)


def test_the_example_table_is_read_with_typed_cells():
    table = _one(TABLE).diagram
    assert isinstance(table, TableFigure)
    [prices] = table.tables
    assert prices.header == ("Product", "Category", "Price", "Stock")
    assert prices.cell(2, 0) == "Keyboard" and prices.cell(2, 2) == 59.9
    assert prices.cell(4, 2) == 89.0 and prices.cell(4, 3) == 46.0
    assert _one(TABLE).counts() == {"tables": 1, "rows": 5, "columns": 4, "cells": 20}


def test_hidden_traces_are_not_drawn_and_a_horizontal_bar_keys_on_y():
    figure = {"data": [{"type": "bar", "orientation": "h", "y": ["a", "b"], "x": [3, 4]},
                       {"type": "scatter", "y": [1, 2], "visible": False},
                       {"type": "scatter", "y": [1, 2], "visible": "legendonly",
                        "name": "kept"}]}
    chart = _one(json.dumps(figure)).diagram
    assert [(t.type, [(p.key, p.value) for p in t.points]) for t in chart.traces] == [
        ("bar", [("a", 3.0), ("b", 4.0)])]
    assert chart.legend == ("trace 0", "kept")


def test_a_plain_json_geojson_stays_geojson_and_a_figure_is_recognised_by_content():
    geojson = named("geojson").example_paths()[0].read_text(encoding="utf-8")
    assert detect(Path("world.json"), geojson).name == "geojson"
    assert detect(Path("world.json"), CHART) is PLOTLY
    assert detect(Path("sales.plotly.json"), CHART) is PLOTLY
    assert not PLOTLY.recognises(geojson) and not PLOTLY.recognises('{"type": "Feature"}')


# --- the engine and what it draws ---------------------------------------------------


def test_the_examples_are_drawn_as_read(engine: PlotlyEngine, tmp_path: Path):
    sources = [CHART, TABLE]
    svgs = engine.render(sources, tmp_path, "svg")
    pngs = engine.render(sources, tmp_path, "png")
    assert all(r.ok for r in svgs + pngs), [r.error for r in svgs + pngs]
    chart = figure_statistics(svgs[0].image.read_text(encoding="utf-8"))
    assert chart == {"traces": 2, "points": 8, "trace_types": "bar,scatter"}
    table = figure_statistics(svgs[1].image.read_text(encoding="utf-8"))
    assert table == {"tables": 1, "columns": 4, "rows": 5, "cells": 20,
                     "header": "Product | Category | Price | Stock"}
    assert pngs[0].image.read_bytes().startswith(b"\x89PNG")


def test_the_same_figure_draws_the_same_svg(engine: PlotlyEngine, tmp_path: Path):
    """plotly.js names a figure and its traces at random: diagbench's SVGs do not."""
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    first = engine.render([CHART, TABLE], tmp_path / "a", "svg")
    again = engine.render([CHART, TABLE], tmp_path / "b", "svg")
    assert [r.image.read_bytes() for r in first] == [r.image.read_bytes() for r in again]


def test_the_engine_draws_what_is_read_on_real_and_generated_charts(engine: PlotlyEngine,
                                                                     tmp_path: Path):
    """Differential: every count the drawing shows is the one read, on plotly.js' own
    charts (but histograms, whose bars are bins, and figures with an empty trace, which
    plotly.js does not draw) and on generated figures."""
    real = [p.read_text(encoding="utf-8") for p in CHARTS]
    real = [code for code in real if all(
        t.type != "histogram" and t.points for t in _one(code).diagram.traces)]
    generated = [PLOTLY.generate(random.Random(100 + k), ("low", "medium", "high")[k % 3])
                 for k in range(sized(4, 30))]
    codes = real + generated
    results = engine.render(codes, tmp_path, "svg")
    compared = 0
    for code, result in zip(codes, results, strict=True):
        assert result.ok, result.error
        read = _one(code)
        drawn = PLOTLY.drawn(read.kind, result.image.read_text(encoding="utf-8")).counts
        shared = {k for k in drawn if k in read.counts()}
        assert shared and {k: drawn[k] for k in shared} == {
            k: read.counts()[k] for k in shared}, (code[:80], drawn, read.counts())
        compared += "points" in shared or "rows" in shared
    assert len(real) >= 4 and compared >= len(generated)


def test_a_real_table_is_drawn_with_its_columns(engine: PlotlyEngine, tmp_path: Path):
    [result] = engine.render([TABLES[0].read_text(encoding="utf-8")], tmp_path, "svg")
    assert result.ok, result.error
    drawn = figure_statistics(result.image.read_text(encoding="utf-8"))
    assert drawn["tables"] == 4 and drawn["columns"] == 13
    # plotly.js draws "<b>#</b>" in bold, and LaTeX as its text (MathJax is off)
    assert drawn["header"].split(" | ")[:5] == ["#", "Half-angle form", "Equivalent", "#",
                                               "$$\\theta$$"]
    # only the rows its height shows: 2 + 9 + 2 + 9 of 2 + 315 + 2 + 315
    assert drawn["rows"] < _one(TABLES[0].read_text(encoding="utf-8")).counts()["rows"]


def test_a_broken_figure_is_not_drawn_and_says_why(engine: PlotlyEngine, tmp_path: Path):
    [result] = engine.render(['{"data": [{"type": "bar", "y": "many"}]}'], tmp_path, "svg")
    assert not result.ok and "'y' property of bar" in (result.error or "")
    geo = json.dumps({"data": [{"type": "scattergeo", "lon": [1], "lat": [2]}]})
    [result] = engine.render([geo], tmp_path, "svg")
    assert not result.ok and "fetch their maps from the network" in (result.error or "")


def test_a_figure_past_its_time_out_fails_alone(engine: PlotlyEngine, tmp_path: Path):
    # no browser draws a figure within a microsecond: the worker (and its browser) is
    # killed, the figure fails with the reason, and the next figure starts a fresh one
    [late] = PlotlyEngine(timeout=1e-6).render([CHART], tmp_path, "svg")
    assert not late.ok and late.error == "Kaleido: timed out after 1e-06 s"
    [after] = engine.render([TABLE], tmp_path, "svg")
    assert after.ok, after.error


@pytest.fixture
def jobs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The kinds of the jobs the browser is given ("both", "draw"), as it is given them
    (the browser still draws each)."""
    browser = shared_browser()
    given: list[str] = []
    real = browser.draw

    def draw(job: tuple[str, Any], timeout: float) -> tuple[bool, Any]:
        given.append(job[0])
        return real(job, timeout)

    monkeypatch.setattr(browser, "draw", draw)
    return given


def test_a_png_then_an_svg_of_the_same_figures_draws_each_once(engine: PlotlyEngine,
                                                                tmp_path: Path,
                                                                jobs: list[str]):
    changed = _changed(CHART, lambda f: f["layout"].update(title={"text": "Changed"}))
    for folder in ("svg", "again"):
        (tmp_path / folder).mkdir()
    pngs = engine.render([CHART, TABLE], tmp_path, "png")
    assert jobs == ["both", "both"]
    svgs = engine.render([changed, TABLE], tmp_path / "svg", "svg")
    # the table's SVG was drawn with its PNG; the changed chart's is drawn anew
    assert jobs == ["both", "both", "draw"]
    assert all(r.ok for r in pngs + svgs), [r.error for r in pngs + svgs]
    assert "Changed" in svgs[0].image.read_text(encoding="utf-8")
    assert figure_statistics(svgs[1].image.read_text(encoding="utf-8"))["cells"] == 20
    again = engine.render([TABLE], tmp_path / "again", "svg")  # kept for one batch only
    assert jobs[3:] == ["draw"] and again[0].image.read_bytes() == svgs[1].image.read_bytes()


def test_the_svgs_kept_are_dropped_on_close(engine: PlotlyEngine, tmp_path: Path,
                                            jobs: list[str]):
    engine.render([TABLE], tmp_path, "png")
    engine.close()
    [svg] = engine.render([TABLE], tmp_path, "svg")
    assert svg.ok and jobs == ["both", "draw"]


def test_one_drawing_of_both_is_byte_identical_to_kaleidos_two(engine: PlotlyEngine,
                                                               tmp_path: Path):
    """The PNG and SVG of one drawing against those of Kaleido's own calls
    (`calc_fig`, one a format) on the examples and a styled chart."""
    sources = [CHART, TABLE, PLOTLY.prepare(CHART, "chart", False, "plotly_dark")]
    pngs = engine.render(sources, tmp_path, "png")
    svgs = engine.render(sources, tmp_path, "svg")
    for source, png, svg in zip(sources, pngs, svgs, strict=True):
        figure = json.dumps(drawable(source)[0])
        kaleido = {fmt: shared_browser().draw(("draw", (figure, fmt)), 60.0) for fmt in
                   ("png", "svg")}
        assert kaleido["png"] == (True, png.image.read_bytes())
        assert kaleido["svg"][0] and steady_plotly(kaleido["svg"][1]) == svg.image.read_bytes()


def _png(rgb: tuple[int, int, int], side: int = 8) -> bytes:
    """A `side` × `side` PNG of one colour."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + bytes(rgb) * side for _ in range(side))
    head = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head)
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


MAGENTA = (255, 0, 255)


def _magenta_pixels(png: Path) -> int:
    import numpy as np
    from PIL import Image

    with Image.open(png) as image:
        pixels = np.asarray(image.convert("RGB"))
    return int(np.all(pixels == MAGENTA, axis=-1).sum())


def _with_image(source: str, template: bool = False) -> str:
    """The example chart covered by a layout image (of its template's layout)."""
    image = {"source": source, "xref": "paper", "yref": "paper", "x": 0, "y": 1,
             "sizex": 1, "sizey": 1, "sizing": "stretch", "layer": "above"}
    if template:  # the layout's image takes its source from the template's
        named = {"name": "canary", "source": image.pop("source")}
        return _changed(CHART, lambda f: f["layout"].update(
            images=[image | {"templateitemname": "canary"}],
            template={"layout": {"images": [named]}}))
    return _changed(CHART, lambda f: f["layout"].update(images=[image]))


def test_layout_images_are_neither_fetched_nor_read(engine: PlotlyEngine, tmp_path: Path):
    requests: list[str] = []

    class Canary(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            requests.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.end_headers()
            self.wfile.write(_png(MAGENTA))

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Canary)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    canary = tmp_path / "canary.png"
    canary.write_bytes(_png(MAGENTA))
    import base64

    inline = "data:image/png;base64," + base64.b64encode(_png(MAGENTA)).decode()
    try:
        remote = f"http://127.0.0.1:{server.server_port}/canary.png"
        sources = [_with_image(remote), _with_image(canary.as_uri()), _with_image(str(canary)),
                   _with_image(remote, template=True), _with_image(canary.as_uri(), template=True),
                   _with_image(inline), _with_image(inline, template=True)]
        results = engine.render(sources, tmp_path, "png")
        svgs = engine.render(sources, tmp_path, "svg")
    finally:
        server.shutdown()
    assert all(r.ok for r in results + svgs), [r.error for r in results + svgs]
    assert requests == []
    # the canary's colour is drawn only from the inline image: the others were not read
    assert [_magenta_pixels(r.image) > 1000 for r in results] == [False] * 5 + [True] * 2
    assert not any("canary" in r.image.read_text(encoding="utf-8") for r in svgs)


# --- the similarity, hand-worked ----------------------------------------------------


def test_points_agree_within_one_percent():
    assert agree(100.0, 100.9) and not agree(100.0, 101.5)
    assert agree(0.0, 0.0) and not agree(0.0, 0.001)
    assert agree(" Q1", "q1") and agree(None, None) and not agree(None, 0.0)


def test_one_point_changed_scores_as_worked_by_hand():
    chart = _one(CHART).diagram
    pred = _changed(CHART, lambda f: f["data"][0]["y"].__setitem__(1, 280))
    bar = chart.traces[0]
    changed = _one(pred).diagram.traces[0]
    assert data_agreement(bar, changed) == 0.75 and trace_pair(bar, changed) == 0.875
    # T = (0.875 + 1) / 2 = 0.9375, X = 1: S = 0.75 · 0.9375 + 0.25 = 0.953125
    assert _score(CHART, pred) == pytest.approx(0.953125)
    # within the tolerance: 180 → 181 (0.55 %) scores 1
    near = _changed(CHART, lambda f: f["data"][0]["y"].__setitem__(1, 181))
    assert _score(CHART, near) == 1.0


def test_a_trace_of_another_type_and_a_retitled_chart_score_as_worked_by_hand():
    as_line = _changed(CHART, lambda f: f["data"][0].update(type="scatter"))
    # pairs: Revenue–Revenue ½ (type) + ½ · 1 (data), Target–Target 1: T = 0.75;
    # S = 0.75 · 0.75 + 0.25 · 1 = 0.8125
    assert _score(CHART, as_line) == pytest.approx(0.8125)
    retitled = _changed(CHART, lambda f: f["layout"]["title"].update(text="Revenue"))
    # texts: title, 2 axis titles, 2 legend entries; 4 of 5 match: X = 0.8;
    # S = 0.75 + 0.25 · 0.8 = 0.95
    assert _score(CHART, retitled) == pytest.approx(0.95)
    fewer = _changed(CHART, lambda f: f["data"].pop())
    # one trace of two (T = 0.5), legend gone with it (3 of 5 texts: P 1, R 0.6,
    # X = 0.75): S = 0.375 + 0.1875 = 0.5625
    assert _score(CHART, fewer) == pytest.approx(0.5625)


def test_a_table_scores_cell_f1_with_its_header_as_worked_by_hand():
    one_cell = _changed(TABLE, lambda f: f["data"][0]["cells"]["values"][2].__setitem__(2, 65))
    # 19 of 20 cells: C = 0.95, H = 1: S = 0.25 + 0.75 · 0.95 = 0.9625
    assert _score(TABLE, one_cell) == pytest.approx(0.9625)
    renamed = _changed(TABLE, lambda f: f["data"][0]["header"]["values"].__setitem__(2, "Cost"))
    # 3 of 4 headers (H = 0.75), the 5 prices no longer under "Price" (C = 0.75)
    assert _score(TABLE, renamed) == pytest.approx(0.75)
    as_text = _changed(TABLE, lambda f: f["data"][0]["cells"]["values"][3].__setitem__(
        0, "12"))
    assert _score(TABLE, as_text) == 1.0  # drawn the same: "12"


def test_another_writing_scores_1_and_the_other_kind_0():
    for code in (CHART, TABLE):
        again = PLOTLY.rewrite(code, random.Random(3))
        assert again is not None and again != code and _score(code, again) == 1.0
    assert _score(CHART, TABLE) == 0.0 and _score(CHART, CHART, valid=False) == 0.0


def test_an_edit_changes_one_data_point_or_one_cell():
    chart, table = _one(CHART).diagram, _one(TABLE).diagram
    edited_chart = _one(PLOTLY.edit(CHART, random.Random(1)) or "").diagram
    changed = [(a.key, a.value, b.value) for t, u in zip(chart.traces, edited_chart.traces,
                                                         strict=True)
               for a, b in zip(t.points, u.points, strict=True) if a != b]
    assert len(changed) == 1 and changed[0][2] == changed[0][1] * 1.5 + 1
    edited_table = _one(PLOTLY.edit(TABLE, random.Random(1)) or "").diagram
    cells = [(a, b) for c, d in zip(table.tables[0].columns, edited_table.tables[0].columns,
                                    strict=True) for a, b in zip(c, d, strict=True) if a != b]
    assert len(cells) == 1


# --- facts and the command line ----------------------------------------------------


def test_the_facts_of_the_examples():
    chart = {f.subject: f.answer for f in PLOTLY.facts(_one(CHART).diagram)}
    assert chart == {"traces": 2, "points": 8, "highest": "Q4"}
    table = {f.subject: f.answer for f in PLOTLY.facts(_one(TABLE).diagram)}
    assert table == {"rows": 5, "columns": 4, "cell": "59.9", "largest_row": "Laptop"}
    pie = {"data": [{"type": "pie", "labels": ["a", "b", "a", "c"], "values": [2, 3, 2, 1]}]}
    # "a" twice: one slice of 4, larger than "b"'s 3
    assert {f.subject: f.answer for f in PLOTLY.facts(_one(json.dumps(pie)).diagram)} == {
        "traces": 1, "points": 3, "largest_slice": "a"}
    tie = _changed(CHART, lambda f: f["data"][0]["y"].__setitem__(0, 210))
    assert "highest" not in {f.subject for f in PLOTLY.facts(_one(tie).diagram)}


def test_the_generator_is_seeded_and_makes_both_kinds():
    codes = [PLOTLY.generate(random.Random(k), c) for k in range(8)
             for c in ("low", "medium", "high")]
    assert codes[0] == PLOTLY.generate(random.Random(0), "low")
    kinds = {_one(code).kind for code in codes}
    assert kinds == {"chart", "table"} and all(_one(code).errors == () for code in codes)


def test_parse_json_reports_the_fields_counts(tmp_path: Path):
    chart, table = tmp_path / "sales.plotly.json", tmp_path / "prices.json"
    chart.write_text(CHART, encoding="utf-8")
    table.write_text(TABLE, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "diagbench", "parse", "--json", str(chart),
                           str(table)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    read = json.loads(done.stdout)
    assert [(r["language"], r["kind"], r["counts"]) for r in read] == [
        ("plotly", "chart", {"traces": 2, "points": 8}),
        ("plotly", "table", {"tables": 1, "rows": 5, "columns": 4, "cells": 20})]

