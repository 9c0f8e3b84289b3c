"""Image-to-code similarity of circuits (SPICE): graph F1 over the components (type and
value) and over their connections, whatever the nodes are named.

Both codes are read by the language's reader; what is scored is the top level, as the
schematic draws it. The predicted nodes are first matched to the gold ones by the
assignment (`scipy.optimize.linear_sum_assignment`) that maximises the agreement of
their signatures — the multiset of (type, value, pin) of the component pins on a node,
refined three times by the signatures of the nodes across each component (Weisfeiler–Lehman
rounds), summed over the rounds; ground is fixed to ground; where nodes tie (the
symmetric halves of a flip-flop), one is individualised and the signatures refined
again, then swaps of two nodes that raise the agreeing connections (circuits of over
`MAX_MATCHED` nodes are matched by node name). Then the score is
`metrics.image_to_code_score`: 𝟙[valid] · (F1 of the component multisets (type, value)
+ F1 of the connection multisets (type, the matched nodes in pin order; the two ends
of a resistor, capacitor or inductor unordered)) / 2. Component names and node names
are not scored (a schematic shows them, but a renamed node is the same circuit); a
prediction that does not read (an error) scores 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from diagbench.compare.graph import model_as
from diagbench.formats.parsed import Diagram, Parsed
from diagbench.languages.spice.model import GROUND, Circuit, Component
from diagbench.scoring import metrics

#: Letters whose two ends are interchangeable in the drawing.
UNORDERED = frozenset("rcl")
#: Weisfeiler–Lehman rounds that refine the node signatures.
ROUNDS = 3
#: The weight that pins ground to ground (above any agreement of signatures).
_FIXED = 1e9
#: Passes of pairwise swaps after the assignment (`_improved`).
MAX_PASSES = 3
#: Nodes individualised at most where signatures tie (`match_nodes`).
MAX_INDIVIDUALISED = 8
#: Nodes above which circuits are matched by node name alone (the assignment's cost
#: grows with the product of the node counts), and above which no swaps are tried.
MAX_MATCHED = 300
MAX_SWAPPED = 80


def _role(c: Component, pin: int) -> int:
    return -1 if c.letter in UNORDERED else pin


Rounds = list[dict[str, Counter[Hashable]]]


def signatures(circuit: Circuit, fixed: Mapping[str, str] | None = None
               ) -> tuple[Rounds, dict[str, Hashable]]:
    """Each round's signature of every node (see the module's docstring), and each
    node's label after the last round; `fixed` gives nodes a mark of their own (a node
    individualised, `match_nodes`)."""
    fixed = fixed or {}
    nodes = circuit.nodes()
    labels: dict[str, Hashable] = {n: fixed.get(n, "") for n in nodes}
    rounds = []
    for _ in range(ROUNDS + 1):
        signature: dict[str, Counter[Hashable]] = {n: Counter() for n in nodes}
        for n in fixed:
            signature[n][("fixed", fixed[n])] += 1
        for c in circuit.components:
            for pin, node in enumerate(c.nodes):
                across = tuple(sorted(str(labels[n]) for k, n in enumerate(c.nodes)
                                      if k != pin)) if c.letter in UNORDERED else \
                    tuple(str(labels[n]) for n in c.nodes)
                signature[node][(c.letter, c.value, _role(c, pin), across)] += 1
        rounds.append(signature)
        labels = {n: hash(tuple(sorted(map(repr, signature[n].elements())))) for n in nodes}
    return rounds, labels


def _assign(gold: Circuit, pred: Circuit, fixed: list[tuple[str, str]]
            ) -> tuple[dict[str, str], dict[str, Hashable]]:
    """The assignment maximising the agreement of signatures, the (pred, gold) pairs of
    `fixed` marked alike; and the predicted nodes' last labels."""
    from scipy.optimize import linear_sum_assignment

    gold_nodes, pred_nodes = gold.nodes(), pred.nodes()
    gold_rounds, _ = signatures(gold, {g: f"#{k}" for k, (_, g) in enumerate(fixed)})
    pred_rounds, labels = signatures(pred, {p: f"#{k}" for k, (p, _) in enumerate(fixed)})
    weights = [[_agreement(g, p, gold_rounds, pred_rounds) for g in gold_nodes]
               for p in pred_nodes]
    rows, cols = linear_sum_assignment(weights, maximize=True)
    names = {pred_nodes[r]: gold_nodes[c] for r, c in zip(rows, cols, strict=True)
             if (pred_nodes[r] == GROUND) == (gold_nodes[c] == GROUND)}
    return names, labels


def match_nodes(gold: Circuit, pred: Circuit) -> dict[str, str]:
    """Predicted node → gold node, by the assignment that maximises the agreement of
    their signatures (ground to ground); unmatched predicted nodes are left out. Where
    predicted nodes tie (the same label), one is individualised — fixed to the gold
    node it was given, both marked alike — and the signatures refined again, up to
    `MAX_INDIVIDUALISED` times while the connections do not all agree."""
    if not gold.nodes() or not pred.nodes():
        return {}
    if max(len(gold.nodes()), len(pred.nodes())) > MAX_MATCHED:
        return {n: n for n in pred.nodes() if n in set(gold.nodes())}
    wanted = connections(gold, {n: n for n in gold.nodes()})
    fixed: list[tuple[str, str]] = []
    names, labels = _assign(gold, pred, fixed)
    best, best_score = names, _agreeing(wanted, pred, names)
    for _ in range(MAX_INDIVIDUALISED):
        if best_score == sum(wanted.values()):
            break
        ties = Counter(labels.values())
        done = {p for p, _ in fixed}
        tied = [p for p in pred.nodes() if p != GROUND and p in names and p not in done
                and ties[labels[p]] > 1]
        if not tied:
            break
        fixed.append((tied[0], names[tied[0]]))
        names, labels = _assign(gold, pred, fixed)
        score = _agreeing(wanted, pred, names)
        if score > best_score:
            best, best_score = names, score
    return _improved(gold, pred, best)


def _improved(gold: Circuit, pred: Circuit, names: dict[str, str]) -> dict[str, str]:
    """`names` after swaps of two predicted nodes' gold nodes (or a move to a gold node
    left unmatched) while one raises the connections that agree: signatures tie
    between the nodes of symmetric halves (a flip-flop's two sides), where the
    assignment may pick the wrong one of equals. At most `MAX_PASSES` passes."""
    if max(len(gold.nodes()), len(pred.nodes())) > MAX_SWAPPED:
        return names
    wanted = connections(gold, {n: n for n in gold.nodes()})
    best = _agreeing(wanted, pred, names)
    movable = [n for n in pred.nodes() if n != GROUND]
    free = [n for n in gold.nodes() if n != GROUND and n not in names.values()]
    for _ in range(MAX_PASSES):
        if best == sum(wanted.values()):
            break
        improved = False
        for k, a in enumerate(movable):
            for b in [*movable[k + 1:], *free]:
                trial = dict(names)
                if b in movable:
                    trial[a], trial[b] = names.get(b, ""), names.get(a, "")
                else:
                    trial[a] = b
                trial = {p: g for p, g in trial.items() if g}
                score = _agreeing(wanted, pred, trial)
                if score > best:
                    best, names, improved = score, trial, True
                    free = [n for n in gold.nodes()
                            if n != GROUND and n not in names.values()]
        if not improved:
            break
    return names


def _agreeing(wanted: Counter[Hashable], pred: Circuit, names: dict[str, str]) -> int:
    return sum((wanted & connections(pred, names)).values())


def _agreement(g: str, p: str, gold: Sequence[dict[str, Counter[Hashable]]],
               pred: Sequence[dict[str, Counter[Hashable]]]) -> float:
    if (g == GROUND) != (p == GROUND):
        return -_FIXED
    shared = sum(sum((a[g] & b[p]).values()) for a, b in zip(gold, pred, strict=True))
    return shared + (_FIXED if g == GROUND else 0.0)


def connections(circuit: Circuit, names: dict[str, str]) -> Counter[Hashable]:
    """The multiset of (type, nodes) of the components, nodes renamed by `names` (a node
    without a name keeps its own, marked as unmatched)."""
    out: Counter[Hashable] = Counter()
    for c in circuit.components:
        nodes = tuple(names.get(n, "\0" + n) for n in c.nodes)
        out[(c.letter, tuple(sorted(nodes)) if c.letter in UNORDERED else nodes)] += 1
    return out


def components(circuit: Circuit) -> Counter[Hashable]:
    """The multiset of (type, value) of the components."""
    return Counter((c.letter, c.value) for c in circuit.components)


def _f1(gold: Counter[Hashable], pred: Counter[Hashable]) -> float:
    matched = sum((gold & pred).values())
    return metrics.set_f1(matched, sum(gold.values()), sum(pred.values()))[2]


@dataclass(frozen=True, slots=True)
class CircuitComparison:
    """The comparison of a predicted circuit with the gold one."""

    valid: bool
    component_f1: float
    connection_f1: float
    gold_counts: dict[str, int] = field(default_factory=dict)
    pred_counts: dict[str, int] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    kind = "circuit"

    @property
    def score(self) -> float:
        return metrics.image_to_code_score(self.valid, self.component_f1, self.connection_f1)

    @property
    def counts_score(self) -> float:
        return metrics.strudel_count_score(self.valid, self.gold_counts, self.pred_counts)

    def as_dict(self) -> dict[str, Any]:
        return {"status": "ok", "kind": "circuit", "valid": self.valid,
                "component_f1": round(self.component_f1, 6),
                "connection_f1": round(self.connection_f1, 6),
                "score": round(self.score, 6), "counts_score": round(self.counts_score, 6),
                "warnings": list(self.warnings)}


def compare_circuits(gold_read: Parsed[Diagram], pred_read: Parsed[Diagram] | None,
                     valid: bool) -> CircuitComparison:
    """Compare a predicted netlist with its gold one (both read by the SPICE reader)."""
    gold, _ = model_as(gold_read, Circuit, "circuit")
    pred, warnings = model_as(pred_read, Circuit, "circuit")
    if gold is None or pred is None:
        return CircuitComparison(False, 0.0, 0.0, gold.counts() if gold else {},
                                 pred.counts() if pred else {}, warnings)
    names = match_nodes(gold, pred)
    gold_names = {n: n for n in gold.nodes()}
    return CircuitComparison(
        valid, _f1(components(gold), components(pred)),
        _f1(connections(gold, gold_names), connections(pred, names)),
        gold.counts(), pred.counts(), warnings)
