"""Mermaid's and bpmn-js' warm Chromium keeps one renderer process, the tab it draws in:
no spare renderer, no preloaded omnibox pop-ups, no blank first tab beside it."""

from __future__ import annotations

import random
from pathlib import Path

from diagbench.languages import named
from diagbench.languages.bpmn import engine as bpmn_engine
from diagbench.render.mermaid import MermaidEngine

#: Chromium features turned off (puppeteer merges them into its own list).
FEATURES = {"SpareRendererForSitePerProcess", "WebUIOmniboxPopup", "WebUIOmniboxAimPopup"}


def _browser_tree(jail: Path) -> list[list[str]]:
    """The command lines of the browser whose profile is in `jail` and of every process
    under it (zygotes, GPU, utilities, renderers)."""
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
    tree = {pid for pid, args in argv.items()
            if any(a.startswith(f"--user-data-dir={jail}") for a in args)
            and not any(a.startswith("--type=") for a in args)}
    assert len(tree) == 1, f"one browser in {jail}, not {len(tree)}"
    grown = True
    while grown:
        kids = {pid for pid, ppid in parent.items() if ppid in tree} - tree
        tree |= kids
        grown = bool(kids)
    return [argv[pid] for pid in tree if pid in argv]


def _assert_one_renderer(jail: Path) -> None:
    tree = _browser_tree(jail)
    main = [args for args in tree if not any(a.startswith("--type=") for a in args)]
    assert len(main) == 1
    disabled = {f for a in main[0] if a.startswith("--disable-features=")
                for f in a.removeprefix("--disable-features=").split(",")}
    assert disabled >= FEATURES
    renderers = [args for args in tree if "--type=renderer" in args]
    assert len(renderers) == 1, f"{len(renderers)} renderer processes"


def test_mermaids_browser_draws_in_its_one_renderer(tmp_path):
    engine = MermaidEngine(jobs=1)
    sources = ["graph TD\n  Alpha --> Beta\n", "graph LR\n  Gamma --> Delta\n"]
    try:
        pngs = engine.render(sources, tmp_path, "png")
        assert [r.ok for r in pngs] == [True, True] and engine.last_browser_launches == 1
        _assert_one_renderer(Path(engine._browsers[0].node.jail or ""))
        svgs = engine.render(sources, tmp_path, "svg")  # the same tab draws the next batch
        assert [r.ok for r in svgs] == [True, True] and engine.last_browser_launches == 0
        first = (tmp_path / "000000.svg").read_text(encoding="utf-8")
        assert "Alpha" in first and "Beta" in first
        _assert_one_renderer(Path(engine._browsers[0].node.jail or ""))
    finally:
        engine._browsers[0].end()


def test_bpmn_js_browser_draws_in_its_one_renderer(tmp_path):
    bpmn = named("bpmn")
    source = bpmn.generate(random.Random(5), "low")
    results = bpmn.make_engine(1, 60.0).render([source, source], tmp_path, "png")
    assert [r.ok for r in results] == [True, True], [r.error for r in results]
    assert results[0].sha256 == results[1].sha256
    _assert_one_renderer(Path(bpmn_engine._browser(0).node.jail or ""))
