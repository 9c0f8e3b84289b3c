"""Mermaid: flowchart, class, ER and state diagrams; the kind is the diagram's header
(`flowchart`/`graph`, `classDiagram`, `erDiagram`, `stateDiagram`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from diagbench.languages.record import Drawn, GraphDialect, GraphLanguage

if TYPE_CHECKING:
    from diagbench.diagram.graph import GraphDiagram
    from diagbench.formats.parsed import Diagram, Parsed


class Mermaid(GraphLanguage):
    """Mermaid as a `Language`: its parts, each importing what it uses when first called."""

    def read(self, text: str) -> Sequence[Parsed[Diagram]]:
        from diagbench.formats.mermaid import read_mermaid

        return read_mermaid(text)

    def drawn(self, kind: str, svg: str) -> Drawn:
        from diagbench.render.graph_svg import mermaid_statistics

        return Drawn(mermaid_statistics(svg))

    def write(self, diagram: GraphDiagram) -> str:
        from diagbench.formats.mermaid.writer import write_mermaid

        return write_mermaid(diagram)


LANGUAGE = Mermaid(
    doc=__doc__ or "",
    name="mermaid",
    title="Mermaid",
    suffixes=(".mmd", ".mermaid"),
    domain="software",
    categories=("class", "state", "er", "flowchart"),
    kinds=("flowchart", "class", "er", "state"),
    engine="mermaid",
    examples=("mermaid-flowchart.mmd", "mermaid-class.mmd", "mermaid-er.mmd",
              "mermaid-state.mmd"),
    fallback=True,
    dialect=GraphDialect(flowchart=("flowchart", "process"), er_label="has"),
)
