"""Metrics of the structured-diagram benchmark (paper 004_34f8485b6a3a0424.txt, STRUDEL):
the image-to-code scores (§3.4, §5) and the code-generation study's complexity
consistency (§4).

STRUDEL scores an image-to-code answer as (renders + F1 over per-type *counts*)/2,
which gives full marks to a prediction with the right number of boxes and none of
the right names or edges. diagbench reports that score beside its own, which matches
the elements themselves: the validity gate times the mean of entity F1 and relation
F1 (`image_to_code_score`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def set_f1(matched: int, gold: int, pred: int) -> tuple[float, float, float]:
    """(precision, recall, F1) of a multiset match: P = m / |pred|, R = m / |gold|,
    F1 = 2PR / (P + R) (the usual harmonic mean; 004_34f8485b6a3a0424.txt §5.1 scores
    image-to-code with an F1).

    Edge cases: both sides empty → (1.0, 1.0, 1.0) (nothing to find, nothing
    invented); one side empty → the undefined ratio is 0.0, so F1 is 0.0;
    P + R = 0 → F1 0.0. `matched` larger than either side is a ValueError.

    >>> set_f1(3, 4, 6)
    (0.5, 0.75, 0.6)
    >>> set_f1(0, 0, 0)
    (1.0, 1.0, 1.0)
    """
    if matched < 0 or matched > gold or matched > pred:
        raise ValueError(f"{matched} matched of {gold} gold and {pred} predicted")
    if gold == 0 and pred == 0:
        return 1.0, 1.0, 1.0
    precision = matched / pred if pred else 0.0
    recall = matched / gold if gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def image_to_code_score(valid: bool, entity_f1: float, relation_f1: float) -> float:
    """diagbench's image-to-code score (the fix of 004_34f8485b6a3a0424.txt §5.1's score):
    S = 𝟙[valid] · (F1_entities + F1_relations) / 2, the F1s over elements matched by
    normalised name and kind (entities) and by endpoints, direction and type
    (relations) — `compare.graph`.

    Edge cases: a prediction that does not render scores 0 whatever its F1s; F1s
    outside [0, 1] are a ValueError.

    >>> image_to_code_score(True, 1.0, 0.5)
    0.75
    >>> image_to_code_score(False, 1.0, 1.0)
    0.0
    """
    for value in (entity_f1, relation_f1):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"an F1 of {value}")
    return (entity_f1 + relation_f1) / 2 if valid else 0.0


def count_f1(gold: Mapping[str, int], pred: Mapping[str, int]) -> float:
    """F1 over per-type counts, as STRUDEL's image-to-code score uses it
    (004_34f8485b6a3a0424.txt §5.1: TP the overlap of the counts):
    m = Σₜ min(gₜ, pₜ), P = m / Σₜ pₜ, R = m / Σₜ gₜ, F1 = 2PR / (P + R).
    Which elements are counted does not matter, only how many of each type.

    Edge cases: no statistics on either side → 1.0 (what the anchor gives a category
    without statistics); one side empty → 0.0.

    >>> count_f1({"class": 3, "relation": 2}, {"class": 3, "relation": 1})
    0.888888888888889
    """
    matched = sum(min(n, pred.get(t, 0)) for t, n in gold.items())
    return set_f1(matched, sum(gold.values()), sum(pred.values()))[2]


def strudel_count_score(valid: bool, gold: Mapping[str, int], pred: Mapping[str, int]
                        ) -> float:
    """STRUDEL's image-to-code score (004_34f8485b6a3a0424.txt §5.1, as its public
    code computes it):
    S = (𝟙[valid] + count_f1(gold, pred)) / 2. Reported beside `image_to_code_score`
    to show its flaw: every class renamed, same counts → 1.0.

    Edge cases: invalid code still earns half of its count F1 (the anchor's formula);
    both statistics empty and valid → 1.0.

    >>> strudel_count_score(True, {"class": 2}, {"class": 2})
    1.0
    >>> strudel_count_score(False, {"class": 2}, {"class": 2})
    0.5
    """
    return (float(valid) + count_f1(gold, pred)) / 2


def complexity_consistency(sizes: Mapping[str, Sequence[float]], margin: float = 0.10
                           ) -> float | None:
    """Complexity consistency of generated code (004_34f8485b6a3a0424.txt §4.1): with
    s̄_l the mean size (lines of code; characters for FRLs whose code is under 5
    lines) at level l, the share of the three checks s̄_medium > (1+margin)·s̄_low,
    s̄_high > (1+margin)·s̄_medium, s̄_high > (1+margin)·s̄_low that hold, in percent.

    Edge cases: a check whose levels have no sample is left out; no check left → None.

    >>> complexity_consistency({"low": [10], "medium": [12], "high": [12]})
    66.66666666666667
    """
    means = {k: sum(v) / len(v) for k, v in sizes.items() if len(v)}
    checks = [means[b] > (1 + margin) * means[a]
              for a, b in (("low", "medium"), ("medium", "high"), ("low", "high"))
              if a in means and b in means]
    return 100.0 * sum(checks) / len(checks) if checks else None
