"""Graphviz DOT: graphs and digraphs, drawn by Graphviz. Its styles
(`languages.dot.styles`): ranks left to right, the `fdp` and `neato` layouts."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from diagbench.languages.record import Drawn, GraphLanguage

if TYPE_CHECKING:
    from diagbench.diagram.graph import GraphDiagram
    from diagbench.formats.parsed import Diagram, Parsed

#: Its drawing styles (`languages.dot.styles`).
STYLES = ("left-to-right", "fdp", "neato")
_START = re.compile(r"^\s*(?:strict\s+)?(?:di)?graph\b", re.I)


def recognises(text: str) -> bool:
    """A DOT source starts with `[strict] graph` or `digraph`."""
    return _START.match(text) is not None


class Dot(GraphLanguage):
    """Graphviz DOT as a `Language`: its parts, each importing what it uses when first called."""

    def recognises(self, text: str) -> bool:
        return recognises(text)

    def read(self, text: str) -> Sequence[Parsed[Diagram]]:
        from diagbench.formats.dot import read_dot

        return read_dot(text)

    def prepare(self, source: str, kind: str, marked: bool, style: str = "") -> str:
        from diagbench.languages.dot.styles import styled_dot
        from diagbench.languages.styled import known

        return styled_dot(source, known(style, STYLES))

    def styles(self) -> tuple[str, ...]:
        return STYLES

    def drawn(self, kind: str, svg: str) -> Drawn:
        from diagbench.render.graph_svg import graphviz_statistics

        return Drawn(graphviz_statistics(svg))

    def write(self, diagram: GraphDiagram) -> str:
        from diagbench.formats.dot import write_dot

        return write_dot(diagram)


LANGUAGE = Dot(
    doc=__doc__ or "",
    name="dot",
    title="Graphviz DOT",
    suffixes=(".dot", ".gv"),
    domain="software",
    categories=("flowchart",),
    kinds=("graph",),
    engine="graphviz",
    examples=("dot-graph.gv",),
    libraries=("pygraphviz",),
)
