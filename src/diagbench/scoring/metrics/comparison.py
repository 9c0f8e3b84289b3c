"""Comparing two runs on the samples both scored: the paired difference with its naive
and clustered intervals (`intervals`), the exact McNemar test for right/wrong scores, a
sign-flip permutation test over diagrams for continuous ones, and Holm's correction when
several comparisons are made at once.

Not in the papers; diagbench's answer to "is model A better than model B here?".
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from math import comb

from diagbench.scoring.metrics.intervals import RESAMPLES, Intervals, intervals

#: Up to this many diagrams with a non-zero difference, the permutation test is exact.
EXACT_CLUSTERS = 16


def mcnemar_exact(a_only: int, b_only: int) -> float:
    """Two-sided exact McNemar test: with b = items only A got right and c = items only B
    got right, under H₀ each of the b + c discordant items is A's with chance ½, so

        p = min(1, 2 · Σ_{k=0}^{min(b,c)} C(b+c, k) / 2^(b+c)).

    Compares models as 003_26afdd344a01d15b.txt §4.1 (Table 2) and
    000_30f6dc923c2b066d.txt §4 (footnote 3) do, paired on the same samples.

    Edge cases: no discordant item → 1.0; negative counts → ValueError.

    Example: b = 5, c = 1: 2 · (C(6,0) + C(6,1)) / 2⁶ = 2 · 7/64 = 0.21875.

    >>> mcnemar_exact(5, 1)
    0.21875
    >>> mcnemar_exact(0, 0)
    1.0
    """
    if a_only < 0 or b_only < 0:
        raise ValueError(f"negative counts: {a_only}, {b_only}")
    n = a_only + b_only
    if n == 0:
        return 1.0
    tail = sum(comb(n, k) for k in range(min(a_only, b_only) + 1))
    return min(1.0, 2 * tail / 2 ** n)


def sign_flip_test(differences: Sequence[float], clusters: Sequence[Hashable],
                   resamples: int = 10_000, seed: int = 0) -> float:
    """Two-sided permutation test of a zero paired difference, clustered: with D_g the
    sum of the differences dᵢ = aᵢ − bᵢ of diagram g and T = |Σ_g D_g|, under H₀ (A and
    B exchangeable on each diagram) every sign pattern of the D_g is equally likely, so
    p = #{patterns s : |Σ_g s_g·D_g| ≥ T} / #patterns. Exact (all 2^G patterns) up to
    `EXACT_CLUSTERS` diagrams with D_g ≠ 0, else estimated from `resamples` seeded
    random patterns as (1 + #{≥ T}) / (1 + resamples). With every item its own
    cluster it is the classic paired sign-flip (Fisher–Pitman) test.

    Compares models as 003_26afdd344a01d15b.txt §4.1 (Table 2) and
    000_30f6dc923c2b066d.txt §4 (footnote 3) do, paired on the same samples.

    Edge cases: no non-zero D_g → 1.0; lengths differ → ValueError.

    Example: D = 3, 1, −1 (T = 3): the 8 sums ±3 ±1 ±1 are 5, 3, 3, 1, −1, −3, −3, −5,
    six with |·| ≥ 3 → p = 6/8.

    >>> sign_flip_test([2, 1, 1, -1], "aabc")
    0.75
    """
    import numpy as np

    if len(differences) != len(clusters):
        raise ValueError(f"{len(differences)} differences for {len(clusters)} clusters")
    sums: dict[Hashable, float] = {}
    for d, g in zip(differences, clusters, strict=True):
        sums[g] = sums.get(g, 0.0) + float(d)
    d_g = np.asarray([v for v in sums.values() if v != 0])
    if not len(d_g):
        return 1.0
    observed = abs(d_g.sum()) - 1e-9 * np.abs(d_g).sum()  # ties count as extreme
    if len(d_g) <= EXACT_CLUSTERS:
        patterns = (np.arange(2 ** len(d_g))[:, None] >> np.arange(len(d_g))) & 1
        totals = ((1 - 2 * patterns) * d_g).sum(axis=1)
        return float((np.abs(totals) >= observed).mean())
    rng = np.random.default_rng(seed)
    signs = rng.choice((-1.0, 1.0), size=(resamples, len(d_g)))
    extreme = int((np.abs((signs * d_g).sum(axis=1)) >= observed).sum())
    return (1 + extreme) / (1 + resamples)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given: with the m p-values sorted
    p₍₁₎ ≤ … ≤ p₍ₘ₎, p̃₍ᵢ₎ = max_{j≤i} min(1, (m − j + 1) · p₍ⱼ₎). Rejecting where
    p̃ < α keeps the family-wise error rate at α (Holm 1979).

    Compares models as 003_26afdd344a01d15b.txt §4.1 (Table 2) and
    000_30f6dc923c2b066d.txt §4 (footnote 3) do, paired on the same samples.

    Edge cases: no p-value → [].

    Example: 0.01, 0.04, 0.03 → sorted 0.01·3 = 0.03, 0.03·2 = 0.06, max(0.06, 0.04·1)
    = 0.06 → 0.03, 0.06, 0.06.

    >>> [round(p, 6) for p in holm([0.01, 0.04, 0.03])]
    [0.03, 0.06, 0.06]
    """
    m = len(p_values)
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(sorted(range(m), key=lambda k: p_values[k])):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


@dataclass(frozen=True, slots=True)
class PairedDifference:
    """A − B on the `difference.n` items both scored: the mean difference with its
    intervals; for right/wrong scores the discordant counts (A only right, B only right);
    the test used ("mcnemar" or "sign-flip") and its two-sided p-value."""

    difference: Intervals
    a_mean: float | None
    b_mean: float | None
    a_only: int | None
    b_only: int | None
    test: str
    p_value: float

    def as_dict(self, scale: float = 1.0) -> dict:
        def num(v: float | None) -> float | None:
            return None if v is None else round(scale * v, 4)

        return {"a": num(self.a_mean), "b": num(self.b_mean)} | {
            "difference": self.difference.as_dict(scale), "a_only": self.a_only,
            "b_only": self.b_only, "test": self.test, "p_value": self.p_value}


def paired_difference(a: Sequence[float], b: Sequence[float], clusters: Sequence[Hashable],
                      resamples: int = RESAMPLES, seed: int = 0,
                      weights: Sequence[float] | None = None) -> PairedDifference:
    """dᵢ = aᵢ − bᵢ on paired items, its mean (with `weights`, the ratio Σd/Σw, e.g.
    errors over gold elements) with `intervals` (naive and clustered by `clusters`), and
    a two-sided test: when every aᵢ and bᵢ is 0 or 1 (and no weights), `mcnemar_exact`
    on the discordant items; otherwise `sign_flip_test` over the clusters.

    Compares models as 003_26afdd344a01d15b.txt §4.1 (Table 2) and
    000_30f6dc923c2b066d.txt §4 (footnote 3) do, paired on the same samples.

    Edge cases: no pair → means None, p-value 1.0; lengths differ → ValueError.

    Example: 2 diagrams × 3 questions; A right on two questions of the first, B on
    none: mean difference 2/6, A alone right on 2 questions and B on none, so McNemar
    p = 2 · C(2,0)/2² = 0.5.

    >>> r = paired_difference([1, 1, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0], "aaabbb")
    >>> round(r.difference.estimate, 4), r.a_only, r.b_only, r.test, r.p_value
    (0.3333, 2, 0, 'mcnemar', 0.5)
    """
    if not len(a) == len(b) == len(clusters):
        raise ValueError(f"{len(a)}, {len(b)} and {len(clusters)} values do not pair")
    diffs = [float(x) - float(y) for x, y in zip(a, b, strict=True)]
    total = len(diffs) if weights is None else sum(weights)
    mean_a, mean_b = (sum(a) / total, sum(b) / total) if total else (None, None)
    difference = intervals(diffs, clusters, resamples, seed, weights)
    if weights is None and all(v in (0, 1) for v in (*a, *b)):
        a_only = sum(x == 1 and y == 0 for x, y in zip(a, b, strict=True))
        b_only = sum(x == 0 and y == 1 for x, y in zip(a, b, strict=True))
        return PairedDifference(difference, mean_a, mean_b, a_only, b_only, "mcnemar",
                                mcnemar_exact(a_only, b_only))
    return PairedDifference(difference, mean_a, mean_b, None, None, "sign-flip",
                            sign_flip_test(diffs, clusters, seed=seed))
