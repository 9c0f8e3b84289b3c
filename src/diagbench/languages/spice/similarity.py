"""Image-to-code similarity of circuits (SPICE): graph F1 over the components (type and
value) and over their connections, whatever the nodes are named.

Both codes are read by the language's reader; what is scored is the top level, as the
schematic draws it. The predicted nodes are first matched to the gold ones by the
assignment (`scipy.optimize.linear_sum_assignment`) that maximises the agreement of
their signatures — the multiset of (type, value, pin) of the component pins on a node,
refined twice by the signatures of the nodes across each component (Weisfeiler–Lehman
rounds), summed over the rounds; ground is fixed to ground. Then the score is
`metrics.image_to_code_score`: 𝟙[valid] · (F1 of the component multisets (type, value)
+ F1 of the connection multisets (type, the matched nodes in pin order; the two ends
of a resistor, capacitor or inductor unordered)) / 2. Component names and node names
are not scored (a schematic shows them, but a renamed node is the same circuit); a
prediction that does not read (an error) scores 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from diagbench.compare.graph import model_of
from diagbench.formats.parsed import Diagram, Parsed
from diagbench.languages.spice.model import GROUND, Circuit, Component
from diagbench.scoring import metrics

#: Letters whose two ends are interchangeable in the drawing.
UNORDERED = frozenset("rcl")
#: Weisfeiler–Lehman rounds that refine the node signatures.
ROUNDS = 2
#: The weight that pins ground to ground (above any agreement of signatures).
_FIXED = 1e9


def _role(c: Component, pin: int) -> int:
    return -1 if c.letter in UNORDERED else pin


def signatures(circuit: Circuit) -> list[dict[str, Counter[Hashable]]]:
    """Each round's signature of every node (see the module's docstring)."""
    nodes = circuit.nodes()
    labels: dict[str, Hashable] = dict.fromkeys(nodes, "")
    rounds = []
    for _ in range(ROUNDS + 1):
        signature: dict[str, Counter[Hashable]] = {n: Counter() for n in nodes}
        for c in circuit.components:
            for pin, node in enumerate(c.nodes):
                across = tuple(sorted(str(labels[n]) for k, n in enumerate(c.nodes)
                                      if k != pin)) if c.letter in UNORDERED else \
                    tuple(str(labels[n]) for n in c.nodes)
                signature[node][(c.letter, c.value, _role(c, pin), across)] += 1
        rounds.append(signature)
        labels = {n: hash(tuple(sorted(map(repr, signature[n].elements())))) for n in nodes}
    return rounds


def match_nodes(gold: Circuit, pred: Circuit) -> dict[str, str]:
    """Predicted node → gold node, by the assignment that maximises the agreement of
    their signatures (ground to ground); unmatched predicted nodes are left out."""
    from scipy.optimize import linear_sum_assignment

    gold_nodes, pred_nodes = gold.nodes(), pred.nodes()
    if not gold_nodes or not pred_nodes:
        return {}
    gold_rounds, pred_rounds = signatures(gold), signatures(pred)
    weights = [[_agreement(g, p, gold_rounds, pred_rounds) for g in gold_nodes]
               for p in pred_nodes]
    rows, cols = linear_sum_assignment(weights, maximize=True)
    return {pred_nodes[r]: gold_nodes[c] for r, c in zip(rows, cols, strict=True)
            if (pred_nodes[r] == GROUND) == (gold_nodes[c] == GROUND)}


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


def _circuit(parsed: Parsed[Diagram] | None) -> tuple[Circuit | None, tuple[str, ...]]:
    model, _, warnings = model_of(parsed)
    if warnings or not isinstance(model, Circuit):
        return None, warnings or ("no circuit",)
    return model, ()


def compare_circuits(gold_read: Parsed[Diagram], pred_read: Parsed[Diagram] | None,
                     valid: bool) -> CircuitComparison:
    """Compare a predicted netlist with its gold one (both read by the SPICE reader)."""
    gold, _ = _circuit(gold_read)
    pred, warnings = _circuit(pred_read)
    if gold is None or pred is None:
        return CircuitComparison(False, 0.0, 0.0, gold.counts() if gold else {},
                                 pred.counts() if pred else {}, warnings)
    names = match_nodes(gold, pred)
    gold_names = {n: n for n in gold.nodes()}
    return CircuitComparison(
        valid, _f1(components(gold), components(pred)),
        _f1(connections(gold, gold_names), connections(pred, names)),
        gold.counts(), pred.counts(), warnings)
