"""Script-vs-script metrics of paper 000 (image → PlantUML conversion): the component
error rates of its Table 2, the per-file error rate and its mean ± standard error per
length bin (Fig. 6–7), and two measures of our own (message order, label similarity).

Counts come from `diagbench.compare`; these functions only do the arithmetic.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: Paper 000 Table 1 bins of ground-truth script length (lines, inclusive), and one above.
LENGTH_BINS: tuple[tuple[int, int | None], ...] = (
    (1, 20), (21, 30), (31, 40), (41, 50), (51, 100), (101, None))


def rate(count: int, gold: int) -> float | None:
    """One error rate of Table 2: ``count / gold``.

    ``count`` is the insertions, deletions or substitutions of one component (node,
    message, note, …) and ``gold`` the number of such elements in the ground truth —
    e.g. node insertion rate = nodes in the output but not in the ground truth ÷ nodes
    in the ground truth. Implements 000_30f6dc923c2b066d.txt §2.3.2 (Table 2 in §4).

    Edge cases: no gold element (``gold == 0``) → None, whatever ``count`` is (the rate is
    undefined, not 0 and not infinite). The rate may exceed 1 (more insertions than
    gold elements).

    >>> rate(3, 12)  # 3 deleted of 12 gold messages
    0.25
    >>> rate(5, 4)
    1.25
    >>> rate(2, 0) is None
    True
    """
    return count / gold if gold else None


def error_rate(insertions: int, deletions: int, substitutions: int, gold: int) -> float | None:
    """Errors of all kinds per gold element: ``(I + D + S) / gold``.

    The per-file error rate of one component that Fig. 6–7 average per length bin ("the
    errors are accumulated across insertion, deletion and substitution categories at a
    file level and calculated as percentage of total"). Implements
    000_30f6dc923c2b066d.txt §4.

    Edge cases: ``gold == 0`` → None (see `rate`).

    >>> error_rate(1, 2, 3, 8)  # (1 + 2 + 3) / 8
    0.75
    >>> error_rate(0, 0, 0, 5)
    0.0
    >>> error_rate(1, 0, 0, 0) is None
    True
    """
    return rate(insertions + deletions + substitutions, gold)


def ordering_score(discordant_pairs: int, pairs: int) -> float:
    """Order agreement of matched messages: ``1 − discordant_pairs / pairs``.

    ``pairs`` = n(n − 1)/2 over the n matched messages; a pair is discordant when the
    prediction draws the two in the other order. Not in paper 000, whose line diff cannot
    see order (000_30f6dc923c2b066d.txt §2.2.2); our addition to its message metrics
    (§2.3.2), documented in the README.

    Edge cases: no pair (fewer than two matched messages) → 1.0, nothing is out of order.

    >>> ordering_score(1, 10)  # 5 messages, one adjacent swap: 1 − 1/10
    0.9
    >>> ordering_score(0, 0)
    1.0
    """
    return 1.0 - discordant_pairs / pairs if pairs else 1.0


def mean_label_similarity(total: float, count: int) -> float | None:
    """Mean label similarity ``total / count`` of ``count`` matched labelled messages.

    ``total`` is Σ (1 − normalised Levenshtein distance) over those messages (sums are
    what pooling files adds up). Not in paper 000; our graded companion to its message
    change rate (000_30f6dc923c2b066d.txt §2.3.2), which counts any difference as one.

    Edge cases: no matched labelled message (``count == 0``) → None.

    >>> mean_label_similarity(1.0 + 0.5 + 0.75, 3)  # (1 + 0.5 + 0.75) / 3
    0.75
    >>> mean_label_similarity(0.0, 0) is None
    True
    """
    return total / count if count else None


def mean_standard_error(values: Sequence[float]) -> tuple[float | None, float]:
    """Mean and standard error of the mean: ``(x̄, s / √n)`` with the sample standard
    deviation ``s = √(Σ (x − x̄)² / (n − 1))``.

    The points and error bars of Fig. 6–7 (000_30f6dc923c2b066d.txt §4), one per
    length bin.

    Edge cases: no value → (None, 0.0); one value → (that value, 0.0), the spread of a
    single value being undefined and drawn as no bar.

    >>> mean_standard_error([10.0, 20.0, 30.0])  # x̄ 20, s = √((100 + 0 + 100)/2) = 10
    (20.0, 5.773502691896258)
    >>> mean_standard_error([42.0])
    (42.0, 0.0)
    >>> mean_standard_error([])
    (None, 0.0)
    """
    if not values:
        return None, 0.0
    n = len(values)
    mean = sum(values) / n
    spread = math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1)) if n > 1 else 0.0
    return mean, spread / math.sqrt(n)


def length_bin(lines: int, bins: Sequence[tuple[int, int | None]] = LENGTH_BINS) -> int | None:
    """The index of the bin ``(low, high)`` with ``low ≤ lines ≤ high`` (no ``high``: no
    upper bound), or None when no bin holds ``lines``.

    >>> length_bin(20), length_bin(21), length_bin(500), length_bin(0)
    (0, 1, 5, None)
    """
    for index, (low, high) in enumerate(bins):
        if low <= lines and (high is None or lines <= high):
            return index
    return None


def by_length(lines: Sequence[int], values: Sequence[float],
              bins: Sequence[tuple[int, int | None]] = LENGTH_BINS,
              ) -> list[tuple[float | None, float]]:
    """Per length bin, `mean_standard_error` of the ``values`` whose file has a length
    (``lines[i]``, lines of ground truth) in that bin — Fig. 6–7 of
    000_30f6dc923c2b066d.txt §4, with the bins of its Table 1 (§3.2.1).

    Edge cases: a bin without files → (None, 0.0); a length in no bin is left out;
    ``lines`` and ``values`` of different lengths → ValueError.

    >>> by_length([10, 15, 25, 200], [20.0, 40.0, 50.0, 10.0])
    [(30.0, 10.0), (50.0, 0.0), (None, 0.0), (None, 0.0), (None, 0.0), (10.0, 0.0)]
    """
    grouped: list[list[float]] = [[] for _ in bins]
    for n, value in zip(lines, values, strict=True):
        index = length_bin(n, bins)
        if index is not None:
            grouped[index].append(value)
    return [mean_standard_error(group) for group in grouped]
