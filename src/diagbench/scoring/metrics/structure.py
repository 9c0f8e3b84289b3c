"""Metrics of the structured-diagram benchmark (paper 004_34f8485b6a3a0424.txt, STRUDEL):
the image-to-code scores (§3.4, §5) and the code-generation study's code
lengths and complexity consistency (§4).

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
    normalised name and kind (entities) and by endpoints, direction, type and label
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


def sequence_code_score(valid: bool, errors: int, gold: int, ordering: float,
                        labels: float | None) -> float:
    """diagbench's image-to-code score of a sequence diagram, read as paper 000 reads
    one (000_30f6dc923c2b066d.txt §2.3: component errors; the ordering and label
    similarity of the matched messages, `ordering_score` and `mean_label_similarity`):
    S = 𝟙[valid] · C · (O + L) / 2, with C = max(0, 1 − E / G) the share of the gold
    elements (participants, messages, notes, groups, boxes and their parts) the
    prediction gets right, E its insertions, deletions and substitutions, O the order
    agreement and L the mean label similarity of the messages matched. The order and
    the labels are graded on what was matched, so they are scaled by C: an empty
    prediction scores 0, not the 1.0 that O and L give when nothing is matched.

    Edge cases: G = 0 → C = 1 without errors, else 0; L = None (no matched labelled
    message) → 1.0; an invalid prediction → 0.

    >>> sequence_code_score(True, 0, 10, 1.0, 1.0)
    1.0
    >>> sequence_code_score(True, 2, 8, 0.5, 1.0)  # 0.75 · (0.5 + 1.0) / 2
    0.5625
    >>> sequence_code_score(True, 12, 10, 1.0, None)
    0.0
    """
    if not valid:
        return 0.0
    components = (max(0.0, 1.0 - errors / gold) if gold else float(errors == 0))
    return components * (ordering + (1.0 if labels is None else labels)) / 2


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


def code_lengths(codes: Sequence[str]) -> tuple[str, list[int]]:
    """The code-length measure of 004_34f8485b6a3a0424.txt §4.1 for the codes of one FRL:
    ("lines", the number of non-blank lines of each code), or ("characters", the length
    of each code stripped of surrounding white space) for an FRL whose code is usually
    shorter than 5 lines — its median line count is under 5.

    Edge cases: no code → ("lines", []); a median of exactly 5 lines counts lines; the
    median of an even number of codes is the mean of the middle two.

    >>> code_lengths(["a\\nb\\n\\nc", "a\\n" * 6, "b\\n" * 7])
    ('lines', [3, 6, 7])
    >>> code_lengths(["C1=CC=CC=C1", "CCO"])
    ('characters', [11, 3])
    """
    lines = [sum(1 for ln in code.splitlines() if ln.strip()) for code in codes]
    ordered = sorted(lines)
    n = len(ordered)
    if n and (ordered[n // 2] + ordered[(n - 1) // 2]) / 2 < 5:
        return "characters", [len(code.strip()) for code in codes]
    return "lines", lines


def complexity_consistency(groups: Sequence[Mapping[str, float]], threshold: float = 10.0
                           ) -> float | None:
    """Complexity consistency of generated code (004_34f8485b6a3a0424.txt §4.1): each
    group is the code lengths (`code_lengths`) that one seed — a persona of an FRL —
    got at the levels low, medium and high. Three checks per group: medium longer than
    low, high longer than medium, high longer than low, each by at least `threshold` %
    (b ≥ a · (1 + threshold/100) and b > a, so a tie never holds). The result is the
    percentage of checks that hold over all groups ("the mean over all samples").

    Edge cases: a check whose two levels are not both in the group is left out (a
    failed call, no code); no check left → None; lengths 0 and 0 are a tie.

    >>> complexity_consistency([{"low": 10, "medium": 11, "high": 20}])
    100.0
    >>> complexity_consistency([{"low": 10, "medium": 10, "high": 12}, {"low": 5}])
    66.66666666666667
    """
    checks = [b > a and b * 100 >= a * (100 + threshold)
              for group in groups
              for a, b in ((group.get(lo), group.get(hi))
                           for lo, hi in (("low", "medium"), ("medium", "high"),
                                          ("low", "high")))
              if a is not None and b is not None]
    return 100.0 * sum(checks) / len(checks) if checks else None
