"""The PlantUML graph reader: constructs with hand-written expectations, bad input,
Hypothesis properties (random bytes never raise; writer output reads back the same), and
differential testing against PlantUML on generated diagrams (with their written-back form
rendered in the same warm batch)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from diagbench.diagram.graph import GraphDiagram
from diagbench.formats.plantuml.graph import parse_graph
from diagbench.formats.plantuml.graph_writer import structure, write_graph
from diagbench.formats.plantuml.read import read_plantuml
from tests.graph_corpus import render_statistics
from tests.graph_grammar import corpus, diagram
from tests.sizes import sized


def one(text: str):
    [parsed] = read_plantuml(text)
    return parsed


def test_class_relations_by_meaning():
    d = one("@startuml\nclass A\nA <|-- B\nC ..|> A\nW \"1\" *-- \"many\" P : has\n"
            "X o-- Y\nA ..> Z\nA --> B\n@enduml\n").diagram
    got = {(r.source, r.target, r.type, r.direction) for r in d.relations}
    assert got == {("B", "A", "inheritance", "single"), ("C", "A", "realization", "single"),
                   ("W", "P", "composition", "single"), ("X", "Y", "aggregation", "single"),
                   ("A", "Z", "dependency", "single"), ("A", "B", "association", "single")}
    comp = next(r for r in d.relations if r.type == "composition")
    assert (comp.source_cardinality, comp.target_cardinality, comp.label) == ("1", "many", "has")


def test_members_and_er_columns():
    d = one("@startuml\nclass A {\n  +id : int\n  -run(x : int) : void\n}\n"
            "entity T {\n  *id : number <<PK>>\n  --\n  ref : int <<FK>>\n}\n@enduml\n").diagram
    a, t = d.entity("A"), d.entity("T")
    assert [m.name for m in a.attributes] == ["id"] and a.methods[0].name == "run"
    assert a.methods[0].visibility == "-" and a.methods[0].type == "void"
    assert t.kind == "table"
    assert [(c.name, c.type, c.flags) for c in t.columns] == [
        ("id", "number", ("not_null", "pk")), ("ref", "int", ("fk",))]


def test_components_clusters_and_notes():
    p = one("@startuml\nnode \"Server\" as S {\n  [API] as api\n  database DB\n}\n"
            "cloud Empty {\n}\napi --> DB : sql\nnote left of api : entry\n"
            "note \"free\" as N1\nN1 .. DB\n@enduml\n")
    d = p.diagram
    assert p.kind == "deployment" or p.kind == "component"
    assert d.counts() == {"entities": 3, "relations": 1, "clusters": 1, "notes": 2}
    assert d.cluster("S").members == ("api", "DB")
    assert d.entity("Empty").kind == "cloud"  # a container with nothing inside is a box
    assert {n.text: n.targets for n in d.notes} == {"entry": ("api",), "free": ("DB",)}


def test_state_pseudo_states_and_composites():
    d = one("@startuml\n[*] --> A\nstate A {\n  [*] --> B\n  B --> C\n  --\n  [*] --> D\n}\n"
            "A --> [*]\n@enduml\n").diagram
    kinds = sorted(e.kind for e in d.entities)
    assert kinds == ["end", "start", "start", "start", "state", "state", "state"]
    assert [c.kind for c in d.clusters] == ["composite_state"]
    assert all(r.type == "transition" for r in d.relations)


def test_c4_macros():
    d = one("@startuml\n!include https://raw.githubusercontent.com/plantuml-stdlib/C4-PlantUML/"
            "master/C4_Container.puml\nPerson(u, \"User\")\nSystem_Boundary(s, \"Shop\") {\n"
            "  Container(web, \"Web\", \"React\", \"UI\")\n  ContainerDb(db, \"DB\", \"pg\")\n}\n"
            "Rel(u, web, \"uses\", \"HTTPS\")\nBiRel(web, db, \"sql\")\nLay_R(u, db)\n"
            "@enduml\n").diagram
    assert d.kind == "c4"
    assert [(e.id, e.kind, e.shape) for e in d.entities] == [
        ("u", "person", "Person"), ("web", "container", "Container"),
        ("db", "container", "ContainerDb")]
    assert d.entity("web").technology == "React"
    assert [(r.source, r.target, r.direction, r.technology) for r in d.relations] == [
        ("u", "web", "single", "HTTPS"), ("web", "db", "double", "")]
    assert d.clusters[0].kind == "boundary" and d.clusters[0].members == ("web", "db")


@pytest.mark.parametrize(("text", "line", "reason"), [
    ("@startuml\n", 1, "missing @enduml"),
    ("@startuml\nclass A {\n  x\n", 2, "member body never closed"),
    ("@startuml\npackage P {\n[A]\n@enduml", 2, "block never closed"),
    ("@startuml\n}}}\n@enduml", 2, "'}' without an open block"),
    ("\x00\x01\x02", 1, "no @startuml line"),
    ("@startuml\nnote left of A\nnever ends\n", 2, "note never closed"),
])
def test_bad_input_gives_diagnostics_not_exceptions(text, line, reason):
    [parsed] = parse_graph(text)
    assert any(d.line == line and reason in d.reason for d in parsed.errors), \
        parsed.diagnostics


def test_empty_input_is_no_diagram():
    assert parse_graph("") == []


def test_big_input_is_read_whole_without_diagnostics():
    [parsed] = parse_graph("@startuml\nclass A\n" + "A --> B\n" * 20000 + "@enduml\n")
    assert not parsed.diagnostics
    assert parsed.counts()["relations"] == 20000


def test_unclosed_blocks_are_reported_with_their_line():
    [p] = parse_graph("@startuml\nclass A {\n  x : int\n@enduml\n")
    assert any(d.line == 2 and "never closed" in d.reason for d in p.diagnostics)


@settings(max_examples=sized(200, 1000), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400))
def test_random_bytes_never_raise(data):
    text = data.decode("utf-8", errors="replace")
    parse_graph(text)
    parse_graph("@startuml\n" + text + "\n@enduml\n")
    read_plantuml("@startuml\nclass A\n" + text + "\n@enduml\n")


@settings(max_examples=sized(150, 750), deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(("class", "component", "usecase", "state", "c4")))
@example(118608, "usecase")  # two actors and an arrow: `actor` lines read as a sequence
def test_writer_output_reads_back_the_same(seed, kind):
    _, text = diagram(random.Random(seed), kind)
    first = one(text).diagram
    if not isinstance(first, GraphDiagram):
        return  # PlantUML reads it as a sequence diagram too
    written = write_graph(first)
    again = one(written).diagram
    assert structure(again) == structure(first), written


def _drawn_counts(parsed, stats):
    counts = dict(parsed.counts())
    keys = ["entities", "relations", "notes"]
    if stats["diagram_type"] == "state":  # fork/join bars are drawn without a group
        counts["entities"] -= sum(e.kind in ("fork", "join") for e in parsed.diagram.entities)
    else:
        keys.append("clusters")
    return {k: counts[k] for k in keys}, {k: stats[k] for k in keys}


@pytest.mark.differential
def test_generated_diagrams_agree_with_plantuml():
    """A few hundred generated diagrams and their written-back forms, one warm batch."""
    diagrams = [(k, t) for k, t in corpus(sized(220, 2200), seed=15)
                if isinstance(one(t).diagram, GraphDiagram)]  # a few are sequence diagrams
    written = [write_graph(one(text).diagram) for _, text in diagrams]
    stats = render_statistics([t for _, t in diagrams] + written)
    original, rewritten = stats[:len(diagrams)], stats[len(diagrams):]
    checked = sequences = 0
    failures = []
    for (kind, text), s, w, s2 in zip(diagrams, original, written, rewritten, strict=True):
        if s is None:
            continue
        checked += 1
        ours, theirs = _drawn_counts(one(text), s)
        if ours != theirs:
            failures.append((kind, ours, theirs, text))
        if s2 is None:  # known: state transitions between states of concurrent regions,
            failures.append((kind, "written script does not render", None, w))  # moved out
            continue
        if s2["diagram_type"] == "sequence" or not isinstance(one(w).diagram, GraphDiagram):
            sequences += 1  # one actor with self-links is a sequence diagram to PlantUML
            continue
        ours2, theirs2 = _drawn_counts(one(w), s2)
        if ours2 != theirs2:
            failures.append((kind, ours2, theirs2, w))
    assert checked >= 180 and sequences <= 5
    # known: in state diagrams a note is sometimes drawn with a link of its own, which the
    # SVG does not tell apart (it reuses entity ids); every other kind agrees exactly
    assert all(kind == "state" for kind, *_ in failures), failures[:2]
    assert len(failures) <= 0.03 * 2 * checked, failures[:2]
