"""Metrics of paper 002 (prior bias in UML class diagrams): EM, RelAcc, the conflict
gap Δ with a bootstrap interval, and the prerequisite check. All are percentages.

`exact_match` and `rel_acc` score one set of answers (a cell: one condition ×
relation × image scale); the paper's condition-level figures average the cells
(`cell_average`), and so do Δ, its interval and the prerequisite.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

#: The prerequisite thresholds of 002_b0dc7d344efc1856.txt §4.3.2 (percent).
EM_THRESHOLD, PRIOR_FREE_THRESHOLD = 95.0, 50.0
RESAMPLES = 10_000
#: The answers of one condition grouped by cell (relation × image scale), one bool each.
Cells = Sequence[Sequence[bool]]
A = TypeVar("A")  # an answer: right/wrong, or (diagram, right/wrong)


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


def cell_average(cells: Cells) -> float | None:
    """A condition's score as the paper aggregates it: the percentage of each cell (one
    relation × image scale), then their plain mean, ``(1/K) Σ_k 100 · mean(cells[k])``
    over the K non-empty cells. Implements 002_b0dc7d344efc1856.txt §4.1 ("averaged
    across four relation types and three image sizes"; Fig. 4–9 are such averages of
    the Table 2 cells), so a small cell weighs as much as a large one.

    Edge cases: an empty cell is left out; no non-empty cell → None.

    >>> cell_average([[True, True], [True, False, False, False]])  # (100 + 25) / 2
    62.5
    >>> cell_average([[], []]) is None
    True
    """
    scores = [_percent(cell) for cell in cells if cell]
    return sum(s for s in scores if s is not None) / len(scores) if scores else None


def _paired_cells(conform: Sequence[Sequence[A]], conflict: Sequence[Sequence[A]]
                  ) -> tuple[list[Sequence[A]], list[Sequence[A]]]:
    """The cells (paired by position) that both conditions have."""
    if len(conform) != len(conflict):
        raise ValueError(f"cells differ in number: {len(conform)} and {len(conflict)}")
    kept = [(a, b) for a, b in zip(conform, conflict, strict=True) if a and b]
    return [a for a, _ in kept], [b for _, b in kept]


def conflict_gap(conform: Cells, conflict: Cells) -> float | None:
    """The conflict gap ``Δ = RelAcc(prior-conform) − RelAcc(prior-conflict)`` in points,
    each side the `cell_average` of its relation × scale cells.

    ``conform[k]`` and ``conflict[k]`` are the `rel_acc` inputs of the same cell (the
    matched contrast takes 2-reverse as prior-conflict, Fig. 4; 3-reverse and 3-mixed
    give the gaps of Fig. 5). Implements 002_b0dc7d344efc1856.txt §3.2 and §4.1.

    Edge cases: a cell empty on either side is left out on both (the gap compares the
    same cells); none left → None; different numbers of cells → ValueError. Δ < 0 when
    the conflicting diagrams are read better.

    >>> conflict_gap([[True] * 9 + [False], [True, True]],   # (90 + 100) / 2 = 95
    ...              [[True] * 3 + [False] * 7, [False, True]])  # (30 + 50) / 2 = 40
    55.0
    >>> conflict_gap([[True]], [[]]) is None
    True
    """
    a, b = _paired_cells(conform, conflict)
    mean_a, mean_b = cell_average(a), cell_average(b)
    return None if mean_a is None or mean_b is None else mean_a - mean_b


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


def gap_interval(conform: Cells, conflict: Cells, seed: int = 0,
                 resamples: int = RESAMPLES) -> tuple[float, float] | None:
    """95 % percentile bootstrap interval of `conflict_gap`, stratified by cell.

    Each of ``resamples`` rounds redraws every cell of both conditions with replacement,
    at its own size (seeded numpy PCG64), and takes Δ* = mean over cells of the conform
    percentages − mean over cells of the conflict percentages (the cells `conflict_gap`
    uses); the interval is the 2.5th and 97.5th percentiles (linear interpolation) of
    the Δ*. Not in the paper; the uncertainty of the Δ of 002_b0dc7d344efc1856.txt §3.2.

    Edge cases: as `conflict_gap` (no common non-empty cell → None); cells all right or
    all wrong on both sides give a zero-width interval.

    >>> gap_interval([[True] * 5, [True]], [[False] * 5, [False]])  # every Δ*: 100 − 0
    (100.0, 100.0)
    >>> gap_interval([[True]], [[]]) is None
    True
    """
    import numpy as np

    a, b = _paired_cells(conform, conflict)
    if not a:
        return None
    rng = np.random.default_rng(seed)

    def resampled(cells: list[Sequence[bool]]) -> np.ndarray:
        means = [np.asarray(cell, dtype=float)[rng.integers(0, len(cell), (resamples, len(cell)))]
                 .mean(axis=1) for cell in cells]
        return 100.0 * np.mean(means, axis=0)

    deltas = resampled(a) - resampled(b)
    low, high = np.percentile(deltas, [2.5, 97.5])
    return float(low), float(high)


#: The answers of one condition by cell, each answer with its diagram: (diagram, right).
ClusteredCells = Sequence[Sequence[tuple[str, bool]]]


def gap_interval_clustered(conform: ClusteredCells, conflict: ClusteredCells, seed: int = 0,
                           resamples: int = RESAMPLES) -> tuple[float, float, float] | None:
    """95 % percentile cluster bootstrap interval of `conflict_gap` and its bootstrap
    standard error, resampling diagrams: each of ``resamples`` rounds draws the G
    diagrams with replacement (seeded numpy PCG64), every drawn diagram bringing all its
    answers in every cell; a cell's percentage is Σ right / Σ answers over the drawn
    diagrams, Δ* = mean over the cells non-empty on both sides of the conform
    percentages − mean of the conflict ones. Returns (2.5th percentile, 97.5th
    percentile, standard deviation of the Δ*). Not in the paper; the uncertainty of the
    Δ of 002_b0dc7d344efc1856.txt §3.2 when a diagram is asked several questions (its
    relation at each image scale), which `gap_interval` treats as independent.

    Edge cases: as `conflict_gap` (no common non-empty cell → None); a round where no
    cell is non-empty on both sides is left out.

    Example: two diagrams, each right under prior-conform and wrong under prior-conflict:
    every Δ* is 100 − 0.

    >>> gap_interval_clustered([[("d1", True), ("d2", True)]],
    ...                        [[("d1", False), ("d2", False)]])
    (100.0, 100.0, 0.0)
    >>> gap_interval_clustered([[("d1", True)]], [[]]) is None
    True
    """
    import numpy as np

    a, b = _paired_cells(conform, conflict)
    if not a:
        return None
    index: dict[str, int] = {}
    for cell in (*a, *b):
        for diagram, _ in cell:
            index.setdefault(diagram, len(index))

    def per_diagram(cells: list) -> tuple[np.ndarray, np.ndarray]:
        hits, sizes = np.zeros((len(index), len(cells))), np.zeros((len(index), len(cells)))
        for k, cell in enumerate(cells):
            for diagram, right in cell:
                sizes[index[diagram], k] += 1
                hits[index[diagram], k] += bool(right)
        return hits, sizes

    rng = np.random.default_rng(seed)
    drawn = rng.integers(0, len(index), size=(resamples, len(index)))
    times = np.zeros((resamples, len(index)))
    np.add.at(times, (np.arange(resamples)[:, None], drawn), 1)
    (hits_a, sizes_a), (hits_b, sizes_b) = per_diagram(a), per_diagram(b)
    n_a, n_b = times @ sizes_a, times @ sizes_b
    used = (n_a > 0) & (n_b > 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(used, (times @ hits_a) / n_a - (times @ hits_b) / n_b, 0.0)
    cells = used.sum(axis=1)
    deltas = 100.0 * share[cells > 0].sum(axis=1) / cells[cells > 0]
    if not len(deltas):
        return None
    low, high = np.percentile(deltas, [2.5, 97.5])
    return float(low), float(high), float(deltas.std(ddof=1)) if len(deltas) > 1 else 0.0


@dataclass(frozen=True, slots=True)
class Prerequisite:
    """The two prerequisite measurements and whether both reach their threshold."""

    em: float | None
    prior_free_rel_acc: float | None
    passed: bool

    def as_dict(self) -> dict:
        return {"em": self.em, "prior_free_rel_acc": self.prior_free_rel_acc,
                "passed": self.passed}


def prerequisite(matches: Cells, prior_free_correct: Cells) -> Prerequisite:
    """Can the model read the diagram at all? ``EM ≥ 95`` and ``RelAcc(prior-free) ≥ 50``,
    both measured on prior-free diagrams and each the `cell_average` of its relation ×
    scale cells.

    ``matches`` are the `exact_match` inputs and ``prior_free_correct`` the `rel_acc`
    inputs of the prior-free cells. Only a model that passes has a Δ that measures
    bias rather than a skill deficit. Implements 002_b0dc7d344efc1856.txt §4.3.2
    ("two prerequisite measurements on prior-free … each averaged across four
    relations and three scales"; Fig. 9).

    Edge cases: no non-empty cell → that value None and not passed; the thresholds
    are inclusive (EM exactly 95 passes).

    >>> prerequisite([[True] * 19 + [False]], [[True, False]])  # EM 95, RelAcc 50
    Prerequisite(em=95.0, prior_free_rel_acc=50.0, passed=True)
    >>> prerequisite([[True]], [[]]).passed
    False
    """
    em, free = cell_average(matches), cell_average(prior_free_correct)
    return Prerequisite(em, free, em is not None and free is not None
                        and em >= EM_THRESHOLD and free >= PRIOR_FREE_THRESHOLD)
