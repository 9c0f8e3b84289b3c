"""Read a PNG of a PlantUML class diagram: its class names and which way each relation goes.

Pixels only: boxes come from `class_geometry`, connectors and their arrow ends from
`class_connectors`, names from `class_names` (RapidOCR). Nothing is inferred from what a
name means.
"""

from __future__ import annotations

from diagbench.diagram.classes import ClassDiagram, Relation, RelationKind, UmlClass
from diagbench.models.baselines.class_connectors import Connector, find_connectors
from diagbench.models.baselines.class_geometry import Box, find_boxes
from diagbench.models.baselines.class_names import read_name
from diagbench.models.baselines.pixels import decode_rgb


class UnreadableDiagram(ValueError):
    """The bytes are not an image of a class diagram this reader can read."""


def read_class_diagram(image: bytes) -> ClassDiagram:
    """The classes (top to bottom) and the relations drawn between them, in the sense of
    `diagbench.diagram.classes`, of the class diagram in PNG or JPEG `image` bytes."""
    rgb = decode_rgb(image, UnreadableDiagram)
    boxes, scale = find_boxes(rgb)
    if not boxes:
        raise UnreadableDiagram("no class boxes found: this does not look like a PlantUML "
                                "class diagram (default skin)")
    names = [read_name(rgb, box) for box in boxes]
    relations = [_relation(c, names, boxes) for c in find_connectors(rgb, boxes, scale)]
    return ClassDiagram([UmlClass(name) for name in names], relations)


def _relation(connector: Connector, names: list[str], boxes: list[Box]) -> Relation:
    """The semantic relation of a connector: its kind and which end is the source."""
    (a, b), (shape, other) = connector.ends, connector.shapes
    upper_b = (boxes[b].y0, boxes[b].x0) < (boxes[a].y0, boxes[a].x0)
    if (shape == "none" and other != "none") or (shape == other == "none" and upper_b):
        a, b, shape = b, a, other  # `a` is now the decorated end, or the upper one if none
    if shape == "diamond" and connector.dashed:
        shape = "arrow"  # a small arrowhead drawn steeply at 1× can look solid; no dashed
        # line in this notation ends in a filled diamond
    kind: RelationKind
    if shape == "triangle":
        kind = "realization" if connector.dashed else "inheritance"
        return Relation(kind, names[b], names[a])
    if shape in ("diamond", "hollow diamond"):
        kind = "composition" if shape == "diamond" else "aggregation"
        return Relation(kind, names[a], names[b])
    if shape == "arrow":
        if connector.dashed:
            return Relation("dependency", names[b], names[a])
        return Relation("association", names[b], names[a], navigable=True)
    return Relation("association", names[a], names[b])
