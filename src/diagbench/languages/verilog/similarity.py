"""Image-to-code similarity of Verilog designs: graph F1 over the netlists Yosys makes
of them (`read_verilog; proc; opt`, Yosys's own normalisation), cells by type and the
connections between them, with a port match.

Each module is a graph: its ports (fixed by name and direction), its cells (labelled
by type) and the constants that drive pins, joined by one **connection** per driven
bit: (driver, its pin, the bit's offset in it) → (sink, its pin, offset), a driver
being an input or inout port or a cell's output pin, a sink a cell's input pin or an
output or inout port. Yosys's names of wires and of the cells it made (`$and$f.v:3$1`,
which change with the line) are not compared. Modules are matched by name (those left
over in order); the cells of two matched modules are matched within each type by
colour refinement (Weisfeiler–Lehman, from the ports outwards), then the cells left
unmatched by how many of their connections to nodes already matched agree (an
assignment, `linear_sum_assignment`).

With `c` the cells matched, `k` the connections that agree under that matching and
`q` the ports equal in name, direction and width:

    cells F1       = 2c / (|cells gold| + |cells pred|)
    connections F1 = 2k / (|connections gold| + |connections pred|)
    ports F1       = 2q / (|ports gold| + |ports pred|)
    score          = 𝟙[valid] · (cells F1 + connections F1 + ports F1) / 3

each F1 1 when both sides are empty. A prediction Yosys proves equivalent to the gold
design (`equivalence.proved_equivalent`: small single-module designs) scores 1 when
valid, however it is drawn. A prediction that does not read (a Yosys error)
or does not render scores 0.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from itertools import zip_longest
from typing import Any

from diagbench.compare.graph import model_of
from diagbench.formats.parsed import Diagram, Parsed
from diagbench.languages.verilog.equivalence import proved_equivalent
from diagbench.languages.verilog.model import Bit, Design, Module
from diagbench.scoring import metrics

Node = tuple[str, str]  # ("port", name), ("cell", index), ("const", value)
Connection = tuple[Node, str, int, Node, str, int]
#: Colour-refinement rounds.
ROUNDS = 6


def f1(agree: int, gold: int, pred: int) -> float:
    """2·agree / (gold + pred); 1 when both are empty."""
    return 1.0 if gold + pred == 0 else 2 * agree / (gold + pred)


@dataclass(frozen=True, slots=True)
class Graph:
    """A module as a graph: each node's label, and its connections."""

    labels: dict[Node, str]
    connections: frozenset[Connection]


def graph_of(module: Module) -> Graph:
    """The graph of a module (see the module's docstring)."""
    labels: dict[Node, str] = {}
    drivers: dict[Bit, list[tuple[Node, str, int]]] = defaultdict(list)
    sinks: list[tuple[Bit, Node, str, int]] = []
    for port in module.ports:
        node = ("port", port.name)
        labels[node] = f"port {port.direction} {port.name}"
        for k, bit in enumerate(port.bits):
            if port.direction in ("input", "inout"):
                drivers[bit].append((node, port.name, k))
            if port.direction in ("output", "inout"):
                sinks.append((bit, node, port.name, k))
    for n, cell in enumerate(module.cells):
        node = ("cell", str(n))
        labels[node] = cell.type
        for pin in cell.pins:
            for k, bit in enumerate(pin.bits):
                if pin.direction in ("output", "inout"):
                    drivers[bit].append((node, pin.name, k))
                if pin.direction in ("input", "inout"):
                    sinks.append((bit, node, pin.name, k))
    connections: set[Connection] = set()
    for bit, sink, name, k in sinks:
        sources = drivers.get(bit) or ([(("const", str(bit)), "", 0)]
                                       if isinstance(bit, str) else [])
        for source, source_pin, offset in sources:
            if source[0] == "const":
                labels[source] = f"const {bit}"
            connections.add((source, source_pin, offset, sink, name, k))
    return Graph(labels, frozenset(connections))


def _colours(graphs: tuple[Graph, Graph]) -> list[dict[Node, list[int]]]:
    """Each node's colour after each refinement round, both graphs coloured alike."""
    history: list[dict[Node, list[int]]] = [{}, {}]
    palette: dict[object, int] = {}
    current = []
    for side, graph in enumerate(graphs):
        colours = {n: palette.setdefault(("label", label), len(palette))
                   for n, label in graph.labels.items()}
        current.append(colours)
        for n, c in colours.items():
            history[side][n] = [c]
    for _ in range(ROUNDS):
        nxt = []
        for side, graph in enumerate(graphs):
            seen: dict[Node, list[tuple[Any, ...]]] = defaultdict(list)
            for a, pa, ka, b, pb, kb in graph.connections:
                seen[a].append(("out", pa, ka, pb, kb, current[side][b]))
                seen[b].append(("in", pb, kb, pa, ka, current[side][a]))
            nxt.append({n: palette.setdefault((c, tuple(sorted(seen[n]))), len(palette))
                        for n, c in current[side].items()})
        current = nxt
        for side in (0, 1):
            for n, c in current[side].items():
                history[side][n].append(c)
    return history


def _neighbours(graph: Graph, mapping: dict[Node, Node]) -> dict[Node, set[tuple[Any, ...]]]:
    """Each node's connections (direction, its pin and offset, the other's pin and
    offset, the other node as `mapping` names it; those of unmapped others left out, when
    a mapping is given)."""
    near: dict[Node, set[tuple[Any, ...]]] = defaultdict(set)
    for a, pa, ka, b, pb, kb in graph.connections:
        if not mapping or b in mapping:
            near[a].add(("out", pa, ka, pb, kb, mapping.get(b, b)))
        if not mapping or a in mapping:
            near[b].add(("in", pb, kb, pa, ka, mapping.get(a, a)))
    return near


def match_nodes(gold: Graph, pred: Graph) -> dict[Node, Node]:
    """A matching of pred's nodes to gold's of the same label (see the module's
    docstring)."""
    from scipy.optimize import linear_sum_assignment

    history = _colours((gold, pred))
    mapping: dict[Node, Node] = {}
    classes: dict[int, tuple[list[Node], list[Node]]] = defaultdict(lambda: ([], []))
    for side in (0, 1):
        for node in sorted(history[side]):
            classes[history[side][node][-1]][side].append(node)
    for golds, preds in classes.values():
        mapping.update(zip(preds, golds, strict=False))
    left_gold = [n for n in sorted(history[0]) if n not in set(mapping.values())]
    left_pred = [n for n in sorted(history[1]) if n not in mapping]
    if left_gold and left_pred:
        near_gold, near_pred = _neighbours(gold, {}), _neighbours(pred, mapping)
        score = [[1 + len(near_gold[g] & near_pred[p])
                  if gold.labels[g] == pred.labels[p] else 0 for g in left_gold]
                 for p in left_pred]
        rows, cols = linear_sum_assignment(score, maximize=True)
        mapping.update((left_pred[r], left_gold[c]) for r, c in zip(rows, cols, strict=True)
                       if score[r][c] > 0)
    return mapping


@dataclass(frozen=True, slots=True)
class ModuleScores:
    """Agreements and sizes of one pair of modules (or a module without a partner)."""

    cells: tuple[int, int, int] = (0, 0, 0)  # (agree, gold, pred)
    connections: tuple[int, int, int] = (0, 0, 0)


def compare_modules(gold: Module | None, pred: Module | None) -> ModuleScores:
    """Cells and connections of two matched modules (either None: unmatched)."""
    empty = Graph({}, frozenset())
    g = graph_of(gold) if gold else empty
    p = graph_of(pred) if pred else empty
    mapping = match_nodes(g, p) if gold and pred else {}
    cells = sum(1 for a, b in mapping.items() if a[0] == "cell")
    moved = {(mapping.get(a, ("unmatched", str(a))), pa, ka,
              mapping.get(b, ("unmatched", str(b))), pb, kb)
             for a, pa, ka, b, pb, kb in p.connections}
    return ModuleScores((cells, len(gold.cells) if gold else 0, len(pred.cells) if pred else 0),
                        (len(moved & g.connections), len(g.connections), len(p.connections)))


def module_pairs(gold: Design, pred: Design) -> list[tuple[Module | None, Module | None]]:
    """Modules matched by name, those left over in order."""
    names = {m.name for m in pred.modules}
    pairs: list[tuple[Module | None, Module | None]] = [
        (m, pred.module(m.name)) for m in gold.modules if m.name in names]
    left_gold = [m for m in gold.modules if pred.module(m.name) is None]
    left_pred = [m for m in pred.modules if gold.module(m.name) is None]
    return pairs + list(zip_longest(left_gold, left_pred))


@dataclass(frozen=True, slots=True)
class DesignComparison:
    """The comparison of a predicted design with the gold one."""

    valid: bool
    cells_f1: float
    connections_f1: float
    ports_f1: float
    equivalent: bool = False
    gold_counts: dict[str, int] = field(default_factory=dict)
    pred_counts: dict[str, int] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    kind = "hardware"

    @property
    def score(self) -> float:
        if not self.valid:
            return 0.0
        if self.equivalent:
            return 1.0
        return (self.cells_f1 + self.connections_f1 + self.ports_f1) / 3

    @property
    def counts_score(self) -> float:
        return metrics.strudel_count_score(self.valid, self.gold_counts, self.pred_counts)

    def as_dict(self) -> dict[str, Any]:
        return {"status": "ok", "kind": self.kind, "valid": self.valid,
                "cells_f1": round(self.cells_f1, 6),
                "connections_f1": round(self.connections_f1, 6),
                "ports_f1": round(self.ports_f1, 6), "equivalent": self.equivalent,
                "score": round(self.score, 6),
                "counts_score": round(self.counts_score, 6), "warnings": list(self.warnings)}


def _design(parsed: Parsed[Diagram] | None) -> tuple[Design | None, tuple[str, ...]]:
    model, _, warnings = model_of(parsed)
    if warnings or not isinstance(model, Design) or not model.modules:
        return None, warnings or ("no design",)
    return model, ()


def compare_designs(gold_read: Parsed[Diagram], pred_read: Parsed[Diagram] | None,
                    valid: bool) -> DesignComparison:
    """Compare a predicted Verilog design with its gold one (both read by Yosys)."""
    gold, _ = _design(gold_read)
    pred, warnings = _design(pred_read)
    if gold is None or pred is None:
        return DesignComparison(False, 0.0, 0.0, 0.0, False, gold.counts() if gold else {},
                                pred.counts() if pred else {}, warnings)
    totals: Counter[str] = Counter()
    for g, p in module_pairs(gold, pred):
        scores = compare_modules(g, p)
        for name, (agree, in_gold, in_pred) in (("cells", scores.cells),
                                                ("connections", scores.connections)):
            totals[name + " agree"] += agree
            totals[name + " gold"] += in_gold
            totals[name + " pred"] += in_pred
    gold_ports = Counter((m.name, p.name, p.direction, p.width)
                         for m in gold.modules for p in m.ports)
    pred_ports = Counter((m.name, p.name, p.direction, p.width)
                         for m in pred.modules for p in m.ports)
    cells = f1(totals["cells agree"], totals["cells gold"], totals["cells pred"])
    connections = f1(totals["connections agree"], totals["connections gold"],
                     totals["connections pred"])
    ports = f1(sum((gold_ports & pred_ports).values()), gold_ports.total(), pred_ports.total())
    equivalent = valid and min(cells, connections, ports) < 1.0 \
        and proved_equivalent(gold, pred)
    return DesignComparison(valid, cells, connections, ports, equivalent, gold.counts(),
                            pred.counts(), warnings)
