"""Markers: PlantUML statements added after each `@startuml` so that the SVG tells apart
elements PlantUML draws without a class of their own (each kind gets a line thickness no
diagram uses). `graph_stats.GRAPH_MARKERS` and `svg_stats.SEQUENCE_MARKERS` are the two
sets; `mark` inserts either."""

from __future__ import annotations


def mark(source: str, markers: tuple[str, ...]) -> str:
    """`source` with `markers` inserted after each `@startuml` line.

    >>> mark("@startuml\\nA -> B\\n@enduml", ("skinparam X 1",))
    '@startuml\\nskinparam X 1\\nA -> B\\n@enduml'
    """
    out = []
    for line in source.split("\n"):
        out.append(line)
        if line.strip().lower().startswith("@startuml"):
            out.extend(markers)
    return "\n".join(out)
