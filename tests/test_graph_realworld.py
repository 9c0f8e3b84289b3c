"""Real-world PlantUML graph diagrams: the reader counts what PlantUML draws.

For every class, object, component, deployment, use-case, state and C4 diagram
of the graph corpus (tests/graph_corpus.py) that PlantUML renders without
error, the parsed entities, relations, clusters and notes equal those of
PlantUML's SVG (`diagbench.render.graph_stats`). State diagrams draw no
cluster group for a composite state, so their clusters are not compared.
"""

from __future__ import annotations

import pytest

from diagbench.formats.plantuml.read import read_plantuml
from tests.graph_corpus import real_diagrams, render_statistics

#: diagrams whose SVG cannot be the oracle, and why
KNOWN = {
    # C4Version()/%version() print text PlantUML computes; the reader cannot know it
    "C4-PlantUML/percy/TestVersion.puml#0",
    # a note on a class member is drawn inside the class's group: the SVG loses the class
    "plantuml-parser-fixtures/test/fixtures/class-note-on-member/in.plantuml#0",
}
DIAGRAMS = real_diagrams()


@pytest.fixture(scope="module")
def drawn() -> dict[str, dict[str, object] | None]:
    stats = render_statistics([d.text for d in DIAGRAMS])
    return {d.name: s for d, s in zip(DIAGRAMS, stats, strict=True)}


def test_the_corpus_is_there():
    folders = {d.folder for d in DIAGRAMS}
    assert folders == {"C4-PlantUML", "plantuml-parser-fixtures",
                       "PlantUmlClassDiagramGenerator", "mattjhayes-PlantUML-Examples"}
    assert len(DIAGRAMS) >= 100


@pytest.mark.parametrize("diagram", DIAGRAMS, ids=lambda d: d.name)
def test_counts_equal_the_svg(diagram, drawn):
    stats = drawn[diagram.name]
    if stats is None or stats["diagram_type"] not in ("class", "description", "state"):
        pytest.skip("PlantUML does not draw it as a graph diagram")
    if diagram.name in KNOWN:
        pytest.skip("the SVG is no oracle for it (see KNOWN)")
    [parsed] = read_plantuml(diagram.text)
    counts = parsed.counts()
    keys = ["entities", "relations", "notes"]
    if stats["diagram_type"] != "state":
        keys.append("clusters")
    assert {k: counts[k] for k in keys} == {k: stats[k] for k in keys}, parsed.diagnostics


def test_agreement_per_folder(drawn):
    """At least 95 % of the drawable diagrams of each folder agree (the figure for the note;
    measured: C4-PlantUML 21/22, plantuml-parser-fixtures 40/41, the other two folders all:
    the two that differ are those in KNOWN)."""
    for folder in {d.folder for d in DIAGRAMS}:
        checked = agree = 0
        for diagram in DIAGRAMS:
            stats = drawn[diagram.name]
            if diagram.folder != folder or stats is None or \
                    stats["diagram_type"] not in ("class", "description", "state"):
                continue
            counts = read_plantuml(diagram.text)[0].counts()
            keys = ["entities", "relations", "notes"] + \
                (["clusters"] if stats["diagram_type"] != "state" else [])
            checked += 1
            agree += all(counts[k] == stats[k] for k in keys)
        assert checked and agree / checked >= 0.95, (folder, agree, checked)
