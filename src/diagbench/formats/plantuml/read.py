"""Read a PlantUML file: each block as a sequence diagram when it is one, else as a graph.

PlantUML tries its sequence-diagram reader first and keeps it when every
line is a sequence statement; so do we (`parse_sequence` and its
`guess_kind`): a block with a line the sequence reader refuses goes to
`plantuml.graph` when that reads every line, as do the other blocks. A C4-PlantUML
sequence diagram is read by the sequence reader, its macros as the statements they stand
for (`c4_sequence`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from diagbench.diagram.graph import GraphDiagram
from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.parsed import Diagram, Parsed
from diagbench.formats.plantuml.c4_sequence import as_sequence, is_c4_sequence

#: Statements only description and class diagrams accept: a direction inside the arrow
#: (`-up->`, `.l.>`), a socket end (`-(`, `)-`), or a layout direction (`left to right
#: direction`, which PlantUML's sequence reader has no command for). A block holding one
#: is not a sequence diagram, whatever our sequence reader made of it.
_GRAPH_ONLY = re.compile(
    r"^[ \t]*\S+[ \t]*\S*[-.](?:\[[^\]\n]*\])?(?i:up|down|left|right|le|ri|do|u|d|l|r)"
    r"(?:\[[^\]\n]*\])?[-.]|^[ \t]*\S+[ \t]*[-.]+\([ \t]|^[ \t]*\S+[ \t]*\)[-.]"
    r"|^[ \t]*(?i:left[ \t]+to[ \t]+right|top[ \t]+to[ \t]+bottom)[ \t]+(?i:direction)\b",
    re.M)
_BLOCK = re.compile(r"^[ \t]*@startuml\b.*?(?:^[ \t]*@enduml\b|\Z)", re.M | re.S | re.I)


def read_plantuml(text: str) -> list[Parsed[Diagram]]:
    """One `Parsed` per `@start… @end…` block of `text`."""
    from diagbench.formats.plantuml.graph import parse_graph
    from diagbench.formats.plantuml.sequence import parse_sequence

    # C4-PlantUML's sequence macros stand for sequence statements (`c4_sequence`)
    sequences = parse_sequence(as_sequence(text) if is_c4_sequence(text) else text)
    graphs: list[Parsed[GraphDiagram]] | None = None
    out: list[Parsed[Diagram]] = []
    blocks = [m.group(0) for m in _BLOCK.finditer(text)]
    for parsed in sequences:
        graph_only = parsed.kind == "sequence" and parsed.index < len(blocks) and \
            _GRAPH_ONLY.search(blocks[parsed.index]) is not None
        if not graph_only and (parsed.kind in ("sequence", "empty") or parsed.kind not in (
                "class", "state", "usecase", "component", "object", "unknown", "activity")):
            if parsed.kind == "sequence" and _has_errors(parsed.diagnostics):
                # a line the sequence reader refuses: PlantUML then tries the other
                # readers, and draws the block as a graph when one takes every line
                graphs = graphs if graphs is not None else parse_graph(text)
                if not _has_errors(graphs[parsed.index].diagnostics):
                    out.append(graphs[parsed.index])
                    continue
            out.append(parsed)
            continue
        if graphs is None:
            graphs = parse_graph(text)
        out.append(graphs[parsed.index])
    return out


def _has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.severity == "error" for d in diagnostics)
