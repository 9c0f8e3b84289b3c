"""DOT, DBML and Mermaid readers against their engines on real diagrams nobody here wrote,
round trips through the writers, and bad input.

Oracles: Graphviz's SVG (`class="node|edge|cluster"`), mermaid-cli's SVG (node, edge and
cluster groups) and, for DBML, the reference parser @dbml/core (tables, refs, table
groups, sticky notes), read by `diagbench.render.graph_svg` / `render.dbml`.
"""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diagbench.diagram.graph import Cluster, Entity, GraphDiagram, Relation
from diagbench.formats.dot import read_dot, write_dot
from diagbench.formats.mermaid import read_mermaid
from diagbench.formats.source import read_source
from diagbench.languages import read
from diagbench.languages.dbml.read import read_dbml, write_dbml
from diagbench.render.graph_svg import graphviz_statistics, mermaid_statistics
from tests.sizes import sized

REALWORLD = Path(__file__).resolve().parents[2] / "shared" / "data" / "realworld"
COUNTED = ("entities", "relations", "clusters", "notes")


def _files(folder: str, *suffixes: str) -> list[Path]:
    root = REALWORLD / folder
    if not root.is_dir():
        raise RuntimeError(f"{root} is missing: tests need ../shared beside the repo")
    return sorted(p for p in root.rglob("*") if p.suffix in suffixes)


def _svg(result) -> str:
    assert result.image is not None
    return result.image.read_text(encoding="utf-8")


def _counts(stats) -> dict[str, int]:
    return {k: stats[k] for k in COUNTED}


def test_dot_gallery_counts_equal_graphviz(tmp_path):
    from diagbench.render.graphviz import GraphvizEngine

    files = _files("graphviz-gallery", ".gv", ".dot")
    sources = [read_source(f) for f in files]  # a Latin-1 graph declares charset=latin1
    results = GraphvizEngine(jobs=2).render(sources, tmp_path, "svg")
    compared, wrong = 0, []
    for f, source, result in zip(files, sources, results, strict=True):
        if not result.ok:
            continue
        compared += 1
        parsed = read_dot(source)[0]
        want = _counts(graphviz_statistics(_svg(result)))
        if parsed.diagram.counts() != want or parsed.errors:
            wrong.append((f.name, parsed.diagram.counts(), want))
        again = read_dot(write_dot(parsed.diagram))[0]
        assert again.diagram == parsed.diagram, f.name
    assert compared >= 20 and wrong == []


def _dbml_core_counts(model) -> dict[str, int]:
    return {"entities": len(model["tables"]), "relations": len(model["refs"]),
            "clusters": len(model["groups"]), "notes": len(model["notes"])}


def test_dbml_counts_equal_dbml_core():
    from diagbench.languages.dbml.core import DbmlCore

    files = _files("dbml", ".dbml")
    sources = [f.read_text(encoding="utf-8") for f in files]
    core = DbmlCore()
    compared, wrong = 0, []
    for f, source, answer in zip(files, sources, core.read_many(sources), strict=True):
        if not source.strip():  # read as an empty source (a diagnostic)
            continue
        parsed = read_dbml(source)[0]
        if answer.model is None:  # refused: @dbml/core's own diagnostics, lines and columns
            assert [(d.line, d.column) for d in parsed.errors] == [
                (d.line, d.column) for d in answer.diagnostics], f.name
            continue
        compared += 1
        model = answer.model
        columns = [[c["name"] for c in t["columns"]] for t in model["tables"]]
        if (parsed.diagram.counts() != _dbml_core_counts(model) or parsed.errors
                or [[a.name for a in e.attributes] for e in parsed.diagram.entities] != columns):
            wrong.append(f.name)
        else:
            assert read_dbml(write_dbml(parsed.diagram))[0].diagram == parsed.diagram, f.name
    core.close()
    assert core.started == 1  # one warm process read every file
    assert compared >= 100
    assert wrong == []


def test_dbml_engine_draws_what_dbml_core_reads(tmp_path):
    from diagbench.languages.dbml.engine import DbmlEngine

    source = ("Table users {\n  id int [pk]\n}\nTable posts {\n  id int [pk]\n"
              "  user_id int [ref: > users.id]\n}\nTableGroup g {\n  users\n  posts\n}\n"
              "Note n {\n  'hello'\n}\n")
    good, bad = DbmlEngine(jobs=1).render([source, "Table x {\n id int [pk\n}\n"], tmp_path,
                                          "svg")
    assert good.ok and not bad.ok and bad.error_line == 3
    stats = graphviz_statistics(_svg(good))
    assert _counts(stats) == read_dbml(source)[0].diagram.counts() == {
        "entities": 2, "relations": 1, "clusters": 1, "notes": 1}


def test_mermaid_flowcharts_equal_mermaid_cli(tmp_path):
    from diagbench.render.mermaid import MermaidEngine

    files = _files("mermaid-docs/flowchart", ".mmd")
    sources = [f.read_text(encoding="utf-8") for f in files]
    results = MermaidEngine(jobs=2).render(sources, tmp_path, "svg")
    compared, wrong = 0, []
    for f, source, result in zip(files, sources, results, strict=True):
        if not result.ok:
            continue
        compared += 1
        want = _counts(mermaid_statistics(_svg(result)))
        got = read_mermaid(source)[0].diagram.counts()
        if got != want:
            wrong.append((f.name, got, want))
    assert compared >= 90 and wrong == []


MERMAID_KINDS = {"classDiagram": "class", "entityRelationshipDiagram": "er",
                 "stateDiagram": "state"}


def test_mermaid_class_er_state_equal_mermaid_cli(tmp_path):
    """Every class, ER and state diagram of the Mermaid docs that mermaid-cli draws: the
    parsed entities, relations, clusters and notes are what its SVG shows (one batch)."""
    from diagbench.render.mermaid import MermaidEngine

    files = [f for folder in MERMAID_KINDS for f in _files(f"mermaid-docs/{folder}", ".mmd")]
    sources = [f.read_text(encoding="utf-8") for f in files]
    results = MermaidEngine(jobs=2).render(sources, tmp_path, "svg")
    compared: dict[str, int] = dict.fromkeys(MERMAID_KINDS.values(), 0)
    wrong = []
    for f, source, result in zip(files, sources, results, strict=True):
        if not result.ok:
            continue
        parsed = read_mermaid(source)[0]
        compared[parsed.kind] += 1
        assert parsed.kind == MERMAID_KINDS[f.parent.name], f.name
        want = _counts(mermaid_statistics(_svg(result)))
        if parsed.diagram.counts() != want:
            wrong.append((f.name, parsed.diagram.counts(), want))
    assert compared["class"] >= 28 and compared["er"] >= 14 and compared["state"] >= 15
    assert wrong == []


@pytest.mark.parametrize("source, counts", [
    ("erDiagram\n  CAR 1 to zero or more NAMED-DRIVER : allows\n"
     "  PERSON many(0) optionally to 0+ NAMED-DRIVER : is\n", (3, 2, 0)),
    ("erDiagram\n  A only one to one or more B : x\n  B }|..|{ C : y\n  C u--o{ D : z\n",
     (4, 3, 0)),
    ("erDiagram\n  subgraph Outer\n    subgraph Inner\n      A ||--o{ B : has\n    end\n"
     "    A ||--|| C : y\n  end\n  Inner ||--|| Z : r\n", (4, 3, 2)),
    ("classDiagram\n  namespace Auth[\"Authentication Service\"] {\n    class U\n  }\n",
     (1, 0, 1)),
    ("classDiagram\n  namespace A.B.C {\n    class X\n  }\n  namespace A.B {\n    class Y\n"
     "  }\n", (2, 0, 3)),
    ("classDiagram\n  namespace A {\n    namespace B {\n      class X\n    }\n  }\n",
     (1, 0, 2)),
    ("---\nconfig:\n  class:\n    hierarchicalNamespaces: false\n---\nclassDiagram\n"
     "  namespace A.B.C {\n    class X\n  }\n  namespace A {\n    class Y\n  }\n", (2, 0, 2)),
    ("classDiagram\n  X --() Y\n  Z --() Y\n  W ()-- X\n  X ()--> Z\n", (5, 4, 0)),
])
def test_mermaid_class_er_constructs(source, counts):
    """Constructs found by the realworld and differential checks (counts per mermaid-cli
    11: spelled-out ER cardinalities, ER subgraphs, qualified and dotted namespaces,
    lollipop interfaces drawn once per relation)."""
    parsed = read_mermaid(source)[0]
    c = parsed.diagram.counts()
    assert (c["entities"], c["relations"], c["clusters"]) == counts
    assert not parsed.diagnostics


def test_mermaid_namespaces_nest_by_qualified_id():
    d = read_mermaid("classDiagram\n  namespace A.B {\n    class X\n  }\n"
                     "  namespace A {\n    namespace C {\n      class Y\n    }\n  }\n")[0].diagram
    assert [(c.id, c.name, c.parent, c.members) for c in d.clusters] == [
        ("A", "", None, ()), ("A.B", "B", "A", ("X",)), ("A.C", "C", "A", ("Y",))]


@pytest.mark.parametrize("source, counts", [
    ("flowchart LR\n  A --> B --> C\n", (3, 2, 0)),
    ("graph TD;A & B --> C & D", (4, 4, 0)),
    ("flowchart TB\n  A[(db)] -. text .-> B{{hex}}\n  B == x ==> C([stadium])\n"
     "  C ~~~ D\n", (4, 2, 0)),
    ("flowchart LR\n  subgraph one [One]\n    a1 --> a2\n  end\n  one --> c\n", (3, 2, 1)),
    ("flowchart LR\n  A -->|yes| B\n  A --o C\n  A --x D\n  A <--> E\n", (5, 4, 0)),
])
def test_flowchart_constructs(source, counts):
    diagram = read_mermaid(source)[0].diagram
    c = diagram.counts()
    assert (c["entities"], c["relations"], c["clusters"]) == counts


@pytest.mark.parametrize("source, counts", [
    ("digraph { a -> b -> c; {d e} -> f }", (6, 4, 0)),
    ("strict digraph { a -> b; a -> b; a:p -> b:q }", (2, 1, 0)),
    ("digraph { x [style=invis]; subgraph cluster_e {} subgraph cluster_1 { y } }",
     (1, 0, 1)),
    ("graph { a -- b [style=invis]; node [shape=box]; c }", (3, 0, 0)),
])
def test_dot_constructs(source, counts):
    c = read_dot(source)[0].diagram.counts()
    assert (c["entities"], c["relations"], c["clusters"]) == counts


@pytest.mark.parametrize("reader", [read_dot, read_dbml, read_mermaid])
@pytest.mark.parametrize("text", ["", "   \n", "hello world", "\x00\x01\x02",
                                  "digraph { a -> ", "flowchart LR\n subgraph x\n A-->B\n",
                                  "Table x {\n id int", "classDiagram\n class A {\n",
                                  "\udcff broken"])
def test_bad_input_gives_diagnostics(reader, text):
    parsed = reader(text)
    assert len(parsed) == 1
    errors = parsed[0].errors
    assert errors, "bad input read without an error diagnostic"
    assert all(1 <= d.line <= text.count("\n") + 1 for d in errors), errors


def test_big_input_does_not_raise():
    text = "flowchart LR\n" + "".join(f"  n{k} --> n{k + 1}\n" for k in range(20_000))
    assert read_mermaid(text)[0].diagram.counts()["relations"] == 20_000
    dot = "digraph {\n" + "".join(f"  n{k} -> n{k + 1};\n" for k in range(20_000)) + "}\n"
    assert read_dot(dot)[0].diagram.counts()["relations"] == 20_000


def test_dispatch_table_reads_each_language():
    assert read("digraph { a -> b }", "dot")[0].counts()["relations"] == 1
    assert read("flowchart LR\n A --> B\n", "mermaid")[0].counts()["entities"] == 2
    assert read("Table a {\n id int\n}\n", "dbml")[0].counts()["entities"] == 1


_names = st.text(string.ascii_letters + string.digits + "_ ", min_size=1, max_size=8).map(
    str.strip).filter(bool)


@st.composite
def dot_diagrams(draw) -> GraphDiagram:
    ids = draw(st.lists(_names, min_size=1, max_size=6, unique=True))
    clustered = draw(st.lists(st.sampled_from(ids), unique=True, max_size=3))
    entities = tuple(Entity(i, draw(st.sampled_from(["", "Label " + i])), "vertex",
                            parent="cluster_0" if i in clustered else None,
                            properties=(("label", "Label " + i),) if False else ())
                     for i in ids)
    entities = tuple(Entity(e.id, e.name, "vertex", parent=e.parent,
                            properties=(("label", e.name),) if e.name else ())
                     for e in entities)
    relations = tuple(Relation(a, b, "link", "single", "", "none", "arrow")
                      for a, b in draw(st.lists(st.tuples(st.sampled_from(ids),
                                                          st.sampled_from(ids)), max_size=6)))
    clusters = (Cluster("cluster_0", "", "subgraph", "cluster_0", None,
                        tuple(i for i in ids if i in clustered)),) if clustered else ()
    return GraphDiagram("dot", "graph", entities, relations, clusters, ())


@settings(max_examples=sized(60, 300), deadline=None)
@given(dot_diagrams())
def test_dot_writer_output_parses_back_identically(diagram):
    once = read_dot(write_dot(diagram))[0]
    assert not once.errors
    assert read_dot(write_dot(once.diagram))[0].diagram == once.diagram
    assert once.diagram.counts() == diagram.counts()


@settings(max_examples=sized(80, 400), deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_never_raise(data):
    text = data.decode("utf-8", "replace")
    for reader in (read_dot, read_dbml, read_mermaid):
        assert len(reader(text)) == 1
        assert len(reader("flowchart LR\n" + text)) == 1
