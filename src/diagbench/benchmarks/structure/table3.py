"""STRUDEL's Table 3 and Fig. 1 (paper 004 §5.2) from a model's structure scores: the
overall score, one column per task type and one per domain, each a mean over its tasks
with its intervals clustered by source diagram; and the same per task type × category ×
FRL cell.

Each task counts as STRUDEL's evaluation counts it: a question 100 when answered right
and 0 otherwise (a failed call, an unusable image or an unreadable answer: 0), an
image-to-code task its score × 100 (0 when the code does not render); a column is the
mean over its tasks. Example: a software diagram asked an identification question
(right), a quantification question (wrong) and image-to-code (score 0.8), and a
chemistry diagram asked an association (right) and a structural question (wrong):
overall (100 + 0 + 80 + 100 + 0) / 5 = 56, identification 100, quantification 0,
software (100 + 0 + 80) / 3 = 60, chemistry 50; the overall's clustered SE is
√((2/1) · (0.12² + 0.12²) / 5²) × 100 = 4.8 (cluster residual sums ±0.12).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from diagbench.benchmarks.intervals import metric_intervals
from diagbench.benchmarks.protocol import SampleValue
from diagbench.benchmarks.structure.records import Accuracy, StructureScore
from diagbench.benchmarks.structure.taxonomy import TASK_TYPES

#: Table 3's heading of each task type's column.
TYPE_TITLES = {"identification": "Identification", "quantification": "Quantification",
               "structural_analysis": "Structural", "association": "Association",
               "image_to_code": "Code translation"}
OVERALL = "Overall"


def columns() -> tuple[str, ...]:
    """Table 3's columns: Overall, the five task types, the domains (in the table's
    order)."""
    from diagbench.languages import domain_titles

    return (OVERALL, *(TYPE_TITLES[t] for t in TASK_TYPES), *domain_titles())


def task_value(r: StructureScore) -> float:
    """What one task counts in Table 3, 0 to 1: an image-to-code task its score, a
    question 1 when right (a failure: 0)."""
    if r.task == "image_to_code":
        return r.score or 0.0
    return 1.0 if r.correct else 0.0


def _columns_of(r: StructureScore) -> Iterable[str]:
    yield OVERALL
    yield TYPE_TITLES.get(r.task_type, r.task_type)
    if r.domain:
        yield r.domain


def table3(rows: list[StructureScore], sample_of: Any) -> dict[str, dict[str, Any]]:
    """Column → its intervals (`benchmarks.intervals.metric_intervals`, in %: estimate,
    n, clusters, SE naive and clustered, 95 % bootstrap intervals), for the columns that
    have a task, in `columns()` order (`sample_of`: a task id's source diagram)."""
    values: dict[str, list[SampleValue]] = {}
    for r in rows:
        for column in _columns_of(r):
            values.setdefault(column, []).append(
                SampleValue(r.model, column, r.id, sample_of(r.id), task_value(r)))
    order = [c for c in columns() if c in values] + sorted(set(values) - set(columns()))
    return {c: metric_intervals(values[c], 100) for c in order}


def table3_cells(rows: list[StructureScore]) -> dict[str, Accuracy]:
    """"task type|category|FRL" → the mean of its tasks (`task_value`, in %), sorted."""
    cells: dict[str, list[float]] = {}
    for r in rows:
        cells.setdefault(f"{r.task_type}|{r.category}|{r.language}", []).append(
            task_value(r))
    return {k: Accuracy(len(v), round(100 * sum(v) / len(v), 2))
            for k, v in sorted(cells.items())}
