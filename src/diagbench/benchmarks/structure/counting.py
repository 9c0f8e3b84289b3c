"""What a parsed diagram holds, counted: its statistics by kind (what the counting
questions of `tasks` ask about) and the totals checked against what the engine drew."""

from __future__ import annotations

from collections import Counter
from typing import Any

from diagbench.benchmarks.structure.records import Counts, Statistics


def statistics(parsed: Any) -> tuple[Statistics, Counts]:
    """(statistics by kind, counts checked against the engine) of a parsed diagram."""
    from diagbench.diagram.graph import GraphDiagram

    d = parsed.diagram
    if isinstance(d, GraphDiagram):
        stats: Statistics = {
            "entities": dict(sorted(Counter(e.kind for e in d.entities).items())),
            "relations": dict(sorted(Counter(r.type for r in d.relations).items())),
            "clusters": len(d.clusters), "notes": len(d.notes)}
        return stats, {"entities": len(d.entities), "relations": len(d.relations),
                       "clusters": len(d.clusters)}
    stats = {"participants": dict(sorted(Counter(p.kind for p in d.participants).items())),
             "messages": len(d.messages), "notes": len(d.notes), "groups": len(d.groups)}
    return stats, {"participants": len(d.participants), "messages": len(d.messages)}
