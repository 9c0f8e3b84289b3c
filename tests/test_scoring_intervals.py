"""Naive and clustered intervals and the paired tests, against numbers worked out by hand
on 3 diagrams × 5 questions (`scoring.metrics.intervals`, `scoring.metrics.comparison`)."""

from __future__ import annotations

import pytest

from diagbench.scoring.metrics import (
    cluster_bootstrap_interval,
    holm,
    intervals,
    mcnemar_exact,
    paired_difference,
    sign_flip_test,
)

#: Diagram D1: 4 of 5 right, D2: 1 of 5, D3: 3 of 5 — 8 of 15 right, ȳ = 8/15.
RIGHT = [1, 1, 1, 1, 0, 1, 0, 0, 0, 0, 1, 1, 1, 0, 0]
DIAGRAMS = ["D1"] * 5 + ["D2"] * 5 + ["D3"] * 5


def test_standard_errors_by_hand():
    r = intervals(RIGHT, DIAGRAMS)
    assert (r.n, r.clusters) == (15, 3)
    assert r.estimate == pytest.approx(8 / 15)
    # naive: Σ(yᵢ − ȳ)² = 8·(7/15)² + 7·(8/15)² = 840/225 = 56/15; SE² = that / (15·14)
    # = 4/225, SE = 2/15
    assert r.se == pytest.approx(2 / 15)
    # clustered: residual sums per diagram 4 − 8/3 = 4/3, 1 − 8/3 = −5/3, 3 − 8/3 = 1/3;
    # squares 16/9 + 25/9 + 1/9 = 14/3; SE² = (3/2) · (14/3) / 15² = 7/225, SE = √7/15
    assert r.se_clustered == pytest.approx(7 ** 0.5 / 15)
    assert r.se_clustered > r.se  # D1 and D2 differ: the questions are not independent


def test_cluster_bootstrap_by_hand():
    # equal-size diagrams: R* is the mean of 3 drawn diagram means (0.8, 0.2, 0.6); all
    # three draws are D2 with chance 1/27 ≈ 3.7 % > 2.5 % (and D1 likewise), so the
    # interval is [0.2, 0.8] exactly
    assert cluster_bootstrap_interval(RIGHT, DIAGRAMS, resamples=10_000) == (0.2, 0.8)
    assert intervals(RIGHT, DIAGRAMS).ci95_clustered == pytest.approx((0.2, 0.8))


def test_naive_bootstrap_is_narrower_than_clustered():
    r = intervals(RIGHT, DIAGRAMS)
    assert r.ci95 is not None and r.ci95_clustered is not None
    assert r.ci95[1] - r.ci95[0] < r.ci95_clustered[1] - r.ci95_clustered[0]
    assert r.ci95[0] < 8 / 15 < r.ci95[1]


def test_seeded_resampling_is_reproducible_and_seed_dependent():
    values = [0.1 * (i % 7) for i in range(40)]
    clusters = [i // 4 for i in range(40)]
    assert cluster_bootstrap_interval(values, clusters, seed=3) == \
        cluster_bootstrap_interval(values, clusters, seed=3)
    assert cluster_bootstrap_interval(values, clusters, seed=3) != \
        cluster_bootstrap_interval(values, clusters, seed=4)


def test_ratio_clustered_standard_error_by_hand():
    # errors over elements in 2 files: 1/4 and 3/4 → R = 4/8 = ½; residuals
    # 1 − ½·4 = −1 and 3 − ½·4 = 1; SE² = (2/1)·(1 + 1)/8² = 1/16
    r = intervals([1, 3], ["a", "b"], weights=[4, 4])
    assert r.estimate == 0.5
    assert r.se_clustered == pytest.approx(0.25)
    assert r.as_dict(scale=100)["se_clustered"] == 25.0


def test_as_dict_scales_to_percent():
    d = intervals(RIGHT, DIAGRAMS).as_dict(scale=100, digits=2)
    assert d["estimate"] == 53.33 and d["se"] == 13.33 and d["se_clustered"] == 17.64
    assert d["ci95_clustered"] == [20.0, 80.0]
    assert (d["n"], d["clusters"]) == (15, 3)


def test_paired_difference_by_hand():
    # A is RIGHT; B is right on D1's first two questions, D2's first, D3's first three:
    # A alone right on D1 q3, q4 (2), B alone right nowhere → McNemar p = 2 · 1/2² = 0.5
    b = [1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 1, 0, 0]
    r = paired_difference(RIGHT, b, DIAGRAMS)
    assert (r.a_only, r.b_only, r.test) == (2, 0, "mcnemar")
    assert r.p_value == 0.5
    assert r.difference.estimate == pytest.approx(2 / 15)
    # differences 0 0 1 1 0 | 0 … | 0 …: all in D1 → per-diagram sums 2, 0, 0 → the
    # clustered SE: residuals 2 − 5·(2/15) = 4/3, −2/3, −2/3; Σ² = 24/9; SE² = (3/2)·(24/9)
    # / 225 = 4/225
    assert r.difference.se_clustered == pytest.approx(2 / 15)
    assert (r.a_mean, r.b_mean) == (pytest.approx(8 / 15), pytest.approx(6 / 15))


def test_paired_difference_of_scores_uses_the_clustered_sign_flip():
    # per-diagram sums of a − b: 0.5 + 0.5 = 1, 0.25, −0.25 → T = 1; the 8 sums
    # ±1 ±0.25 ±0.25: 1.5, 1, 1, 0.5, −0.5, −1, −1, −1.5 → 6 with |·| ≥ 1 → p = 0.75
    a = [0.5, 0.5, 0.75, 0.25]
    b = [0.0, 0.0, 0.5, 0.5]
    r = paired_difference(a, b, ["x", "x", "y", "z"])
    assert (r.test, r.a_only, r.b_only) == ("sign-flip", None, None)
    assert r.p_value == 0.75


def test_mcnemar_and_holm_by_hand():
    # b = 5, c = 1: 2 · (1 + 6)/64
    assert mcnemar_exact(5, 1) == 14 / 64
    assert mcnemar_exact(1, 5) == 14 / 64
    # b = 10, c = 0: 2 / 1024
    assert mcnemar_exact(10, 0) == 2 / 1024
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.2, 0.01]) == pytest.approx([0.2, 0.02])


def test_sign_flip_estimates_beyond_the_exact_limit():
    # 20 diagrams all +1: the exact p would be 2/2²⁰; the estimate is (1 + k)/(1 + R) with
    # k the patterns as extreme among R random ones — none, almost surely, at R = 999
    assert sign_flip_test([1.0] * 20, range(20), resamples=999) == 1 / 1000
    # 11 diagrams at +1 and one at −1, exact (2¹² patterns), T = 10: flipping k of the
    # +1's and the −1 or not (j = 1, 0) gives 11 − 2k + (2j − 1); ≥ 10 for k = 0 (j = 0
    # or 1: 2 patterns) and k = 1 with j = 1 (11 patterns): 13; their mirrors ≤ −10: 13
    assert sign_flip_test([1.0] * 11 + [-1.0], range(12)) == 26 / 4096


def test_gap_interval_clustered_by_hand():
    from diagbench.scoring.metrics import gap_interval_clustered

    # one cell; conform answers: d1 right twice, d2 wrong once; conflict: d1, d2 wrong.
    # Two diagrams drawn with replacement: (d1, d1) ¼ → 100 − 0; (d2, d2) ¼ → 0 − 0;
    # mixed ½ → 2/3 right → 66.7 − 0. Percentiles 2.5 and 97.5: 0 and 100; the Δ*'s
    # standard deviation: mean 58.33, variance ¼·41.67² + ¼·58.33² + ½·8.33² = 1319.4,
    # SD 36.3
    conform = [[("d1", True), ("d1", True), ("d2", False)]]
    conflict = [[("d1", False), ("d2", False)]]
    low, high, se = gap_interval_clustered(conform, conflict, resamples=10_000)
    assert (low, high) == (0.0, 100.0)
    assert se == pytest.approx(36.3, rel=0.03)
