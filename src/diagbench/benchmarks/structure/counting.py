"""What a parsed diagram holds, counted: its statistics by kind (what the counting
questions of `tasks` ask about) and the totals checked against what the engine drew."""

from __future__ import annotations

from collections import Counter
from typing import Any

from diagbench.benchmarks.structure.records import Counts, Statistics


def statistics(parsed: Any, software: bool = True) -> tuple[Statistics, Counts]:
    """(statistics by kind, counts checked against the engine) of a parsed diagram: of a
    software diagram its entities, relations and clusters (or participants and
    messages); of another domain's model (`software` False) every count it gives
    (`counts()`: atoms and rings, leaves, sequences and positions …)."""
    from diagbench.diagram.graph import GraphDiagram
    from diagbench.diagram.sequence import SequenceDiagram

    d = parsed.diagram
    stats: Statistics
    if isinstance(d, GraphDiagram):
        stats = {"entities": dict(sorted(Counter(e.kind for e in d.entities).items())),
                 "relations": dict(sorted(Counter(r.type for r in d.relations).items())),
                 "clusters": len(d.clusters), "notes": len(d.notes)}
        if not software:
            return stats, dict(d.counts())
        return stats, {"entities": len(d.entities), "relations": len(d.relations),
                       "clusters": len(d.clusters)}
    if isinstance(d, SequenceDiagram):
        stats = {"participants": dict(sorted(Counter(p.kind for p in d.participants).items())),
                 "messages": len(d.messages), "notes": len(d.notes), "groups": len(d.groups)}
        return stats, {"participants": len(d.participants), "messages": len(d.messages)}
    counts = dict(d.counts())
    return dict(counts), counts
