"""The styles of a Graphviz drawing (DOT itself, and the languages drawn as DOT: DBML,
RDF, ONNX): root-graph attributes set at the end of the graph, so that they override
the source's own — the direction of the ranks, another layout engine (`fdp`'s
force-directed one and `neato`'s spring model, both keeping clusters), wider spacing.
Graphviz draws the same nodes, edges and clusters in each: the drawn counts do not
change.
"""

from __future__ import annotations

GRAPHVIZ_STYLES: dict[str, str] = {
    "left-to-right": "rankdir=LR",
    "top-to-bottom": "rankdir=TB",
    "fdp": "layout=fdp",
    "neato": "layout=neato; overlap=false",
    "spacious": "nodesep=1.0; ranksep=1.4",
}


def styled_dot(dot: str, style: str) -> str:
    """`dot` with the attributes of `style` (one of `GRAPHVIZ_STYLES`, "" for none) set
    last in its root graph (before its last `}`)."""
    if not style:
        return dot
    end = dot.rfind("}")
    if end < 0:  # not a graph: Graphviz says why
        return dot
    return f"{dot[:end]}  {GRAPHVIZ_STYLES[style]};\n{dot[end:]}"
