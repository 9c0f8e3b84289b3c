"""Mermaid's, bpmn-js' and Kaleido's warm Chromium keeps one renderer process, the tab
it draws in: no spare renderer, no preloaded omnibox pop-ups, no blank first tab beside
it."""

from __future__ import annotations

import random
from pathlib import Path

from diagbench.languages import named
from diagbench.languages.bpmn import engine as bpmn_engine
from diagbench.languages.plotly.engine import shared_browser
from diagbench.render.chromium import SMALL_JS_HEAP
from diagbench.render.mermaid import MermaidEngine
from diagbench.render.process import WarmProcess

#: Chromium features turned off (puppeteer merges them into its own list).
FEATURES = {"SpareRendererForSitePerProcess", "WebUIOmniboxPopup", "WebUIOmniboxAimPopup"}


def _tree(root: int) -> list[list[str]]:
    """The command lines of every process under `root` (the browser, its zygotes, GPU,
    utility and renderer processes, and whatever starts it)."""
    argv: dict[int, list[str]] = {}
    parent: dict[int, int] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            # a child of Chromium rewrites its command line as one string of words
            argv[int(entry.name)] = (entry / "cmdline").read_bytes().decode().replace(
                "\0", " ").split()
            stat = (entry / "stat").read_text()
            parent[int(entry.name)] = int(stat[stat.rindex(")") + 2:].split()[1])
        except (OSError, ValueError):  # it ended meanwhile
            continue
    tree, grown = {root}, True
    while grown:
        kids = {pid for pid, ppid in parent.items() if ppid in tree} - tree
        tree |= kids
        grown = bool(kids)
    return [argv[pid] for pid in tree - {root} if argv.get(pid)]


def _assert_one_renderer(root: int) -> None:
    """The one browser under process `root` runs without `FEATURES` and has one renderer."""
    tree = _tree(root)
    main = [args for args in tree if args[0].endswith("/chromium")
            and not any(a.startswith("--type=") for a in args)]
    assert len(main) == 1
    disabled = {f for a in main[0] if a.startswith("--disable-features=")
                for f in a.removeprefix("--disable-features=").split(",")}
    assert disabled >= FEATURES
    renderers = [args for args in tree if "--type=renderer" in args]
    assert len(renderers) == 1, f"{len(renderers)} renderer processes"


def _pid(warm: WarmProcess) -> int:
    assert warm.process is not None
    return warm.process.pid


def test_mermaids_browser_draws_in_its_one_renderer(tmp_path):
    engine = MermaidEngine(jobs=1)
    sources = ["graph TD\n  Alpha --> Beta\n", "graph LR\n  Gamma --> Delta\n"]
    try:
        pngs = engine.render(sources, tmp_path, "png")
        assert [r.ok for r in pngs] == [True, True] and engine.last_browser_launches == 1
        _assert_one_renderer(_pid(engine._browsers[0].node))
        svgs = engine.render(sources, tmp_path, "svg")  # the same tab draws the next batch
        assert [r.ok for r in svgs] == [True, True] and engine.last_browser_launches == 0
        first = (tmp_path / "000000.svg").read_text(encoding="utf-8")
        assert "Alpha" in first and "Beta" in first
        _assert_one_renderer(_pid(engine._browsers[0].node))
    finally:
        engine._browsers[0].end()


def test_bpmn_js_browser_draws_in_its_one_renderer(tmp_path):
    bpmn = named("bpmn")
    source = bpmn.generate(random.Random(5), "low")
    results = bpmn.make_engine(1, 60.0).render([source, source], tmp_path, "png")
    assert [r.ok for r in results] == [True, True], [r.error for r in results]
    assert results[0].sha256 == results[1].sha256
    _assert_one_renderer(_pid(bpmn_engine._browser(0).node))


def test_kaleidos_browser_draws_in_its_one_renderer(tmp_path):
    plotly = named("plotly")
    sources = [plotly.generate(random.Random(seed), "low") for seed in (1, 2)]
    results = plotly.make_engine(1, 60.0).render(sources, tmp_path, "png")
    assert [r.ok for r in results] == [True, True], [r.error for r in results]
    assert results[0].sha256 != results[1].sha256
    _assert_one_renderer(_pid(shared_browser().worker.process))
    # its page's JavaScript heap is bounded (V8 collects sooner: SVG exports piled up)
    [renderer] = [args for args in _tree(_pid(shared_browser().worker.process))
                  if "--type=renderer" in args]
    assert SMALL_JS_HEAP in renderer


def test_kaleidos_browser_is_replaced_after_its_share_of_drawings(tmp_path, monkeypatch):
    """A fresh browser takes over after `DIAGRAMS_PER_BROWSER` drawings (a browser
    grows with what it has drawn), and draws the same image."""
    from diagbench.languages.plotly import engine as plotly_engine

    monkeypatch.setattr(plotly_engine, "DIAGRAMS_PER_BROWSER", 2)
    plotly = named("plotly")
    one, two = (plotly.generate(random.Random(seed), "low") for seed in (1, 2))
    engine = plotly.make_engine(1, 60.0)
    engine.close()  # a browser of its own from the first drawing
    warm = shared_browser().worker.process
    results = engine.render([one, two], tmp_path, "png")
    first = warm.started
    (tmp_path / "again").mkdir()
    again = engine.render([one], tmp_path / "again", "png")
    assert warm.started == first + 1  # the third drawing: a new worker and browser
    assert [r.ok for r in results + again] == [True, True, True]
    assert again[0].sha256 == results[0].sha256
