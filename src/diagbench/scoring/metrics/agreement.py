"""Agreement of a judge model with the deterministic scorer beyond chance: Cohen's κ."""

from __future__ import annotations

from collections.abc import Sequence


def cohens_kappa(rule: Sequence[bool], judge: Sequence[bool | None]) -> float | None:
    """Cohen's κ = (p_o − p_e) / (1 − p_e) over the items the judge gave a verdict on
    (None: none): p_o the share where judge and rule agree, p_e = p_r·p_j + (1 − p_r)(1 −
    p_j) the agreement expected by chance from each one's share of True (p_r, p_j).
    Cohen 1960, "A coefficient of agreement for nominal scales". Table 10 of
    003_26afdd344a01d15b.txt §4.5 gives the raw agreement (All_Same); κ discounts the
    agreement two scorers reach by both saying mostly True (or mostly False).

    Edge cases: no judged item → None; p_e = 1 (both give one and the same label to
    every item) → None (κ undefined); lengths differ → ValueError.

    Example: rule T T F F, judge T F F F: p_o = 3/4, p_r = ½, p_j = ¼, p_e = ½·¼ + ½·¾
    = ½, κ = (¾ − ½)/(1 − ½) = ½.

    >>> cohens_kappa([True, True, False, False], [True, False, False, False])
    0.5
    """
    if len(rule) != len(judge):
        raise ValueError(f"{len(rule)} rule verdicts for {len(judge)} judge verdicts")
    pairs = [(bool(r), bool(j)) for r, j in zip(rule, judge, strict=True) if j is not None]
    if not pairs:
        return None
    n = len(pairs)
    observed = sum(r == j for r, j in pairs) / n
    p_rule, p_judge = sum(r for r, _ in pairs) / n, sum(j for _, j in pairs) / n
    chance = p_rule * p_judge + (1 - p_rule) * (1 - p_judge)
    return None if chance == 1 else (observed - chance) / (1 - chance)
