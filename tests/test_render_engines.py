"""The engines on real diagrams: validity, sizes, error lines, bad input, SVG statistics."""

from __future__ import annotations

import re

import pytest

from diagbench.formats.plantuml import parse_sequence
from diagbench.languages import named
from diagbench.render.graphviz import GraphvizEngine
from diagbench.render.plantuml_pipe import PlantUMLEngine
from diagbench.render.svg_stats import svg_statistics
from tests.conftest import realworld_files
from tests.plantuml_batch import render_batch

GOOD = "@startuml\nAlice -> Bob : hello\nBob --> Alice : hi\n@enduml\n"


@pytest.fixture(scope="module")
def realworld(tmp_path_factory):
    """(source block, SVG result) for every PlantUML block under ../shared/data/realworld."""
    blocks = [block for path in realworld_files()
              for _, block in named("plantuml").split(path.read_text(encoding="utf-8"))]
    out = tmp_path_factory.mktemp("svg")
    return list(zip(blocks, PlantUMLEngine(jobs=2).render(blocks, out, "svg"), strict=True))


def test_warm_engine_agrees_with_plantuml_run_once_per_file(realworld, tmp_path):
    """Invalid in the warm JVM exactly when PlantUML's own command line reports an error,
    draws nothing, or draws its 'feature suppressed' notice (DOT inside @startuml)."""
    assert len(realworld) > 150
    batch = render_batch([block for block, _ in realworld], work=tmp_path)
    failed = {int(n) for n in re.findall(r"Error line \d+ in file: d(\d+)\.puml", batch.stderr)}
    failed |= {k for k, images in enumerate(batch.images) if not images
               or "has been suppressed" in images[0].read_text(encoding="utf-8")}
    assert {k for k, (_, r) in enumerate(realworld) if not r.ok} == failed
    # the sandbox opens no URL: a diagram that includes one may fail, the others mostly draw
    local = [r for block, r in realworld if not re.search(r"!include\w*\s+https?:", block)]
    assert sum(r.ok for r in local) >= 0.85 * len(local)
    for _, r in realworld:
        assert (r.width > 0 and r.height > 0 and len(r.sha256) == 64) if r.ok else r.error


def test_svg_statistics_agree_with_the_parser(realworld):
    checked = 0
    for block, result in realworld:
        if not result.ok:
            continue
        stats = svg_statistics(result.image.read_text(encoding="utf-8"))
        [parsed] = parse_sequence(block)
        if stats["diagram_type"] == "sequence":
            counts = parsed.diagram.counts()
            assert (stats["participants"], stats["messages"]) == (
                counts["participants"], counts["messages"]), block[:200]
            checked += 1
    assert checked >= 60


def test_syntax_errors_keep_the_message_and_the_line(tmp_path):
    broken = "@startuml\nA -> B\nA -> C\nthis ) is ( junk\n@enduml\n"
    results = PlantUMLEngine(jobs=1).render([broken, GOOD], tmp_path, "png")
    assert not results[0].ok and results[0].error_line == 4 and "Syntax Error" in results[0].error
    assert results[1].ok


def test_bad_input_becomes_invalid_results_and_the_batch_goes_on(tmp_path):
    loop = "@startuml\n!$i = 0\n!while 1\n!$i = $i + 1\n!endwhile\n@enduml\n"
    recursion = "@startuml\n!procedure $f($x)\n$f($x)\n!endprocedure\n$f(1)\n@enduml\n"
    huge = "@startuml\n" + "A -> B : x\n" * 5_000_000 + "@enduml\n"
    sources = [loop, GOOD, recursion, "\x00\x01\x02 junk", "", huge, GOOD]
    results = PlantUMLEngine(jobs=2, timeout=10).render(sources, tmp_path, "png")
    assert [r.ok for r in results] == [False, True, False, False, False, False, True]
    # each bad input is stopped, with its own reason: PlantUML's loop guard (with the line
    # of `!endwhile`), the 10 s timeout for the recursion, the checks before rendering
    assert (results[0].error, results[0].error_line) == ("Infinite loop?", 5)
    assert results[2].error.startswith("timed out after 10 s")
    assert results[3].error == "no @startuml … @enduml block"
    assert results[4].error == "empty source"
    assert "over the 1,000,000-byte limit" in results[5].error


def test_a_hanging_diagram_is_killed_and_the_worker_restarts(tmp_path):
    engine = PlantUMLEngine(jobs=1, timeout=2)
    slow = "@startuml\n!$i = 0\n!while $i < 100000000\n!$i = $i + 1\n!endwhile\nA -> B\n@enduml\n"
    results = engine.render([GOOD, slow, GOOD], tmp_path, "png")
    assert [r.ok for r in results] == [True, False, True]
    assert "timed out" in results[1].error or "loop" in results[1].error.lower()


def test_graphviz_renders_and_reports_error_lines(tmp_path):
    results = GraphvizEngine().render(
        ["digraph { a -> b; b -> c }", "digraph {\n a -> b\n c -> -> d\n}", ""], tmp_path, "png")
    assert results[0].ok and results[0].width > 20 and results[0].height > 50
    assert not results[1].ok and results[1].error_line == 3
    assert results[2].error == "empty source"
