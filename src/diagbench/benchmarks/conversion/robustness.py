"""A conversion run's scores as the robustness figures see them (`benchmarks.robustness`):
each image a model converted is an outcome whose value is 1 − its error rate by the
semantic method (errors over the ground truth's elements), clamped to [0, 1]; an image
not converted (a failed call, an unusable image) is worth 0. A counterfactual twin's
conversion is from habit when its script is closer to the ORIGINAL's ground truth than
to the twin's own: its error rate against the original's is the lower (`from_habit`).

Example: an original of 10 elements converted with 2 errors is worth 0.8; its
counterfactual twin (one participant renamed) converted with 3 errors against the
twin's ground truth and 1 against the original's is worth 0.7, a paired difference of
−10 points, and from habit (0.1 < 0.3).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from diagbench.benchmarks.conversion.records import SCORED, Conversion, ConversionScore
from diagbench.benchmarks.robustness import Outcome, Robustness
from diagbench.benchmarks.robustness import robustness as figures
from diagbench.compare.counts import Comparison
from diagbench.compare.methods import Method
from diagbench.compare.pair import compare_scripts
from diagbench.compare.report import FileResult
from diagbench.scoring import metrics

#: The comparison the robustness figures read, and their measure in words.
METHOD: Method = "semantic"
MEASURE = "score (1 − semantic error rate)"


def error_rate(comparison: Comparison) -> float:
    """Errors over the ground truth's elements (`scoring.metrics.rate`; an empty ground
    truth: 0 without errors, else 1)."""
    found = metrics.rate(comparison.errors, comparison.gold_elements)
    return float(comparison.errors > 0) if found is None else found


def value(result: FileResult) -> float:
    """1 − the error rate, clamped to [0, 1] (0 when not compared)."""
    if result.comparison is None:
        return 0.0
    return min(1.0, max(0.0, 1.0 - error_rate(result.comparison)))


def from_habit(record: Conversion, result: FileResult, original_gold: Path | None
               ) -> bool | None:
    """Of a counterfactual twin's conversion compared by `METHOD` (None for any other):
    whether its script's error rate against the original's ground truth is lower than
    against the twin's; a conversion not compared (a failed call, an unusable image)
    is not from habit."""
    if record.twin is None or record.twin.family != "counterfactual":
        return None
    if record.status not in SCORED or result.comparison is None or original_gold is None:
        return False
    script = Path(record.script).read_text(encoding="utf-8") if record.script else ""
    to_original = compare_scripts(original_gold.read_text(encoding="utf-8"), script, METHOD)
    return error_rate(to_original) < error_rate(result.comparison)


def outcomes(rows: Sequence[ConversionScore]) -> list[Outcome]:
    """The `METHOD` scores of `rows` as outcomes, a twin's paired with its original (its
    source diagram)."""
    return [Outcome(s.model, s.record.name, value(s.result),
                    s.record.twin.family if s.record.twin else None, s.record.twin_of,
                    s.record.twin_of or s.record.name, s.habit)
            for s in rows if s.method == METHOD]


def robustness(rows: Sequence[ConversionScore]) -> Robustness | None:
    """The robustness figures of one model's scores (None when no image is a twin's)."""
    return figures(outcomes(rows))
