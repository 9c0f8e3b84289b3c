"""Differential testing of the Mermaid, DOT and DBML readers against their engines, and the
Mermaid writer's round trip.

A seeded batch of generated diagrams (tests/formats_grammar.py) is drawn by the engines
(mermaid-cli, Graphviz, @dbml/core; tests/formats_oracle.py) and the parsed counts must
equal the drawn ones; the Mermaid diagrams are also written back (`write_mermaid`) and
the written scripts drawn in the same batch. The cases below the batch are the
disagreements the differential test found, each fixed in the readers.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diagbench.diagram.graph import GraphDiagram
from diagbench.formats.dot import read_dot
from diagbench.formats.mermaid import read_mermaid
from diagbench.formats.mermaid.writer import write_mermaid
from tests.formats_grammar import corpus, generate
from tests.formats_oracle import outcomes
from tests.sizes import sized

MERMAID = dict.fromkeys((("mermaid", "flowchart"), ("mermaid", "class"), ("mermaid", "er"),
                         ("mermaid", "state")), sized(12, 120))
OTHERS = {("dot", "graph"): sized(150, 1500), ("dbml", "er"): sized(100, 1000)}


def canonical(d: GraphDiagram) -> tuple:
    """The diagram's elements as sets (lines and member order left out): a state
    diagram written back keeps its elements, not their order."""
    def norm(items):
        out = []
        for x in items:
            x = dataclasses.replace(x, line=0)
            if hasattr(x, "members"):
                x = dataclasses.replace(x, members=tuple(sorted(x.members)))
            out.append(repr(x))
        return sorted(out)
    return (norm(d.entities), norm(d.relations), norm(d.clusters), norm(d.notes))


def same(a: GraphDiagram, b: GraphDiagram) -> bool:
    return a == b if a.kind != "state" else canonical(a) == canonical(b)


@pytest.mark.differential
def test_generated_diagrams_count_as_their_engines_draw():
    generated = corpus({**MERMAID, **OTHERS}, seed=15)
    items = [(g.language, g.kind, g.text) for g in generated]
    written = [(g.language, g.kind, write_mermaid(read_mermaid(g.text)[0].diagram))
               for g in generated if g.language == "mermaid"][::4]
    results = outcomes(items + written)
    drawn = [o for o in results[:len(items)] if o.drawn is not None]
    assert len(drawn) >= 0.95 * len(items)
    wrong = [(o.language, o.kind, o.parsed, o.drawn, o.text) for o in drawn if not o.agrees]
    assert wrong == []
    for o in results[len(items):]:  # the written scripts draw, and what the model says
        assert o.drawn is not None, (o.error, o.text)
        assert o.agrees, (o.parsed, o.drawn, o.text)


@settings(max_examples=sized(120, 600), deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["flowchart", "class", "er", "state"]))
def test_mermaid_writer_output_parses_back_identically(seed, kind):
    text = generate(random.Random(seed), "mermaid", kind).text
    once = read_mermaid(text)[0].diagram
    written = write_mermaid(once)
    again = read_mermaid(written)[0]
    assert same(again.diagram, once), written
    assert again.diagram.counts() == once.counts()
    assert not again.errors
    assert write_mermaid(again.diagram) == written or once.kind == "state"


def test_mermaid_docs_round_trip():
    root = Path(__file__).resolve().parents[2] / "shared" / "data" / "realworld" / "mermaid-docs"
    files = [f for folder in ("flowchart", "classDiagram", "entityRelationshipDiagram",
                              "stateDiagram") for f in sorted((root / folder).glob("*.mmd"))]
    assert len(files) >= 150
    for f in files:
        once = read_mermaid(f.read_text(encoding="utf-8"))[0]
        if once.kind in ("empty", "unknown"):
            continue
        again = read_mermaid(write_mermaid(once.diagram))[0]
        assert same(again.diagram, once.diagram), f.name
        assert not again.diagnostics, f.name


@pytest.mark.parametrize("source, counts", [
    # a whole link token is read before a link with text (not `o--` text `--o`)
    ("flowchart TD\n  A o--o n2@{ shape: diam, label: \"x\" } --o x1\n", (3, 2, 0)),
    ("flowchart TD\n  A x--x B --- C\n", (3, 2, 0)),
    # of a [\ or [/ shape's two closings, the nearest
    ("flowchart TD\n  x0[\\x0 text/] <-.-> n3[/n3 text\\] <==> x0\n", (2, 2, 0)),
    # a node belongs to the first subgraph that closes naming it
    ("flowchart LR\n  subgraph a\n    x\n  end\n  subgraph b\n    x --> y\n  end\n", (2, 1, 2)),
    # an empty subgraph is a node; a subgraph holding only it is a cluster
    ("flowchart LR\n  subgraph outer\n    subgraph inner\n    end\n  end\n  a --> inner\n",
     (2, 1, 1)),
    ("erDiagram\n  A ||--o{ B : x\n  subgraph S\n  end\n", (3, 1, 0)),
    # one self-loop per element is drawn
    ("flowchart LR\n  x & x --> x\n  y --> y\n  y -.-> y\n", (2, 2, 0)),
    # ... the last drawn over the others: an invisible last one hides them all
    ("flowchart TB\n  A ==> A ~~~ A\n  B --> B\n  B ~~~ B\n  B -.-> B\n", (2, 1, 0)),
    ("classDiagram\n  A --> A\n  A *-- A\n", (1, 1, 0)),
    ("stateDiagram-v2\n  A --> A : e1\n  A --> A : e2\n  A --> B\n", (2, 2, 0)),
    ("erDiagram\n  A ||--o{ A : x\n  A ||--o{ A : y\n  A ||--|{ B : z\n", (2, 2, 0)),
    # `style X` declares X
    ("flowchart LR\n  a --> b\n  style n0 fill:#bbf\n  class n1 hot\n", (3, 1, 0)),
    # ER read as Mermaid's lexer reads it: names with dots and letters beyond ASCII,
    # cardinality words in any case, `:::` classes, aliases spaced or quoted
    ("erDiagram\n  sch.order1:::hot { }\n  Mail0 || optionally to ONE OR ZERO Mail0: \"x\"\n",
     (2, 1, 0)),
    ("erDiagram\n  Café1 }o..|| sch.x : has\n  A one or many -. zero or many B : x\n",
     (4, 2, 0)),
    ("erDiagram\n  \"L x\"[\"L alias\"] {\n  }\n  DB4 [ \"DB4 spaced\" ] {\n  }\n", (2, 0, 0)),
    # ... attributes of every form, several on one line, blocks closed on their line
    ("erDiagram\n  A {\n    int a PK, FK\n    varchar(255) title\n    int b FK, UK \"both\"\n"
     "  }\n  B 1 to 1 \"C x\" : \"\"\n", (3, 1, 0)),
    ("erDiagram\n  A[Alias]:::hot { int a PK, FK varchar(255) title Date created_at }\n  B\n",
     (2, 0, 0)),
    ("erDiagram\n  A { int id PK string name } B { int x }\n", (2, 0, 0)),
    ("erDiagram\n  A {\n    type~T~ generic\n    *int star\n  }\n", (1, 0, 0)),
    # ... a statement needs no line of its own: an unquoted second word is an entity
    ("erDiagram\n  CUSTOMER ||--o{ ORDER : places order\n", (3, 1, 0)),
    ("erDiagram\n  class A x hot\n  B\n", (2, 0, 0)),
    ("erDiagram\n  class A,B hot\n  C\n", (1, 0, 0)),
    # a `:::` class name ends where a link starts
    ("flowchart TB\n  a[(a)]:::hot-----x2>x2 text]:::hot\n", (2, 1, 0)),
    # a number is a token of its own: a link's head after it starts the link
    ("flowchart LR\n  10o==o10\n  20x-->B\n  a10o==oB\n", (4, 3, 0)),
    # a subgraph title holding a space is no id: each gets one of its own
    ("graph RL\n  subgraph Group 0\n  subgraph Group 0\n  end\n  end\n", (1, 0, 1)),
    ("flowchart LR\n  subgraph One two\n    a\n  end\n  subgraph \"x y\"\n    b\n  end\n",
     (2, 0, 2)),
    # a state's id and `:::` class end at a `-`; `%%` starts a comment outside a label
    ("stateDiagram-v2\n  Still/S1 : does things\n  S0:::hot-->Still/S1 %% why\n"
     "  classDef hot fill:#f96\n", (2, 1, 0)),
    ("stateDiagram-v2\n  [*] --> S0\n  S0:::hot-->S1 %% why\n  S1-->S2: tight\n"
     "  S2 --> S3 : a %% b\n  S0 --> [*]\n", (6, 5, 0)),
    ("stateDiagram-v2\n  state F [[fork]]\n  state J <<join>>\n  [*] --> F\n  F --> A\n"
     "  F --> B\n  A --> J\n  B --> J\n  note \"free\" as N1\n  J --> C # a comment\n",
     (6, 6, 0)),
    ("erDiagram\n  1 ||--|| 2.5 : connects\n  1.5 { string v }\n  A{int x}\n  B{}\n  C:::a,b\n",
     (6, 1, 0)),
    # a link's id named after the link is the link's data, not a node; before it, a node
    ("flowchart LR\n  A e1@--> B\n  e1@{ animate: true }\n", (2, 1, 0)),
    ("flowchart LR\n  e1@{ animate: true }\n  A e1@--> B\n", (3, 1, 0)),
    ("flowchart LR\n  A e1@-- text --> B\n  e1@{ curve: linear }\n  B e2@--> e2\n", (3, 2, 0)),
    # `state X` alone declares nothing
    ("stateDiagram-v2\n  state S0\n  S1\n  state S2\n  S2 --> S3\n", (3, 1, 0)),
])
def test_mermaid_differential_cases(source, counts):
    c = read_mermaid(source)[0].diagram.counts()
    assert (c["entities"], c["relations"], c["clusters"]) == counts


def test_dot_node_in_two_clusters_stays_in_the_first():
    """dot deletes a node from a later cluster of the same level; a cluster left
    empty is not drawn."""
    d = read_dot("digraph { subgraph cluster_a { x y } subgraph cluster_b { x } "
                 "subgraph cluster_c { y z subgraph cluster_d { y } } }")[0].diagram
    assert [(c.id, c.members) for c in d.clusters] == [("cluster_a", ("x", "y")),
                                                       ("cluster_c", ("z",))]
