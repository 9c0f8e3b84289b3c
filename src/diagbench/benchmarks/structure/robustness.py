"""A structure run's scores as the robustness figures see them (`benchmarks.robustness`):
each question task an outcome (1 right, 0 wrong; a failed call wrong and not from
habit), its source diagram the twin's original sample. Image-to-code tasks are not
questions and do not count."""

from __future__ import annotations

from collections.abc import Sequence

from diagbench.benchmarks.robustness import Outcome, Robustness
from diagbench.benchmarks.robustness import robustness as figures
from diagbench.benchmarks.structure.records import StructureScore


def outcomes(rows: Sequence[StructureScore]) -> list[Outcome]:
    """The question tasks of `rows` as outcomes."""
    return [Outcome(r.model, r.id, float(bool(r.correct)), r.twin, r.twin_of,
                    str(r.original), r.habit)
            for r in rows if r.task != "image_to_code"]


def robustness(rows: Sequence[StructureScore]) -> Robustness | None:
    """The robustness figures of one model's scores (None when no question is a
    twin's)."""
    return figures(outcomes(rows))
