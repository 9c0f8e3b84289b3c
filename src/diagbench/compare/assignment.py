"""Optimal one-to-one matching with the option of leaving elements unmatched."""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache

import numpy as np
from scipy.optimize import linear_sum_assignment


def assign(cost: np.ndarray, limit: float) -> list[tuple[int, int]]:
    """Pairs (row, column) of least total cost, keeping only pairs cheaper than `limit`.

    Leaving a row and a column unmatched costs `limit` together, so solving
    the rectangular problem on `min(cost, limit)` and dropping the capped
    pairs is the optimum of the problem with "unmatched" allowed.
    """
    rows, cols = assign_arrays(cost, limit)
    return list(zip(rows.tolist(), cols.tolist(), strict=True))


def assign_arrays(cost: np.ndarray, limit: float) -> tuple[np.ndarray, np.ndarray]:
    """`assign`'s pairs as two integer arrays, rows (in increasing order) and columns."""
    if cost.size == 0:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
    rows, cols = linear_sum_assignment(np.minimum(cost, limit))
    keep = cost[rows, cols] < limit
    return rows[keep], cols[keep]


def fewest_errors(errors: np.ndarray, gold_alone: np.ndarray, pred_alone: np.ndarray,
                  ties: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The one-to-one matching that counts the fewest errors in all, as two arrays: rows
    (in increasing order) and columns.

    `errors[i, j]`: the errors counted when gold i is matched with prediction j;
    `gold_alone[i]`, `pred_alone[j]`: those counted when it is left unmatched (a
    deletion, an insertion). The total is the sum over matched pairs plus the sum over
    the unmatched elements, so a pair is worth matching by its reduced cost
    `errors[i, j] - gold_alone[i] - pred_alone[j]` (0: left unmatched; a tie is left
    unmatched). Among matchings with equally few errors, the least sum of `ties` (each
    >= 0, e.g. 1 - label similarity + TIE_BREAK × position gap) wins: the error counts
    are scaled above any sum of tie-breaks, so a tie-break never outweighs one error.

    >>> rows, cols = fewest_errors(np.array([[1, 2], [2, 4]]), np.array([3, 3]),
    ...                            np.array([3, 3]), np.zeros((2, 2)))
    >>> list(zip(rows.tolist(), cols.tolist()))  # 1 + 4 = 5 > 2 + 2 = 4
    [(0, 1), (1, 0)]
    """
    if errors.size == 0:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
    scale = min(errors.shape) * float(ties.max()) + 1.0
    reduced = errors - gold_alone[:, None] - pred_alone[None, :]
    cost = reduced * scale
    cost += ties
    return assign_arrays(cost, 0.0)


#: Weight of the position gap in a cost: it only breaks ties between equal candidates.
TIE_BREAK = 1e-3
#: Tie-break matrices up to this many cells are kept (the sizes recur from pair to pair).
_CACHED_CELLS = 4096


def positions(n: int) -> np.ndarray:
    """Relative positions 0…1 of `n` elements in order."""
    return np.arange(n) / max(n - 1, 1)


def position_gap(n: int, m: int) -> np.ndarray:
    """|relative position of gold i − relative position of prediction j|, shape (n, m)."""
    gap = np.subtract.outer(positions(n), positions(m))
    return np.abs(gap, out=gap)


def tie_breaks(n: int, m: int) -> np.ndarray:
    """TIE_BREAK × `position_gap(n, m)`, the part of a cost that prefers keeping the
    order; read-only (shared by every caller of small sizes)."""
    return _cached_tie_breaks(n, m) if n * m <= _CACHED_CELLS else _tie_breaks(n, m)


def _tie_breaks(n: int, m: int) -> np.ndarray:
    gap = position_gap(n, m)
    gap *= TIE_BREAK
    gap.flags.writeable = False
    return gap


_cached_tie_breaks = lru_cache(maxsize=128)(_tie_breaks)


def jaccard(a: frozenset, b: frozenset) -> float:
    """|a ∩ b| ÷ |a ∪ b|, 1.0 for two empty sets."""
    if a == b:  # two empty sets among them
        return 1.0
    shared = len(a & b)
    return shared / (len(a) + len(b) - shared)


def discordant_pairs(sequence: list[int]) -> int:
    """Pairs out of order in `sequence` (inversions), counted with a sorted prefix: each
    element is out of order with the larger ones before it (faster than comparing all
    pairs at once with numpy up to hundreds of elements)."""
    seen: list[int] = []
    inversions = 0
    for x in sequence:
        at = bisect_right(seen, x)
        inversions += len(seen) - at
        seen.insert(at, x)
    return inversions
