"""A knowledge graph drawn by Graphviz: one node per distinct subject or object (a
resource as an ellipse labelled with its prefixed name, a blank node as a small empty
circle, a literal as a box with its text), one edge per triple labelled with its
predicate — so the SVG counts exactly the graph's `nodes`, `triples`, `literals` and
`blank_nodes`. RDFLib's `rdf2dot` is not used: it folds literals into their
subject's table, so the drawing would not show them as the graph's nodes.
"""

from __future__ import annotations

import re
from typing import Any

from diagbench.languages.dot.styles import GRAPHVIZ_STYLES, styled_dot
from diagbench.languages.rdf.model import KnowledgeGraph
from diagbench.languages.styled import opened
from diagbench.render.model_dot import ModelDotEngine, Unreadable

#: Longer literals are drawn cut, with an ellipsis.
LABEL_CHARS = 60
_STYLE = {"uri": 'shape=ellipse, style=filled, fillcolor="#dbe8f6", class="rdfuri"',
          "bnode": 'shape=circle, width=0.25, label="", style=filled, fillcolor="#d0d0d0", '
                   'class="rdfbnode"',
          "literal": 'shape=box, style=filled, fillcolor="#fff2cc", class="rdfliteral"'}
_NODE = re.compile(r'<g id="[^"]*" class="node (rdfuri|rdfbnode|rdfliteral)">')
_EDGE = re.compile(r'<g id="[^"]*" class="edge">')


def quoted(text: str) -> str:
    """A DOT double-quoted string."""
    if len(text) > LABEL_CHARS:
        text = text[:LABEL_CHARS - 1] + "…"
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def graph_dot(graph: KnowledgeGraph) -> str:
    """The DOT drawing of a knowledge graph (see the module's docstring)."""
    ids: dict[str, str] = {}
    lines = ["digraph rdf {", "  graph [rankdir=LR, fontname=Helvetica];",
             "  node [fontname=Helvetica, fontsize=11];",
             "  edge [fontname=Helvetica, fontsize=9];"]
    for n, node in enumerate(graph.nodes):
        ids[node.key] = f"n{n}"
        label = "" if node.kind == "bnode" else f"label={quoted(node.label)}, "
        lines.append(f"  n{n} [{label}{_STYLE[node.kind]}];")
    for s, p, o in graph.triples:
        lines.append(f"  {ids[s.key]} -> {ids[o.key]} [label={quoted(p.label)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def source_dot(source: str) -> str:
    """The DOT drawing of an RDF/XML source, in the style its envelope names
    (`Unreadable` with the reader's first error)."""
    from diagbench.languages.rdf.read import read_rdfxml

    try:
        style, source = opened(source, GRAPHVIZ_STYLES)
    except ValueError as exc:
        raise Unreadable(str(exc), 1) from None
    [parsed] = read_rdfxml(source)
    if parsed.errors:
        first = parsed.errors[0]
        raise Unreadable(f"RDFLib: {first.reason}", first.line)
    assert isinstance(parsed.diagram, KnowledgeGraph)
    return styled_dot(graph_dot(parsed.diagram), style)


def rdflib_version() -> str:
    from importlib.metadata import version

    return f"rdflib {version('rdflib')}"


def make_engine(jobs: int, timeout: float) -> ModelDotEngine:
    return ModelDotEngine("rdf-graphviz", rdflib_version, source_dot, jobs, timeout)


def drawn_statistics(svg: str) -> dict[str, Any]:
    """What the drawing shows: its nodes by kind and its edges (one per triple)."""
    kinds = _NODE.findall(svg)
    return {"nodes": len(kinds), "triples": len(_EDGE.findall(svg)),
            "literals": kinds.count("rdfliteral"), "blank_nodes": kinds.count("rdfbnode")}


