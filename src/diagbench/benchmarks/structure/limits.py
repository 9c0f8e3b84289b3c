"""The node limits of the structure build's filter (paper 004 §3.3: "diagrams exceeding
predefined node limits, e.g. more than 15 classes, are removed"), per category.

The defaults are STRUDEL's own published limits — the `stats_limits` of its category
table (StructVis' `diagram_categories.json`, which STRUDEL's `filter_generations`
reads), for the FRL of each of its 20 categories — measured on diagbench's model of the
diagram (`measures`: its counts, its entities by kind, the code's length). STRUDEL
bounds a sum of a diagram's node types, each of them alone ("all"), one of them, or the
code's length; where diagbench's model counts otherwise, the nearest measure it gives:

- electrical circuit: each kind of component at most 10 (transistors: BJTs and MOSFETs
  together; STRUDEL's switches are not a kind diagbench counts), at least 1 component;
- digital hardware: each cell type at most 15 (diagbench reads Yosys' cells before
  mapping to gates, STRUDEL after), at least 1 cell;
- propositional logic: each kind of gate at most 12, at least 1 gate;
- quantum circuit: measurements and resets at most 12 each, at least 1 operation —
  STRUDEL's bound on each gate name (H, X, CX …) is **not applied**: diagbench's model
  counts gates, not gates by name;
- phylogenetic tree: 2 to 25 leaves; RNA structure: 5 to 100 bases;
- DNA sequences: at most 40 positions (STRUDEL: 40 letters per sequence on average;
  an alignment's positions count its gaps too) and sequences + positions at least 3
  (STRUDEL: sequences + letters);
- molecule: at least 2 characters of SMILES; reaction: at least 14;
- chart: 1 to 20 marks — the points of a one-trace chart (STRUDEL: a bar chart's bars,
  a pie's slices), else its traces (its series);
- Gantt chart: 1 to 35 time bars (tasks and milestones); table: 4 to 20 rows and columns
  together; and the counts diagbench gives as STRUDEL does: classes 1–15, messages 1–20,
  tables ≤ 13 with ≥ 1 reference, ops 3–16, pieces 1–32, notes 3–80, sequence flows
  1–30, mind-map nodes 2–110, knowledge-graph nodes 2–40.

STRUDEL sets no limit for maps, and has no category for use case, component, state and
flow charts in its benchmark: those — and any category added later — keep their
language's `node_limits` on its size measure (`Language.nodes`, source "language").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from diagbench.records import OMIT_EMPTY, Record


@dataclass(frozen=True, slots=True)
class Limit(Record):
    """Bounds on one measure of a diagram (inclusive; None: unbounded). `count` names it:
    a key of `measures`, "size" (its language's size measure, `Language.nodes`), or a
    name of its own for the measures `of` adds up — or, with `each`, bounds each one
    alone (a name in `of` ending with ":" stands for every measure starting with it);
    `source` says whose limit it is ("STRUDEL" or "language")."""

    count: str
    low: int | None
    high: int | None
    source: str = "STRUDEL"
    of: tuple[str, ...] = field(default=(), metadata=OMIT_EMPTY)
    each: bool = field(default=False, metadata=OMIT_EMPTY)

    def admits(self, n: int) -> bool:
        return (self.low is None or n >= self.low) and (self.high is None or n <= self.high)

    def measured(self, measures: Mapping[str, int], language: str) -> list[tuple[str, int]]:
        """(name, value) of each measure this limit bounds; a measure the model does not
        give is 0."""
        if self.count == "size":
            from diagbench.languages import named

            return [("size", named(language).nodes(measures))]
        if not self.of:
            return [(self.count, measures.get(self.count, 0))]
        keys = [k for k in measures if any(k == o or (o.endswith(":") and k.startswith(o))
                                           for o in self.of)]
        if self.each:
            return [(k, measures[k]) for k in keys]
        return [(self.count, sum(measures[k] for k in keys))]


_CIRCUIT_KINDS = ("resistors", "capacitors", "inductors", "diodes", "voltage_sources",
                  "current_sources")
_GATE_KINDS = ("and_gates", "or_gates", "xor_gates", "nand_gates", "xnor_gates", "nor_gates",
               "not_gates")
#: STRUDEL's published limits by category (its category table's `stats_limits`), on
#: diagbench's measures (`measures`).
STRUDEL_LIMITS: dict[str, tuple[Limit, ...]] = {
    "electrical-circuit": (Limit("each kind of component", None, 10, of=_CIRCUIT_KINDS,
                                 each=True),
                           Limit("transistors", None, 10, of=("bjts", "mosfets")),
                           Limit("components", 1, None)),
    "digital-hardware": (Limit("each cell type", None, 15, of=("cells:",), each=True),
                         Limit("cells", 1, None)),
    "propositional-logic": (Limit("each kind of gate", None, 12, of=_GATE_KINDS, each=True),
                            Limit("gates", 1, None)),
    "quantum-circuit": (Limit("each of measurements and resets", None, 12,
                              of=("measurements", "resets"), each=True),
                        Limit("operations", 1, None, of=("gates", "measurements", "resets"))),
    "phylogenetic-tree": (Limit("entities:leaf", 2, 25),),
    "dna-sequence": (Limit("positions", None, 40),
                     Limit("sequences and positions", 3, None, of=("sequences", "positions"))),
    "rna-structure": (Limit("bases", 5, 100),),
    "molecule": (Limit("characters", 2, None),),
    "reaction": (Limit("characters", 14, None),),
    "deep-learning": (Limit("ops", 3, 16),),
    "chess-board": (Limit("pieces", 1, 32),),
    "music": (Limit("notes", 3, 80),),
    "class": (Limit("entities", 1, 15),),
    "sequence": (Limit("messages", 1, 20),),
    "er": (Limit("entities", None, 13), Limit("relations", 1, None)),
    "business-process": (Limit("sequence_flows", 1, 30),),
    "gantt": (Limit("time bars", 1, 35, of=("tasks", "milestones")),),
    "mind-map": (Limit("nodes", 2, 110),),
    "knowledge-graph": (Limit("nodes", 2, 40),),
    "chart": (Limit("marks", 1, 20),),
    "table": (Limit("rows and columns", 4, 20, of=("rows", "columns")),),
}


def measures(counts: Mapping[str, int], statistics: Mapping[str, Any], code: str
             ) -> dict[str, int]:
    """What a limit can bound of a diagram: its model's `counts`, its entities by kind
    (`statistics["entities"]`, as "entities:KIND"), its code's length ("characters",
    stripped) and, of a chart, its marks (its points when it has one trace, else its
    traces)."""
    out = dict(counts)
    kinds = statistics.get("entities")
    if isinstance(kinds, Mapping):
        out |= {f"entities:{kind}": n for kind, n in kinds.items()}
    out["characters"] = len(code.strip())
    if "traces" in counts and "points" in counts:
        out["marks"] = counts["points"] if counts["traces"] == 1 else counts["traces"]
    return out


def limits_of(category: str, language: str) -> tuple[Limit, ...]:
    """The limits a diagram of `category` written in `language` is filtered by."""
    from diagbench.languages import named

    if category in STRUDEL_LIMITS:
        return STRUDEL_LIMITS[category]
    low, high = named(language).node_limits
    return (Limit("size", low, high, "language"),)


def outside(limits: tuple[Limit, ...], measured: Mapping[str, int], language: str
            ) -> str | None:
    """Why a diagram with these measures (`measures`) is outside `limits` ("messages 21
    > 20"), or None when inside."""
    for limit in limits:
        for name, n in limit.measured(measured, language):
            if not limit.admits(n):
                bound = f"< {limit.low}" if limit.low is not None and n < limit.low \
                    else f"> {limit.high}"
                return f"{name} {n} {bound}"
    return None
