"""Graphviz DOT: graphs and digraphs, drawn by Graphviz."""

from __future__ import annotations

import re

from diagbench.languages.record import Language

_START = re.compile(r"^\s*(?:strict\s+)?(?:di)?graph\b", re.I)


def recognises(text: str) -> bool:
    """A DOT source starts with `[strict] graph` or `digraph`."""
    return _START.match(text) is not None


LANGUAGE = Language(
    doc=__doc__ or "",
    name="dot",
    title="Graphviz DOT",
    suffixes=(".dot", ".gv"),
    domain="software",
    categories=("flowchart",),
    kinds=("graph",),
    reader="diagbench.formats.dot:read_dot",
    engine="graphviz",
    statistics="diagbench.render.graph_svg:graphviz_statistics",
    similarity="diagbench.compare.graph:compare_texts",
    writer="diagbench.formats.dot:write_dot",
    examples=("dot-graph.gv",),
    recognises=recognises,
)
