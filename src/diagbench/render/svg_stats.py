"""Structural statistics read off PlantUML's SVG, an independent check of our parsers.

PlantUML 1.2026.2 marks drawn elements with classes and data attributes
(not under `!pragma teoz`); counting them tells what PlantUML itself drew.
"""

from __future__ import annotations

import re

from diagbench.render.markers import mark

_DIAGRAM_TYPE = re.compile(r'data-diagram-type="(\w+)"')
#: SVG class attribute → statistic name.
_CLASSES = {
    "participant participant-head": "participants",
    "message": "messages",
    "entity": "entities",
    "link": "links",
    "cluster": "clusters",
}


def svg_statistics(svg: str) -> dict[str, object]:
    """{"diagram_type", "participants", "messages", "entities", "links", "clusters"}."""
    kind = _DIAGRAM_TYPE.search(svg)
    stats: dict[str, object] = {"diagram_type": kind.group(1).lower() if kind else None}
    for css, name in _CLASSES.items():
        stats[name] = svg.count(f'<g class="{css}"')
    return stats


#: Statements added after `@startuml` so that PlantUML marks the elements its SVG does not
#: class: each kind gets a line thickness no diagram uses (skinparams and style rules
#: written later in the diagram still win, so a diagram setting these keeps its own).
SEQUENCE_MARKERS = (
    "skinparam NoteBorderThickness 0.31",
    "skinparam SequenceGroupBorderThickness 0.32",
    "<style>",
    "sequenceDiagram {",
    "  box {",
    "    LineThickness 0.37",
    "  }",
    "}",
    "</style>",
)
#: How each marked kind shows in the SVG: notes, group frames, box frames.
NOTE_MARK = "stroke-width:0.31;"
GROUP_MARK = "stroke-width:0.32;"
BOX_MARK = "stroke-width:0.37;"


def mark_sequence(source: str) -> str:
    """`source` with SEQUENCE_MARKERS inserted after each `@startuml` line."""
    return mark(source, SEQUENCE_MARKERS)
