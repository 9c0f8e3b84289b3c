"""The class view of a PlantUML text, as the tests read it: the graph reader's first
diagram seen through `ClassDiagram.from_graph`."""

from __future__ import annotations

from diagbench.diagram.classes import ClassDiagram
from diagbench.diagram.graph import GraphDiagram
from diagbench.formats.plantuml.graph import parse_graph


def parse_class_diagram(text: str) -> ClassDiagram:
    """The class view of the first diagram in `text` (empty when there is none)."""
    parsed = parse_graph(text)
    diagram = parsed[0].diagram if parsed else None
    return ClassDiagram.from_graph(diagram) if isinstance(diagram, GraphDiagram) \
        else ClassDiagram()
