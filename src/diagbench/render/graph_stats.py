"""What PlantUML drew in a non-sequence diagram, read off its SVG: the oracle of the
graph readers (`diagbench.formats.plantuml.graph`).

PlantUML marks every drawn element with a `<g class="…">`: `entity` (also
`start_entity`/`end_entity` for the `[*]` pseudo-states of state diagrams),
`link`, `cluster`. Notes are `entity` groups too; `mark_graph` adds a
statement after `@startuml` that gives note borders a thickness no diagram
uses, so that `graph_statistics` can tell them apart. C4-PlantUML files
include their macros by URL or relative path; `map_c4_includes` points those
includes at the copy PlantUML ships as its stdlib (`<C4/…>`), which the
SANDBOX profile allows.
"""

from __future__ import annotations

import re

from diagbench.render.markers import mark

#: Added after each `@startuml`: note borders get a thickness no diagram uses.
GRAPH_MARKERS = ("skinparam NoteBorderThickness 0.31",)
_NOTE_MARK = "stroke-width:0.31;"
_GROUP = re.compile(r'<g class="(entity|start_entity|end_entity|link|cluster)"')
_LINK_ENDS = re.compile(r'data-entity-1="([^"]*)" data-entity-2="([^"]*)"')
_ID = re.compile(r'\bid="([^"]*)"')
_DIAGRAM_TYPE = re.compile(r'data-diagram-type="(\w+)"')
_C4_INCLUDE = re.compile(
    r"^(?P<indent>[ \t]*)!include(?:url)?[ \t]+(?P<path>[^\s<>]*?)"
    r"(?P<file>C4(?:_Context|_Container|_Component|_Deployment|_Dynamic|_Sequence)?)"
    r"\.puml[ \t]*$", re.M)


def map_c4_includes(source: str) -> str:
    """`source` with every `!include …/C4_X.puml` (URL, relative path or variable)
    replaced by PlantUML's stdlib copy `!include <C4/C4_X>`."""
    return _C4_INCLUDE.sub(lambda m: f"{m.group('indent')}!include <C4/{m.group('file')}>",
                           source)


def mark_graph(source: str) -> str:
    """`source` with GRAPH_MARKERS inserted after each `@startuml` line."""
    return mark(source, GRAPH_MARKERS)


def graph_statistics(svg: str) -> dict[str, object]:
    """{"diagram_type", "entities", "relations", "clusters", "notes"} as PlantUML drew
    them (notes told apart only in a diagram rendered from `mark_graph`'s source)."""
    kind = _DIAGRAM_TYPE.search(svg)
    stats: dict[str, object] = {"diagram_type": kind.group(1).lower() if kind else None}
    counts = {"entities": 0, "relations": 0, "clusters": 0, "notes": 0}
    starts = list(_GROUP.finditer(svg))
    notes: set[str] = set()
    links: list[tuple[str, str]] = []
    for k, m in enumerate(starts):
        css = m.group(1)
        end = starts[k + 1].start() if k + 1 < len(starts) else len(svg)
        tag = svg[m.start():svg.find(">", m.end()) + 1]
        if css == "link":
            ends = _LINK_ENDS.search(tag)
            links.append((ends.group(1), ends.group(2)) if ends else ("", ""))
        elif css == "cluster":
            counts["clusters"] += 1
        elif _NOTE_MARK in svg[m.end():end]:
            counts["notes"] += 1
            uid = _ID.search(tag)
            if uid:
                notes.add(uid.group(1))
        else:
            counts["entities"] += 1
    # a note's connector is drawn as a link too: it is part of the note
    # (state diagrams reuse entity ids in their SVG, and draw no link for a note)
    if stats["diagram_type"] == "state":
        notes = set()
    counts["relations"] = sum(1 for a, b in links if a not in notes and b not in notes)
    stats.update(counts)
    return stats
