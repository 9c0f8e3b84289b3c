"""A prior-bias run's scores as the robustness figures see them
(`benchmarks.robustness`): each answered instance × scale an outcome (1 right, 0
wrong), a twin's paired with its original's at the same scale, its source diagram the
original's. A failed call is left out, as it is of RelAcc (a pair whose other half
failed is not paired)."""

from __future__ import annotations

from collections.abc import Sequence

from diagbench.benchmarks.prior_bias.generate import diagram_of
from diagbench.benchmarks.prior_bias.records import PriorBiasScore
from diagbench.benchmarks.robustness import Outcome, Robustness
from diagbench.benchmarks.robustness import robustness as figures


def outcomes(rows: Sequence[PriorBiasScore]) -> list[Outcome]:
    """The answered records of `rows` as outcomes."""
    return [Outcome(r.model, f"{r.id}@{r.scale}", float(r.correct), r.twin,
                    None if r.twin_of is None else f"{r.twin_of}@{r.scale}",
                    diagram_of(r.twin_of or r.id), r.habit)
            for r in rows if r.status == "ok"]


def robustness(rows: Sequence[PriorBiasScore]) -> Robustness | None:
    """The robustness figures of one model's scores (None when none is a twin's)."""
    return figures(outcomes(rows))
