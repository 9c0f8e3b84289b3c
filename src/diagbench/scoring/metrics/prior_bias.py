"""Metrics of paper 002 (prior bias in UML class diagrams): EM, RelAcc, the conflict
gap Δ with a bootstrap interval, and the prerequisite check. All are percentages.

The caller picks the answers of each condition (prior-conform, 2-reverse, 3-reverse,
3-mixed, prior-free) and passes one bool per answered instance × scale.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: The prerequisite thresholds of 002_b0dc7d344efc1856.txt §4.3.2 (percent).
EM_THRESHOLD, PRIOR_FREE_THRESHOLD = 95.0, 50.0
RESAMPLES = 10_000


def _percent(hits: Sequence[bool]) -> float | None:
    return 100.0 * sum(hits) / len(hits) if hits else None


def exact_match(matches: Sequence[bool]) -> float | None:
    """Class-name recovery: ``EM = 100 · (1/|D|) Σ 1[𝒩(Ĉ(x)) = 𝒩(C(x))]``.

    ``matches[i]`` says whether the normalised set of class names read from instance i
    equals the gold set. Implements 002_b0dc7d344efc1856.txt §3.2.

    Edge cases: no instance → None (not 0: there is nothing to score).

    >>> exact_match([True, True, True, False])  # 100 · 3/4
    75.0
    >>> exact_match([]) is None
    True
    """
    return _percent(matches)


def rel_acc(correct: Sequence[bool]) -> float | None:
    """Relation-direction accuracy: ``RelAcc = 100 · (1/|D|) Σ 1[ŷ(x) = y(x)]``.

    ``correct[i]`` says whether the True/False answer equals the gold label; an
    Unknown or unparsable answer is wrong. Implements 002_b0dc7d344efc1856.txt §3.2.

    Edge cases: no instance → None.

    >>> rel_acc([True] * 9 + [False])  # 100 · 9/10
    90.0
    >>> rel_acc([]) is None
    True
    """
    return _percent(correct)


def conflict_gap(conform: Sequence[bool], conflict: Sequence[bool]) -> float | None:
    """The conflict gap ``Δ = RelAcc(prior-conform) − RelAcc(prior-conflict)`` in points.

    ``conform`` and ``conflict`` are the `rel_acc` inputs of the two conditions (the
    matched contrast takes 2-reverse as prior-conflict, Fig. 4; 3-reverse and 3-mixed
    give the gaps of Fig. 5). Implements 002_b0dc7d344efc1856.txt §3.2.

    Edge cases: either condition empty → None. Δ < 0 when the conflicting diagrams are
    read better.

    >>> conflict_gap([True] * 9 + [False], [True] * 3 + [False] * 7)  # 90 − 30
    60.0
    >>> conflict_gap([True], []) is None
    True
    """
    a, b = rel_acc(conform), rel_acc(conflict)
    return None if a is None or b is None else a - b


def mean_gap(gaps: Sequence[float | None]) -> float | None:
    """Grand mean of Δ over models, ``(1/M) Σ Δ_m`` over the M models whose Δ is
    defined. Implements 002_b0dc7d344efc1856.txt §3.2 ("per-model and as a grand mean
    across models").

    Edge cases: a None Δ is left out; no defined Δ → None.

    >>> mean_gap([60.0, 20.0, None])  # (60 + 20) / 2
    40.0
    >>> mean_gap([None]) is None
    True
    """
    defined = [g for g in gaps if g is not None]
    return sum(defined) / len(defined) if defined else None


def gap_interval(conform: Sequence[bool], conflict: Sequence[bool], seed: int = 0,
                 resamples: int = RESAMPLES) -> tuple[float, float] | None:
    """95 % percentile bootstrap interval of `conflict_gap`, stratified by condition.

    Each of ``resamples`` rounds draws len(conform) answers with replacement from
    ``conform`` and len(conflict) from ``conflict`` (seeded numpy PCG64), and takes
    ``100 · (mean − mean)``; the interval is the 2.5th and 97.5th percentiles (linear
    interpolation) of those Δ*. Not in the paper; the uncertainty of the Δ of
    002_b0dc7d344efc1856.txt §3.2.

    Edge cases: either condition empty → None; a condition all right or all wrong on
    both sides gives a zero-width interval.

    >>> gap_interval([True] * 5, [False] * 5)  # every resample: 100 − 0
    (100.0, 100.0)
    >>> gap_interval([True], []) is None
    True
    """
    import numpy as np

    a, b = np.asarray(conform, dtype=float), np.asarray(conflict, dtype=float)
    if not len(a) or not len(b):
        return None
    rng = np.random.default_rng(seed)
    deltas = 100.0 * (a[rng.integers(0, len(a), (resamples, len(a)))].mean(axis=1)
                      - b[rng.integers(0, len(b), (resamples, len(b)))].mean(axis=1))
    low, high = np.percentile(deltas, [2.5, 97.5])
    return float(low), float(high)


@dataclass(frozen=True, slots=True)
class Prerequisite:
    """The two prerequisite measurements and whether both reach their threshold."""

    em: float | None
    prior_free_rel_acc: float | None
    passed: bool

    def as_dict(self) -> dict:
        return {"em": self.em, "prior_free_rel_acc": self.prior_free_rel_acc,
                "passed": self.passed}


def prerequisite(matches: Sequence[bool], prior_free_correct: Sequence[bool]) -> Prerequisite:
    """Can the model read the diagram at all? ``EM ≥ 95`` and ``RelAcc(prior-free) ≥ 50``.

    ``matches`` are the `exact_match` inputs (the caller picks the set: the paper
    measures EM on prior-free), ``prior_free_correct`` the `rel_acc` inputs of the
    prior-free condition. Only a model that passes has a Δ that measures
    bias rather than a skill deficit. Implements 002_b0dc7d344efc1856.txt §4.3.2
    (Fig. 9 in §4.3.3).

    Edge cases: either input empty → that value None and not passed; the thresholds
    are inclusive (EM exactly 95 passes).

    >>> prerequisite([True] * 19 + [False], [True, False])  # EM 95, RelAcc 50
    Prerequisite(em=95.0, prior_free_rel_acc=50.0, passed=True)
    >>> prerequisite([True], []).passed
    False
    """
    em, free = exact_match(matches), rel_acc(prior_free_correct)
    return Prerequisite(em, free, em is not None and free is not None
                        and em >= EM_THRESHOLD and free >= PRIOR_FREE_THRESHOLD)
