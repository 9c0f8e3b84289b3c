"""Standard errors and 95 % bootstrap intervals of a mean (or a ratio of sums), naive and
clustered by source diagram.

Questions about the same diagram are not independent (SADU asks about 15.8 per diagram,
STRUDEL several per sample): a model that misreads a diagram tends to miss all of its
questions, so the naive formulas, which treat every question as a fresh draw, are too
narrow. The clustered ones treat the diagram as the unit that was sampled.

With n items yᵢ (weights wᵢ, 1 for a plain mean) in G clusters g, the estimate
R = Σ yᵢ / Σ wᵢ (the mean ȳ when every wᵢ = 1):

- cluster-robust standard error (the sandwich estimator with the small-sample factor
  G/(G−1), e.g. Cameron & Miller 2015, "A practitioner's guide to cluster-robust
  inference", §II.C; for a mean, SE² = (G/(G−1)) · Σ_g (Σ_{i∈g}(yᵢ − ȳ))² / n²):

      SE_cl² = (G/(G−1)) · Σ_g (Σ_{i∈g}(yᵢ − R·wᵢ))² / (Σᵢ wᵢ)²

- naive standard error: the same with every item its own cluster (G = n), which for a
  mean is the textbook s/√n (n/(n−1) · Σ(yᵢ−ȳ)²/n² = s²/n);
- naive bootstrap: the 2.5th and 97.5th percentiles (linear interpolation) of R over
  `resamples` resamples of the n items with replacement;
- cluster bootstrap: the same percentiles over resamples of the G clusters with
  replacement, each drawn cluster bringing all its items (R* = Σ y over the drawn
  clusters / Σ w over them).

Resampling is seeded (numpy PCG64), so a summary is the same on every machine.
Not in the papers; diagbench's uncertainty of their means (accuracy, validity, scores).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

RESAMPLES = 2_000

Interval = tuple[float, float]


def _check(values: Sequence[float], other: Sequence | Any, what: str) -> None:
    if len(values) != len(other):
        raise ValueError(f"{len(values)} values for {len(other)} {what}")


def cluster_standard_error(values: Sequence[float], clusters: Sequence[Hashable],
                           weights: Sequence[float] | None = None) -> float | None:
    """SE_cl = √((G/(G−1)) · Σ_g (Σ_{i∈g}(yᵢ − R·wᵢ))² / (Σ wᵢ)²), R = Σy/Σw (see the
    module's docstring); for a mean (no weights) SE² = (G/(G−1)) Σ_g (Σ_{i∈g}(yᵢ−ȳ))²/n².

    Why clustered: 003_26afdd344a01d15b.txt §2 (Table 1: 2,431 questions on 154
    diagrams, 15.8 each) and 004_34f8485b6a3a0424.txt §3.4 (several tasks per sample).

    Edge cases: fewer than two clusters, or Σw = 0 → None (undefined); lengths
    differ → ValueError.

    Example: 3 diagrams × 2 questions, right/wrong 1 1 | 0 0 | 1 0: ȳ = ½, cluster
    residual sums 1, −1, 0 → SE² = (3/2) · 2 / 36 = 1/12.

    >>> round(cluster_standard_error([1, 1, 0, 0, 1, 0], "aabbcc") ** 2, 6)
    0.083333
    """
    _check(values, clusters, "clusters")
    w = [1.0] * len(values) if weights is None else list(weights)
    _check(values, w, "weights")
    total = sum(w)
    groups: dict[Hashable, float] = {}
    if not total:
        return None
    ratio = sum(values) / total
    for y, wi, g in zip(values, w, clusters, strict=True):
        groups[g] = groups.get(g, 0.0) + y - ratio * wi
    g_count = len(groups)
    if g_count < 2:
        return None
    return (g_count / (g_count - 1) * sum(r * r for r in groups.values())) ** 0.5 / total


def standard_error(values: Sequence[float], weights: Sequence[float] | None = None
                   ) -> float | None:
    """The naive SE: `cluster_standard_error` with every item its own cluster; for a
    mean, s/√n = √(Σ(yᵢ − ȳ)² / (n(n−1))). Reported beside the clustered one for data
    such as 003_26afdd344a01d15b.txt §2 (Table 1: 2,431 questions on 154 diagrams).

    Edge cases: fewer than two items → None.

    >>> round(standard_error([1, 0, 1, 0]) ** 2, 6)  # s² = 1/3, s²/n = 1/12
    0.083333
    """
    return cluster_standard_error(values, range(len(values)), weights)


def bootstrap_interval(values: Sequence[float], resamples: int = RESAMPLES, seed: int = 0,
                       weights: Sequence[float] | None = None) -> Interval | None:
    """The naive 95 % percentile bootstrap interval of R = Σy/Σw: items resampled with
    replacement (`cluster_bootstrap_interval` with every item its own cluster).
    Reported beside the clustered one for data such as 003_26afdd344a01d15b.txt §2.

    Edge cases: no item → None.

    Example: two items 0 and 1 — a resample's mean is 0, ½ or 1 with chances ¼, ½, ¼,
    so the 2.5th percentile is 0 and the 97.5th is 1.

    >>> bootstrap_interval([0, 1])
    (0.0, 1.0)
    """
    return cluster_bootstrap_interval(values, range(len(values)), resamples, seed, weights)


def cluster_bootstrap_interval(values: Sequence[float], clusters: Sequence[Hashable],
                               resamples: int = RESAMPLES, seed: int = 0,
                               weights: Sequence[float] | None = None) -> Interval | None:
    """The 95 % percentile cluster bootstrap interval of R = Σy/Σw: each of `resamples`
    rounds draws G clusters with replacement and takes Σy/Σw over the items of the drawn
    clusters; the interval is the 2.5th and 97.5th percentiles of those R*.

    Why clustered: 003_26afdd344a01d15b.txt §2 (Table 1: 2,431 questions on 154
    diagrams, 15.8 each) and 004_34f8485b6a3a0424.txt §3.4 (several tasks per sample).

    Edge cases: no item → None; a resample whose Σw is 0 is left out (none left → None);
    lengths differ → ValueError.

    Example: 3 diagrams × 2 questions with cluster means 1, 0, ½: R* is the mean of three
    drawn cluster means; all three draws are the 0 diagram with chance 1/27 ≈ 3.7 %
    > 2.5 %, so the low end is 0, and by symmetry the high end is 1.

    >>> cluster_bootstrap_interval([1, 1, 0, 0, 1, 0], "aabbcc")
    (0.0, 1.0)
    """
    import numpy as np

    _check(values, clusters, "clusters")
    w = np.ones(len(values)) if weights is None else np.asarray(weights, dtype=float)
    _check(values, w, "weights")
    if not len(values):
        return None
    index: dict[Hashable, int] = {}
    ids = np.asarray([index.setdefault(g, len(index)) for g in clusters])
    sums = np.bincount(ids, weights=np.asarray(values, dtype=float), minlength=len(index))
    sizes = np.bincount(ids, weights=w, minlength=len(index))
    rng = np.random.default_rng(seed)
    drawn = rng.integers(0, len(index), size=(resamples, len(index)))
    numerator, denominator = sums[drawn].sum(axis=1), sizes[drawn].sum(axis=1)
    kept = denominator != 0
    if not kept.any():
        return None
    low, high = np.percentile(numerator[kept] / denominator[kept], [2.5, 97.5])
    return float(low), float(high)


@dataclass(frozen=True, slots=True)
class Intervals:
    """An estimate over `n` items in `clusters` clusters, with its naive and clustered
    standard errors and 95 % bootstrap intervals (`intervals`)."""

    n: int
    clusters: int
    estimate: float | None
    se: float | None
    se_clustered: float | None
    ci95: Interval | None
    ci95_clustered: Interval | None

    def as_dict(self, scale: float = 1.0, digits: int = 4) -> dict:
        """The JSON of a summary, values multiplied by `scale` (100: percent)."""
        def num(v: float | None) -> float | None:
            return None if v is None else round(scale * v, digits)

        def pair(ci: Interval | None) -> list[float | None] | None:
            return None if ci is None else [num(ci[0]), num(ci[1])]

        return {"n": self.n, "clusters": self.clusters, "estimate": num(self.estimate),
                "se": num(self.se), "se_clustered": num(self.se_clustered),
                "ci95": pair(self.ci95), "ci95_clustered": pair(self.ci95_clustered)}


def intervals(values: Sequence[float], clusters: Sequence[Hashable],
              resamples: int = RESAMPLES, seed: int = 0,
              weights: Sequence[float] | None = None) -> Intervals:
    """R = Σy/Σw (the mean without weights) with `standard_error`,
    `cluster_standard_error`, `bootstrap_interval` and `cluster_bootstrap_interval`.

    Why clustered: 003_26afdd344a01d15b.txt §2 (Table 1: 2,431 questions on 154
    diagrams, 15.8 each) and 004_34f8485b6a3a0424.txt §3.4 (several tasks per sample).

    Edge cases: no item → estimate and every interval None; Σw = 0 → estimate None.

    Example: 3 diagrams × 2 questions, 1 1 | 0 0 | 1 0: mean ½; naive SE √(1/20)
    (s² = 3/10, n = 6); clustered SE √(1/12).

    >>> r = intervals([1, 1, 0, 0, 1, 0], "aabbcc")
    >>> r.n, r.clusters, r.estimate, round(r.se ** 2, 6), round(r.se_clustered ** 2, 6)
    (6, 3, 0.5, 0.05, 0.083333)
    """
    _check(values, clusters, "clusters")
    total = len(values) if weights is None else sum(weights)
    return Intervals(len(values), len(set(clusters)), sum(values) / total if total else None,
                     standard_error(values, weights),
                     cluster_standard_error(values, clusters, weights),
                     bootstrap_interval(values, resamples, seed, weights),
                     cluster_bootstrap_interval(values, clusters, resamples, seed, weights))
