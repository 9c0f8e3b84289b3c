"""Every metric of diagbench as a pure function over plain values (counts, sequences of
bools or floats), one module per family:

- `components`: paper 000's component error rates (Table 2), per-file error rate, its
  mean ± standard error per script-length bin (Fig. 6–7), message ordering and label
  similarity;
- `prior_bias`: paper 002's EM, RelAcc, conflict gap Δ, its bootstrap interval and the
  prerequisite check;
- `paired`: the paired Wilcoxon test and bootstrap interval comparing two models.

Each docstring gives the formula, the paper file and section (in ``../shared/papers/``),
the edge cases and a worked example (run as a doctest). numpy and scipy are imported by
the functions that need them, so importing this package is cheap.

`METRICS` lists them all; the tests check each one against its edge cases.
"""

from __future__ import annotations

from collections.abc import Callable

from diagbench.scoring.metrics.components import (
    LENGTH_BINS,
    by_length,
    error_rate,
    length_bin,
    mean_label_similarity,
    mean_standard_error,
    ordering_score,
    rate,
)
from diagbench.scoring.metrics.paired import PairedTest, paired_test
from diagbench.scoring.metrics.prior_bias import (
    EM_THRESHOLD,
    PRIOR_FREE_THRESHOLD,
    Prerequisite,
    cell_average,
    conflict_gap,
    exact_match,
    gap_interval,
    mean_gap,
    prerequisite,
    rel_acc,
)

#: Every metric, by name.
METRICS: dict[str, Callable] = {
    "rate": rate,
    "error_rate": error_rate,
    "ordering_score": ordering_score,
    "mean_label_similarity": mean_label_similarity,
    "mean_standard_error": mean_standard_error,
    "by_length": by_length,
    "exact_match": exact_match,
    "rel_acc": rel_acc,
    "cell_average": cell_average,
    "conflict_gap": conflict_gap,
    "mean_gap": mean_gap,
    "gap_interval": gap_interval,
    "prerequisite": prerequisite,
    "paired_test": paired_test,
}

__all__ = ["EM_THRESHOLD", "LENGTH_BINS", "METRICS", "PRIOR_FREE_THRESHOLD", "PairedTest",
           "Prerequisite", "by_length", "cell_average", "conflict_gap", "error_rate", "exact_match",
           "gap_interval", "length_bin", "mean_gap", "mean_label_similarity",
           "mean_standard_error", "ordering_score", "paired_test", "prerequisite", "rate",
           "rel_acc"]
