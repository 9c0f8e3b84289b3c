"""Read a PlantUML file: each block as a sequence diagram when it is one, else as a graph.

PlantUML tries its sequence-diagram reader first and keeps it when every
line is a sequence statement; so do we (`parse_sequence` and its
`guess_kind`); the other blocks go to `plantuml.graph`.
"""

from __future__ import annotations

from diagbench.formats.read import Parsed


def read_plantuml(text: str) -> list[Parsed]:
    """One `Parsed` per `@start… @end…` block of `text`."""
    from diagbench.formats.plantuml.graph import parse_graph
    from diagbench.formats.plantuml.sequence import parse_sequence

    sequences = parse_sequence(text)
    graphs: list[Parsed] | None = None
    out = []
    for parsed in sequences:
        if parsed.kind in ("sequence", "empty") or parsed.kind not in (
                "class", "state", "usecase", "component", "object", "unknown", "activity"):
            out.append(Parsed(parsed.index, parsed.first_line, "plantuml", parsed.kind,
                              parsed.diagram, parsed.diagnostics))
            continue
        if graphs is None:
            graphs = parse_graph(text)
        out.append(graphs[parsed.index])
    return out
