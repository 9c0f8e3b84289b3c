"""Structural statistics read off PlantUML's SVG, an independent check of our parsers.

PlantUML 1.2026.2 marks drawn elements with classes and data attributes
(not under `!pragma teoz`); counting them tells what PlantUML itself drew.
"""

from __future__ import annotations

import html
import re

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
_NOTE_MARK = "stroke-width:0.31;"
_GROUP_MARK = "stroke-width:0.32;"
_BOX_MARK = "stroke-width:0.37;"
#: What is not a rectangle's place and size (a coloured group's frame is drawn filled, then
#: as a border).
_GEOMETRY = re.compile(r'\s(?:fill|style)="[^"]*"')
_ELEMENT = re.compile(r"<(path|polygon|rect)\b([^>]*)/>")
_LIFELINE = re.compile(
    r'<g class="participant-lifeline" data-entity-uid="([^"]*)" data-qualified-name="([^"]*)"')
_MESSAGE = re.compile(r'<g class="message" data-entity-1="([^"]*)" data-entity-2="([^"]*)"')


def mark_sequence(source: str) -> str:
    """`source` with SEQUENCE_MARKERS inserted after each `@startuml` line."""
    out = []
    for line in source.split("\n"):
        out.append(line)
        if line.strip().lower().startswith("@startuml"):
            out.extend(SEQUENCE_MARKERS)
    return "\n".join(out)


def sequence_drawing(svg: str) -> dict[str, object]:
    """What PlantUML drew in a sequence diagram rendered from `mark_sequence(source)`.

    {"diagram_type", "participants": [ids in drawing order], "messages": [(from id, to id)]
    (a message to or from the border has the participant at both ends), "notes", "groups",
    "boxes"}. A note is one folded body (its corner is a second, shorter path), a hexagon
    (`hnote`) or a rectangle (`rnote`); a group frame may be drawn twice (body, then border,
    in its colour when it has one): frames of the same place and size count once.
    """
    kind = _DIAGRAM_TYPE.search(svg)
    names = {uid: html.unescape(name) for uid, name in _LIFELINE.findall(svg)}
    notes, groups, boxes = 0, set(), 0
    for tag, attrs in _ELEMENT.findall(svg):
        if _NOTE_MARK in attrs:
            notes += tag != "path" or attrs.count(" L") == 5
        elif _GROUP_MARK in attrs and tag == "rect":
            groups.add(_GEOMETRY.sub("", attrs))
        elif _BOX_MARK in attrs and tag == "rect":
            boxes += 1
    return {
        "diagram_type": kind.group(1) if kind else None,
        "participants": list(names.values()),
        "messages": [(names.get(a, a), names.get(b, b)) for a, b in _MESSAGE.findall(svg)],
        "notes": notes,
        "groups": len(groups),
        "boxes": boxes,
    }
