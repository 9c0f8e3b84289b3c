"""Image-to-code similarity of Boolean expressions: the share of truth-table rows in
which the predicted circuit's outputs agree with the gold ones — 1.0 exactly when the
truth tables are equal, however the expression is written or drawn.

Both codes are read by the language's reader; a prediction that does not read without
error, or does not render, scores 0. Outputs are paired: with one output each, those
two (whatever their names); otherwise by name, then the rest in file order. A pair
scores the share of rows of its truth table over the union of the two expressions'
variables in which both give the same value: a variable only one side has doubles the
rows, and the side without it gives the same value in both halves (`a and b` against
`a and c`: 8 rows, 6 agree, 0.75). The score is the sum of the pairs' scores over the
larger number of outputs, so an output missing or extra scores 0 (half adder `S`, `C`
against `S` alone: 0.5). A pair over more than `MAX_UNION` variables together (2ᶰ rows)
is not tabulated and scores 0 with a warning.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from diagbench.formats.parsed import Diagram, Parsed
from diagbench.languages.logic.model import Circuit, Output, column, terminals
from diagbench.scoring import metrics

#: The most variables two paired outputs may have together (a table of 2²⁰ rows).
MAX_UNION = 20


@dataclass(frozen=True, slots=True)
class PairScore:
    """One gold output and the predicted output paired with it ("" when none): the
    variables of their table and the rows in which they agree."""

    gold: str
    pred: str | None
    variables: int
    agreeing: int

    @property
    def score(self) -> float:
        return self.agreeing / (1 << self.variables) if self.pred is not None else 0.0


@dataclass(frozen=True, slots=True)
class LogicComparison:
    """The comparison of a predicted circuit with the gold one."""

    valid: bool
    pairs: tuple[PairScore, ...]
    outputs: int  # the larger number of outputs
    gold_counts: dict[str, int] = field(default_factory=dict)
    pred_counts: dict[str, int] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    kind = "logic"

    @property
    def score(self) -> float:
        if not self.valid or not self.outputs:
            return 0.0
        return sum(p.score for p in self.pairs) / self.outputs

    @property
    def exact(self) -> bool:
        return self.valid and self.score == 1.0

    @property
    def counts_score(self) -> float:
        return metrics.strudel_count_score(self.valid, self.gold_counts, self.pred_counts)

    def as_dict(self) -> dict[str, Any]:
        return {"status": "ok", "kind": self.kind, "valid": self.valid,
                "score": round(self.score, 6), "exact": self.exact,
                "counts_score": round(self.counts_score, 6),
                "outputs": [{"gold": p.gold, "pred": p.pred, "variables": p.variables,
                             "agreeing_rows": p.agreeing, "score": round(p.score, 6)}
                            for p in self.pairs],
                "warnings": list(self.warnings)}


def pair_outputs(gold: Circuit, pred: Circuit) -> list[tuple[Output, Output | None]]:
    """Each gold output with its predicted one (see the module), None when none is left."""
    if len(gold.outputs) == 1 and len(pred.outputs) == 1:
        return [(gold.outputs[0], pred.outputs[0])]
    named = {o.name: o for o in pred.outputs if o.name}
    taken = {o.name for o in gold.outputs} & set(named)
    rest = [o for o in pred.outputs if o.name not in taken]
    out: list[tuple[Output, Output | None]] = []
    for output in gold.outputs:
        if output.name in taken:
            out.append((output, named[output.name]))
        else:
            out.append((output, rest.pop(0) if rest else None))
    return out


def agreeing_rows(gold: Output, pred: Output) -> tuple[int, int]:
    """(variables, agreeing rows) of two outputs' truth tables over their variables
    together (ValueError over `MAX_UNION` variables)."""
    variables = sorted({t.name for o in (gold, pred) for t in terminals(o.gate)
                        if not t.constant})
    if len(variables) > MAX_UNION:
        raise ValueError(f"{len(variables)} variables together, over the {MAX_UNION} "
                         "tabulated")
    full = (1 << (1 << len(variables))) - 1
    same = full ^ (column(gold.gate, variables) ^ column(pred.gate, variables))
    return len(variables), same.bit_count()


def compare_circuits(gold_read: Parsed[Diagram], pred_read: Parsed[Diagram] | None,
                     valid: bool) -> LogicComparison:
    """Compare a predicted Boolean expression with its gold one (both read by its
    language's reader)."""
    gold = gold_read.diagram if not gold_read.errors else None
    if pred_read is None or pred_read.errors or not isinstance(pred_read.diagram, Circuit):
        why = tuple(str(d) for d in pred_read.errors[:3]) if pred_read else ("no circuit",)
        return LogicComparison(False, (), 0, gold.counts() if isinstance(gold, Circuit) else {},
                               {}, why or ("no circuit",))
    pred = pred_read.diagram
    if not isinstance(gold, Circuit):
        return LogicComparison(False, (), 0, {}, pred.counts(), ("the gold does not read",))
    pairs, warnings = [], []
    for gold_output, pred_output in pair_outputs(gold, pred):
        if pred_output is None:
            pairs.append(PairScore(gold_output.name, None, 0, 0))
            continue
        try:
            variables, agreeing = agreeing_rows(gold_output, pred_output)
        except ValueError as exc:
            warnings.append(f"output {gold_output.name or 1}: {exc}")
            variables, agreeing = 0, 0
        pairs.append(PairScore(gold_output.name, pred_output.name, variables, agreeing))
    return LogicComparison(valid, tuple(pairs), max(len(gold.outputs), len(pred.outputs)),
                           gold.counts(), pred.counts(), tuple(warnings))
