"""The metrics of paper 003_26afdd344a01d15b.txt (SADU, architecture-diagram question
answering), §3.3: exact-match accuracy (§3.3.2, Eq. 1), token cost (Eq. 2), the counting
metrics Acc@±k, Bias and MAE (Eq. 3–5), the retrieval metrics Precision, Recall, F1,
EMRate, SubsetRate, SupersetRate, Missing and Spurious (Eq. 6–11); and, for comparing
models, a bootstrap interval on accuracy and a paired test on the same questions.

A prediction that could not be read is None: it is wrong for accuracy and Acc@±k, counts
as an empty set for the retrieval metrics, and is left out of MAE and Bias (which need a
number) but kept in the denominators of P(Bias>0) and P(Bias<0).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from diagbench.scoring.metrics.intervals import bootstrap_interval
from diagbench.scoring.metrics.paired import RESAMPLES, PairedTest, paired_test

EPSILON = 1e-9  # the ε of Eq. 6–7


def _check(predicted: Sequence, gold: Sequence) -> None:
    if len(predicted) != len(gold):
        raise ValueError(f"{len(predicted)} predictions for {len(gold)} gold answers")


def qa_accuracy(correct: Sequence[bool]) -> float | None:
    """Acc = 100 · (1/N) Σ EMᵢ, EMᵢ = 1 when Pᵢ = Gᵢ (003_26afdd344a01d15b.txt §3.3.2,
    Eq. 1), in percent.

    Edge cases: no question → None.

    >>> qa_accuracy([True, False, True, True])
    75.0
    """
    return 100.0 * sum(map(bool, correct)) / len(correct) if correct else None


def accuracy_by(groups: Sequence[str], correct: Sequence[bool]) -> dict[str, float]:
    """Acc (Eq. 1, 003_26afdd344a01d15b.txt §3.3.2) within each group — diagram type,
    subtype or difficulty (Tables 2 and Fig. 3) — in percent, groups sorted by name.

    Edge cases: no question → {}; `groups` and `correct` of different lengths →
    ValueError.

    >>> accuracy_by(["er", "er", "structural"], [True, False, False])
    {'er': 50.0, 'structural': 0.0}
    """
    _check(groups, correct)
    cells: dict[str, list[bool]] = {}
    for group, ok in zip(groups, correct, strict=True):
        cells.setdefault(group, []).append(ok)
    return {g: 100.0 * sum(v) / len(v) for g, v in sorted(cells.items())}


def tolerance_accuracy(predicted: Sequence[float | None], gold: Sequence[float], k: float
                       ) -> float | None:
    """Acc@±k = (1/N) Σ 𝕀(|ŷᵢ − yᵢ| ≤ k) (003_26afdd344a01d15b.txt §3.3.2, Eq. 3), a
    fraction as in Table 5; k = 0 is exact match. An unread prediction (None) is not
    within k.

    Edge cases: no question → None; lengths differ → ValueError.

    Example: gold 5, 5, 10, 3; predicted 6, 3, 10, None: |1| ≤ 1, |2| > 1, |0| ≤ 1,
    None → 2/4 = 0.5 at k = 1; at k = 2 also the second → 0.75.

    >>> tolerance_accuracy([6, 3, 10, None], [5, 5, 10, 3], 1)
    0.5
    >>> tolerance_accuracy([6, 3, 10, None], [5, 5, 10, 3], 2)
    0.75
    """
    _check(predicted, gold)
    if not gold:
        return None
    return sum(p is not None and abs(p - g) <= k for p, g in zip(predicted, gold, strict=True)
               ) / len(gold)


def mean_absolute_error(predicted: Sequence[float | None], gold: Sequence[float]
                        ) -> float | None:
    """MAE = (1/N) Σ |ŷᵢ − yᵢ| over the read predictions
    (003_26afdd344a01d15b.txt §3.3.2, Eq. 5; Table 4).

    Edge cases: no read prediction → None; lengths differ → ValueError.

    >>> mean_absolute_error([6, 3, 10, None], [5, 5, 10, 3])
    1.0
    """
    _check(predicted, gold)
    diffs = [abs(p - g) for p, g in zip(predicted, gold, strict=True) if p is not None]
    return sum(diffs) / len(diffs) if diffs else None


@dataclass(frozen=True, slots=True)
class CountBias:
    """Bias (mean signed error over the read predictions), the shares of all N
    questions over- and under-counted, and N."""

    bias: float | None
    p_over: float | None
    p_under: float | None
    n: int


def count_bias(predicted: Sequence[float | None], gold: Sequence[float]) -> CountBias:
    """Bias = (1/N) Σ (ŷᵢ − yᵢ) over the read predictions, P(Bias>0) = #{ŷᵢ > yᵢ}/N and
    P(Bias<0) = #{ŷᵢ < yᵢ}/N over all N questions (003_26afdd344a01d15b.txt §3.3.2,
    Eq. 4; Table 6 — SADU's analysis divides the shares by all N too).

    Edge cases: no question → all None, n 0; no read prediction → bias None, shares 0.

    Example: gold 5, 5, 10, 3; predicted 6, 3, 10, None → signed errors 1, −2, 0: Bias
    −1/3; one over, one under of 4.

    >>> b = count_bias([6, 3, 10, None], [5, 5, 10, 3])
    >>> round(b.bias, 4), b.p_over, b.p_under, b.n
    (-0.3333, 0.25, 0.25, 4)
    """
    _check(predicted, gold)
    if not gold:
        return CountBias(None, None, None, 0)
    signed = [p - g for p, g in zip(predicted, gold, strict=True) if p is not None]
    n = len(gold)
    return CountBias(sum(signed) / len(signed) if signed else None,
                     sum(d > 0 for d in signed) / n, sum(d < 0 for d in signed) / n, n)


@dataclass(frozen=True, slots=True)
class RetrievalScores:
    """Macro precision, recall and F1, EMRate, SubsetRate, SupersetRate, mean Missing
    and Spurious over N retrieval questions (fractions, as in Table 7)."""

    precision: float
    recall: float
    f1: float
    em_rate: float
    subset_rate: float
    superset_rate: float
    missing: float
    spurious: float
    n: int


def retrieval_scores(predicted: Sequence[Collection[str] | None],
                     gold: Sequence[Collection[str]]) -> RetrievalScores | None:
    """Per question i, with Pᵢ the predicted and Gᵢ the gold set
    (003_26afdd344a01d15b.txt §3.3.2, Eq. 6–11): Precisionᵢ = |Pᵢ∩Gᵢ|/(|Pᵢ|+ε),
    Recallᵢ = |Pᵢ∩Gᵢ|/(|Gᵢ|+ε), F1ᵢ = 2·Pᵢ·Rᵢ/(Pᵢ+Rᵢ+ε), averaged over questions
    (macro); EMRate = share with Pᵢ = Gᵢ; SubsetRate with Pᵢ ⊊ Gᵢ; SupersetRate with
    Pᵢ ⊋ Gᵢ; Missing = mean |Gᵢ∖Pᵢ|; Spurious = mean |Pᵢ∖Gᵢ| — over all N questions,
    as Eq. 11 writes (SADU's analysis script averages Missing and Spurious over the
    questions where they are not zero). ε = 1e-9. Items are compared as given (sets:
    duplicates collapse); an unread prediction (None) is the empty set — a strict
    subset of any non-empty gold.

    Edge cases: no question → None; lengths differ → ValueError; empty prediction →
    precision 0.

    Example: G₁ = {a, b}, P₁ = {a} (precision 1, recall ½, F1 ⅔, subset, 1 missing);
    G₂ = {c}, P₂ = {c, d} (precision ½, recall 1, F1 ⅔, superset, 1 spurious) → macro
    precision ¾, recall ¾, F1 ⅔, EMRate 0, SubsetRate ½, SupersetRate ½, Missing ½,
    Spurious ½.

    >>> s = retrieval_scores([{"a"}, {"c", "d"}], [{"a", "b"}, {"c"}])
    >>> round(s.precision, 6), round(s.recall, 6), round(s.f1, 6), s.em_rate
    (0.75, 0.75, 0.666667, 0.0)
    >>> s.subset_rate, s.superset_rate, s.missing, s.spurious
    (0.5, 0.5, 0.5, 0.5)
    """
    _check(predicted, gold)
    if not gold:
        return None
    n = len(gold)
    totals = [0.0] * 8
    for p_raw, g_raw in zip(predicted, gold, strict=True):
        p, g = set(p_raw or ()), set(g_raw)
        hit = len(p & g)
        precision, recall = hit / (len(p) + EPSILON), hit / (len(g) + EPSILON)
        f1 = 2 * precision * recall / (precision + recall + EPSILON)
        for i, value in enumerate((precision, recall, f1, p == g, p < g, p > g,
                                   len(g - p), len(p - g))):
            totals[i] += float(value)
    p_, r_, f_, em, sub, sup, missing, spurious = (t / n for t in totals)
    return RetrievalScores(p_, r_, f_, em, sub, sup, missing, spurious, n)


def mean_tokens(tokens: Sequence[int | None]) -> float | None:
    """Mean tokens per request, Tokenᵢ = Prompt + Completion + Reason tokens
    (003_26afdd344a01d15b.txt §3.3, Eq. 2; Table 3 gives the completion tokens, reasoning
    ones included), over the requests whose count is known.

    Edge cases: no known count → None.

    >>> mean_tokens([100, 300, None])
    200.0
    """
    known = [t for t in tokens if t is not None]
    return sum(known) / len(known) if known else None


def accuracy_interval(correct: Sequence[bool], resamples: int = RESAMPLES, seed: int = 0
                      ) -> tuple[float, float] | None:
    """The 95 % percentile bootstrap interval of Acc
    (003_26afdd344a01d15b.txt §3.3.2, Eq. 1), in percent: the 2.5th and 97.5th
    percentiles of the accuracies of `resamples` resamples of the questions with
    replacement (seeded numpy PCG64).

    Edge cases: no question → None; all correct → (100.0, 100.0).

    >>> accuracy_interval([True] * 10)
    (100.0, 100.0)
    >>> low, high = accuracy_interval([True, False] * 50)
    >>> 39 < low < 50 < high < 61
    True
    """
    interval = bootstrap_interval([float(c) for c in correct], resamples, seed)
    return None if interval is None else (100 * interval[0], 100 * interval[1])


def paired_accuracy(a: Mapping[str, bool], b: Mapping[str, bool], resamples: int = RESAMPLES,
                    seed: int = 0) -> PairedTest:
    """Model A against model B on the questions both answered (by id): `paired_test` on
    100·EMᵢ(A) − 100·EMᵢ(B), so the mean difference is A's accuracy minus B's in
    percentage points, with its 95 % bootstrap interval and the two-sided Wilcoxon
    signed-rank test (on 0/±100 differences it is a sign test over the questions where
    exactly one model is right). Compares models of 003_26afdd344a01d15b.txt §4.1
    (Table 2) on their accuracy, Eq. 1 of §3.3.2.

    Edge cases: no shared question → n 0 and every other field None; the same answers
    → mean difference 0, p-value 1.0.

    >>> t = paired_accuracy({"q1": True, "q2": True, "q3": False}, {"q1": False, "q2": True})
    >>> t.n, t.mean_difference
    (2, 50.0)
    """
    shared = sorted(set(a) & set(b))
    return paired_test([100.0 * a[q] for q in shared], [100.0 * b[q] for q in shared],
                       resamples, seed)
