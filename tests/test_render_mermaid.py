"""Mermaid through the real mermaid-cli and Chromium: valid images, error lines, no network."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from diagbench.render import process
from diagbench.render.mermaid import MermaidEngine
from diagbench.render.svg_stats import svg_statistics
from tests.conftest import REALWORLD
from tests.test_render_security import listener  # noqa: F401 - the loopback listener fixture

POSITIVE = sorted((REALWORLD / "mermaid-cli" / "test-positive").glob("*.mmd"))


def test_real_mermaid_diagrams_render_to_png_in_one_browser_per_worker(tmp_path):
    sources = [p.read_text(encoding="utf-8") for p in POSITIVE]
    assert len(sources) >= 6
    engine = MermaidEngine(jobs=2)
    results = engine.render(sources, tmp_path, "png")
    assert [r.ok for r in results] == [True] * len(sources), [r.error for r in results]
    assert all(r.width > 50 and r.height > 20 and len(r.sha256) == 64 for r in results)
    assert engine.last_browser_launches == 2


def test_svg_and_a_broken_diagram_with_its_line(tmp_path):
    sources = ["sequenceDiagram\n    Alice->>Bob: Hi\n    Bob-->>Alice: Hello\n",
               "graph TD\n  A --> B\n  B --> -->\n", ""]
    results = MermaidEngine(jobs=1).render(sources, tmp_path, "svg")
    assert results[0].ok and Path(results[0].image).read_text(encoding="utf-8").startswith("<svg")
    assert svg_statistics(results[0].image.read_text(encoding="utf-8"))["diagram_type"] is None
    assert not results[1].ok and results[1].error_line == 3 and "Parse error" in results[1].error
    assert results[2].error == "empty source"


def test_mermaid_makes_no_request(tmp_path, listener):  # noqa: F811 - fixture
    """Without the closed proxy, Chromium fetches the first and last of these (seen)."""
    port, hits = listener
    sources = [
        f'graph TD\n  A["<img src=\'http://127.0.0.1:{port}/img\'>"] --> B\n',
        f"graph TD\n  A --> B\n  click A href \"http://127.0.0.1:{port}/click\"\n",
        f"graph TD\n  A[\"<iframe src='http://127.0.0.1:{port}/frame'></iframe>\"] --> B\n",
        '%%{init: {"securityLevel": "loose"}}%%\n'
        f"graph TD\n  A[\"<img src='http://127.0.0.1:{port}/loose'>\"] --> B\n",
    ]
    MermaidEngine(jobs=1).render(sources, tmp_path, "png")
    assert hits == []


SMALL = [f"graph TD\n  A{k} --> B{k}\n" for k in range(7)]


def test_a_fresh_browser_every_chunk_of_diagrams(tmp_path, monkeypatch):
    monkeypatch.setattr(process, "DIAGRAMS_PER_BROWSER", 3)
    engine = MermaidEngine(jobs=1)
    results = engine.render(SMALL, tmp_path, "svg")
    assert [r.ok for r in results] == [True] * 7
    assert engine.last_browser_launches == 3  # 3 + 3 + 1


def test_a_renderer_that_stops_part_way_hands_the_rest_to_a_new_one(tmp_path, monkeypatch):
    """The real renderer, its output cut after two diagrams (as when its browser dies):
    the diagram it stopped at is reported, the others are drawn by the next process."""
    real = shutil.which("node")
    assert real
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "node"
    wrapper.write_text(f'#!/bin/sh\n"{real}" "$@" | head -n 2\n', encoding="utf-8")
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    (tmp_path / "out").mkdir()
    results = MermaidEngine(jobs=1).render(SMALL, tmp_path / "out", "svg")
    assert [r.ok for r in results] == [True, True, False, True, True, False, True]
    assert results[2].error.startswith("the Mermaid renderer stopped at this diagram")
    assert all(r.image.is_file() for r in results if r.ok)


def test_a_class_diagram_draws_the_same_png_in_any_batch(tmp_path):
    """Class diagrams are drawn with rough.js, random unless seeded."""
    code = ("classDiagram\n  class Animal {\n    +String name\n    +eat()\n  }\n"
            "  Animal <|-- Dog\n  Dog --> Bone : chews\n")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = MermaidEngine(jobs=1).render([code, code], tmp_path / "a", "png")
    second = MermaidEngine(jobs=1).render(["graph TD\n  A --> B\n", code], tmp_path / "b",
                                          "png")
    assert first[0].ok and first[0].sha256 == first[1].sha256 == second[1].sha256


def test_an_engines_next_batch_is_drawn_by_its_warm_browser(tmp_path):
    """A build renders SVG and PNG of the same diagrams with one engine: the second
    batch launches no browser, and draws what a fresh engine draws."""
    for name in ("svg", "png", "fresh"):
        (tmp_path / name).mkdir()
    engine = MermaidEngine(jobs=1)
    svgs = engine.render(SMALL[:2], tmp_path / "svg", "svg")
    assert engine.last_browser_launches == 1 and all(r.ok for r in svgs)
    pngs = engine.render(SMALL[:2], tmp_path / "png", "png")
    assert engine.last_browser_launches == 0 and all(r.ok for r in pngs)
    fresh = MermaidEngine(jobs=1).render(SMALL[:2], tmp_path / "fresh", "png")
    assert [r.sha256 for r in pngs] == [r.sha256 for r in fresh]
    jail = Path(engine._browsers[0].node.jail or "")
    assert [p.name for p in jail.glob("chromium-*")]  # the browser's profile is in its jail
    assert _browsers_of(jail)
    engine._browsers[0].close()  # killed, as after a time-out: the browser goes with it
    for _ in range(600):  # the browser sees its pipe close and ends
        if not _browsers_of(jail):
            break
        time.sleep(0.1)
    assert not _browsers_of(jail)


def _browsers_of(jail: Path) -> list[str]:
    """The processes of a browser whose profile is in `jail`."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if f"--user-data-dir={jail}".encode() in cmdline.read_bytes():
                found.append(cmdline.parent.name)
        except OSError:  # it ended meanwhile
            continue
    return found
