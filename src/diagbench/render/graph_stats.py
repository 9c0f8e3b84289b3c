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

#: Added after each `@startuml`: note borders get a thickness no diagram uses.
GRAPH_MARKERS = ("skinparam NoteBorderThickness 0.31",)
_NOTE_MARK = "stroke-width:0.31;"
_GROUP = re.compile(r'<g class="(entity|start_entity|end_entity|link|cluster)"')
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
    out = []
    for line in source.split("\n"):
        out.append(line)
        if line.strip().lower().startswith("@startuml"):
            out.extend(GRAPH_MARKERS)
    return "\n".join(out)


def graph_statistics(svg: str) -> dict[str, object]:
    """{"diagram_type", "entities", "relations", "clusters", "notes"} as PlantUML drew
    them (notes told apart only in a diagram rendered from `mark_graph`'s source)."""
    kind = _DIAGRAM_TYPE.search(svg)
    stats: dict[str, object] = {"diagram_type": kind.group(1).lower() if kind else None}
    counts = {"entities": 0, "relations": 0, "clusters": 0, "notes": 0}
    starts = list(_GROUP.finditer(svg))
    for k, m in enumerate(starts):
        css = m.group(1)
        if css == "link":
            counts["relations"] += 1
        elif css == "cluster":
            counts["clusters"] += 1
        else:
            end = starts[k + 1].start() if k + 1 < len(starts) else len(svg)
            body = svg[m.end():end]
            counts["notes" if _NOTE_MARK in body else "entities"] += 1
    stats.update(counts)
    return stats
