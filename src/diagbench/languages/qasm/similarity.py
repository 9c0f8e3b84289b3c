"""Image-to-code similarity of quantum circuits (OpenQASM 2): the per-wire gate-sequence
similarity, and 1 when the two circuits are the same operator (small circuits).

Both codes are read by the language's reader. Each wire — qubit k (0, 1, … across the
quantum registers in declaration order), then classical bit k — has the sequence of
the operations on it in program order, each item (name, parameters rounded to 3
decimals, the position of this wire among the operation's qubits, the operation's
other qubits, its classical bits, its condition's value). Register names are labels,
not compared (`q[2]` and `r[2]` are the same wire when both are the third qubit);
operations on disjoint wires may be written in any order. A wire's similarity is the
normalised edit distance of its two sequences (`metrics.sequence_similarity`:
1 − d / max(|g|, |p|), 1 when both are empty); a wire only one circuit has scores 0.

    wires = 𝟙[valid] · (Σ over the union of wires of the wire's similarity) / #wires

Operator equivalence: when both circuits have the same number of qubits, at most
`MAX_OPERATOR_QUBITS` (8), and at most `MAX_OPERATOR_GATES` gates once their defined
gates are expanded, their only non-unitary operations are measurements at the end (no
gate, reset or condition after a measurement on its qubit or bit, no reset, no
condition), and every gate has a matrix (no `opaque` gate), the score is 1 when the
unitary parts (the measurements left out) are the same operator up to global phase
(`qiskit.quantum_info.Operator.equiv`) and the two circuits measure the same qubits
into the same classical bits (as multisets of (qubit, bit) pairs); otherwise the
score is the wires' score. A circuit with a mid-circuit measurement, a reset or a
condition is scored by its wires only. A prediction that does not read scores 0.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from diagbench.compare.graph import model_as
from diagbench.formats.parsed import Diagram, Parsed
from diagbench.languages.qasm.model import Circuit, Operation
from diagbench.scoring import metrics

MAX_OPERATOR_QUBITS = 8
MAX_OPERATOR_GATES = 2_000

Item = tuple[Any, ...]


def wire_sequences(circuit: Circuit) -> list[tuple[Item, ...]]:
    """Each wire's items (see the module): the qubits', then the classical bits'."""
    qubits: list[list[Item]] = [[] for _ in range(circuit.num_qubits)]
    clbits: list[list[Item]] = [[] for _ in range(circuit.num_clbits)]
    for op in circuit.operations:
        condition = op.condition.value if op.condition else None
        params = tuple(round(p, 3) + 0.0 for p in op.params)
        for position, q in enumerate(op.qubits):
            others = op.qubits[:position] + op.qubits[position + 1:]
            qubits[q].append((op.name, params, position, others, op.clbits, condition))
        for c in op.clbits:
            clbits[c].append((op.name, params, op.qubits, condition))
        if op.condition:
            for c in _register_bits(circuit, op.condition.register):
                if c not in op.clbits:
                    clbits[c].append(("if", condition, op.name, op.qubits))
    return [tuple(s) for s in qubits] + [tuple(s) for s in clbits]


def _register_bits(circuit: Circuit, name: str) -> range:
    start = 0
    for register in circuit.cregs:
        if register.name == name:
            return range(start, start + register.size)
        start += register.size
    return range(0)


def wire_similarity(gold: Circuit, pred: Circuit) -> float:
    """The mean of the wires' similarities (see the module; qubits and classical bits
    matched by index, a wire only one side has scoring 0). Both without wires: 1."""
    def split(c: Circuit) -> tuple[list[tuple[Item, ...]], list[tuple[Item, ...]]]:
        wires = wire_sequences(c)
        return wires[:c.num_qubits], wires[c.num_qubits:]

    total, n = 0.0, 0
    for g, p in zip(split(gold), split(pred), strict=True):
        for k in range(max(len(g), len(p))):
            n += 1
            if k < len(g) and k < len(p):
                total += metrics.sequence_similarity(g[k], p[k])
    return total / n if n else 1.0


def _terminal_measurements(circuit: Circuit) -> tuple[list[Operation], Counter[Any]] | None:
    """(the unitary operations, the (qubit, bit) pairs measured) of a circuit whose only
    non-unitary operations are measurements at the end; None for another."""
    measured_qubits: set[int] = set()
    measured_bits: set[int] = set()
    unitary, pairs = [], Counter[Any]()
    for op in circuit.operations:
        if op.condition or op.name == "reset":
            return None
        if op.name == "measure":
            measured_qubits.add(op.qubits[0])
            measured_bits.update(op.clbits)
            pairs[(op.qubits[0], op.clbits[0])] += 1
        elif op.name != "barrier":
            if measured_qubits & set(op.qubits):
                return None
            unitary.append(op)
    return unitary, pairs


def expanded_gates(circuit: Circuit) -> int:
    """How many gates the circuit applies once each defined gate is replaced by its body
    (recursively; a gate of the standard library counts 1)."""
    sizes: dict[str, int] = {}
    for definition in circuit.definitions:
        body = [s.split("(")[0].split()[0] for s in definition.body.split(";") if s.strip()]
        sizes[definition.name] = sum(sizes.get(name, 1) for name in body
                                     if name != "barrier") or 1
    return sum(sizes.get(op.name, 1) for op in circuit.operations if op.is_gate)


def same_operator(gold: Circuit, pred: Circuit) -> bool:
    """Whether the two circuits are the same operator with the same final measurements
    (see the module); False where that is not decided."""
    if gold.num_qubits != pred.num_qubits or gold.num_qubits > MAX_OPERATOR_QUBITS:
        return False
    gold_parts, pred_parts = _terminal_measurements(gold), _terminal_measurements(pred)
    if gold_parts is None or pred_parts is None or gold_parts[1] != pred_parts[1]:
        return False
    if any(expanded_gates(c) > MAX_OPERATOR_GATES for c in (gold, pred)):
        return False
    from dataclasses import replace

    from qiskit.exceptions import QiskitError  # type: ignore[import-untyped]
    from qiskit.quantum_info import Operator  # type: ignore[import-untyped]

    from diagbench.languages.qasm.read import QISKIT_LOCK, QasmError, load

    with QISKIT_LOCK:
        operators = []
        for circuit, (unitary, _) in ((gold, gold_parts), (pred, pred_parts)):
            try:
                qc, _ = load(replace(circuit, operations=tuple(unitary), cregs=()).qasm())
                operators.append(Operator(qc))
            except (QasmError, QiskitError, ValueError, TypeError):
                return False  # an opaque gate has no matrix
        return bool(operators[0].equiv(operators[1]))


@dataclass(frozen=True, slots=True)
class CircuitComparison:
    """The comparison of a predicted circuit with the gold one."""

    valid: bool
    wires: float
    equivalent: bool  # the same operator, decided where the wires differ
    gold_counts: dict[str, int] = field(default_factory=dict)
    pred_counts: dict[str, int] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    kind = "quantum"

    @property
    def score(self) -> float:
        if not self.valid:
            return 0.0
        return 1.0 if self.equivalent else self.wires

    @property
    def counts_score(self) -> float:
        return metrics.strudel_count_score(self.valid, self.gold_counts, self.pred_counts)

    def as_dict(self) -> dict[str, Any]:
        return {"status": "ok", "kind": self.kind, "valid": self.valid,
                "wires": round(self.wires, 6), "equivalent": self.equivalent,
                "score": round(self.score, 6), "counts_score": round(self.counts_score, 6),
                "warnings": list(self.warnings)}


def compare_circuits(gold_read: Parsed[Diagram], pred_read: Parsed[Diagram] | None,
                     valid: bool) -> CircuitComparison:
    """Compare a predicted OpenQASM 2 circuit with its gold one (both read by its
    language's reader)."""
    gold, _ = model_as(gold_read, Circuit, "circuit")
    pred, warnings = model_as(pred_read, Circuit, "circuit")
    if gold is None or pred is None:
        return CircuitComparison(False, 0.0, False, gold.counts() if gold else {},
                                 pred.counts() if pred else {}, warnings)
    wires = wire_similarity(gold, pred)
    equivalent = wires < 1.0 and valid and same_operator(gold, pred)
    return CircuitComparison(valid, wires, equivalent, gold.counts(), pred.counts(),
                             warnings)
