"""Paired comparison of two models on the same files (paper 000, footnote 3: "statistically
significant … at p < .05", per component)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

RESAMPLES = 10_000


@dataclass(frozen=True, slots=True)
class PairedTest:
    """Model A minus model B on `n` paired values.

    `mean_difference` = mean(a − b); [`ci_low`, `ci_high`] its 95 % percentile
    bootstrap interval; `statistic` and `p_value` those of the two-sided
    Wilcoxon signed-rank test (zero differences dropped; exact distribution
    for small samples without ties). With no non-zero difference the test is
    undefined: statistic None, p-value 1.
    """

    n: int
    mean_difference: float | None
    ci_low: float | None
    ci_high: float | None
    statistic: float | None
    p_value: float | None

    def as_dict(self) -> dict:
        return {"n": self.n, "mean_difference": self.mean_difference, "ci_low": self.ci_low,
                "ci_high": self.ci_high, "wilcoxon_statistic": self.statistic,
                "p_value": self.p_value}


def paired_test(a: Sequence[float], b: Sequence[float], resamples: int = RESAMPLES,
                seed: int = 0) -> PairedTest:
    """Wilcoxon signed-rank test and bootstrap interval of mean(a − b).

    Example: differences 1, 2, 3, 4, 5, −6 have signed-rank sums W+ = 15 and
    W− = 6; the statistic is min(W+, W−) = 6 and the exact two-sided p-value
    2 · 14/64 = 0.4375 (14 of the 64 sign patterns give W+ ≤ 6).
    """
    if len(a) != len(b):
        raise ValueError(f"paired samples differ in length: {len(a)} and {len(b)}")
    diff = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    n = len(diff)
    if n == 0:
        return PairedTest(0, None, None, None, None, None)
    rng = np.random.default_rng(seed)
    means = diff[rng.integers(0, n, size=(resamples, n))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    statistic, p_value = None, 1.0
    if np.any(diff != 0):
        test = stats.wilcoxon(diff, zero_method="wilcox", alternative="two-sided")
        statistic, p_value = float(test.statistic), float(test.pvalue)
    return PairedTest(n, float(diff.mean()), float(low), float(high), statistic,
                      p_value if not math.isnan(p_value) else None)
