"""An archqa run's scores as the robustness figures see them (`benchmarks.robustness`):
each question an outcome (1 right, 0 wrong by the run's scorer; a failed call wrong and
not from habit), its source diagram a twin's original diagram (an original's: its own)."""

from __future__ import annotations

from collections.abc import Sequence

from diagbench.benchmarks.archqa.records import ArchQAScore, diagram_of
from diagbench.benchmarks.robustness import Outcome, Robustness
from diagbench.benchmarks.robustness import robustness as figures


def outcomes(rows: Sequence[ArchQAScore]) -> list[Outcome]:
    """The scores of `rows` as outcomes."""
    return [Outcome(r.model, r.id, float(r.correct), r.twin, r.twin_of,
                    r.original or diagram_of(r.id), r.habit) for r in rows]


def robustness(rows: Sequence[ArchQAScore]) -> Robustness | None:
    """The robustness figures of one model's scores (None when no question is a
    twin's)."""
    return figures(outcomes(rows))
