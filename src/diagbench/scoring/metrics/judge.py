"""LLM as judge against the rule-based scorer (paper 003_26afdd344a01d15b.txt §3.3.1,
§4.5, Table 10): the agreement table, and the categories of the disagreements.

Table 10 takes the judge as the reference: T_Same — the judge says True and the rule
agrees; F_Same — both say False; T_Diff — the judge says True, the rule False;
All_Same = T_Same + F_Same. The caption and the text disagree on F_Diff, so both are
given: `F_Diff` is the text's (§4.5: T_Diff and F_Diff "indicate disagreement") — the
judge says False, the rule True; the paper's rows sum to 100 % only under it
(gemini-2.5-flash 90.62 + 5.39 + 3.99). `F_Diff_caption` is the caption read as written
("LLM-as-a-judge judges the result as … False, while a rule-based evaluation judges it
as False") — both say False, the same questions as F_Same. The judge's accuracy
(Table 2's unit) is T_Same + T_Diff. §4.5 then sorts the T_Diff cases: counting answers by how
far the count is (off-by-one: 1, close: 2 to 5, large: more than 5), retrieval answers
by how the predicted elements relate to the gold ones (substring: a predicted element
is a prefix or suffix of a gold one, or the reverse; fuzzy: a small edit distance;
completely different: neither).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any


def judge_agreement(rule: Sequence[bool], judge: Sequence[bool | None]
                    ) -> dict[str, float | int | None]:
    """Table 10's agreement of a judge with the rule-based verdicts, in percent of the
    questions where the judge gave a verdict (None: no verdict, counted as `unjudged`).

    T_Same = #(judge ∧ rule) / n, F_Same = #(¬judge ∧ ¬rule) / n,
    T_Diff = #(judge ∧ ¬rule) / n, F_Diff = #(¬judge ∧ rule) / n (the text's),
    F_Diff_caption = #(¬judge ∧ ¬rule) / n (the caption's, = F_Same),
    All_Same = T_Same + F_Same; n the judged questions.
    Paper 003_26afdd344a01d15b.txt §4.5 (Table 10).

    Edge cases: no judged question (n = 0) gives None for each share; a None verdict is
    left out and counted as `unjudged`; lists of different lengths raise ValueError.

    >>> judge_agreement([True, False, False, True, True], [True, False, True, False, None])
    {'n': 4, 'unjudged': 1, 'T_Same': 25.0, 'F_Same': 25.0, 'T_Diff': 25.0, 'F_Diff': 25.0, \
'F_Diff_caption': 25.0, 'All_Same': 50.0}
    """
    if len(rule) != len(judge):
        raise ValueError(f"{len(rule)} rule verdicts, {len(judge)} judge verdicts")
    pairs = [(bool(r), j) for r, j in zip(rule, judge, strict=True) if j is not None]
    n = len(pairs)
    out: dict[str, float | int | None] = {"n": n, "unjudged": len(rule) - n}

    def pct(count: int) -> float | None:
        return None if n == 0 else round(100 * count / n, 4)
    t_same = sum(j and r for r, j in pairs)
    f_same = sum(not j and not r for r, j in pairs)
    out |= {"T_Same": pct(t_same), "F_Same": pct(f_same),
            "T_Diff": pct(sum(j and not r for r, j in pairs)),
            "F_Diff": pct(sum(not j and r for r, j in pairs)),
            "F_Diff_caption": pct(f_same),
            "All_Same": pct(t_same + f_same)}
    return out


def counting_disagreement(predicted: float | None, gold: float) -> str:
    """The category of a counting answer the rule rejected (§4.5): "equal" (the same
    number: the rule rejected its form, e.g. outside the markers), "off_by_one"
    (|p − g| = 1), "close" (2 ≤ |p − g| ≤ 5), "large" (|p − g| > 5), "unreadable" (no
    number was read). Paper 003_26afdd344a01d15b.txt §4.5.

    Edge cases: no prediction is "unreadable"; a non-integer distance such as 0.5 is
    "off_by_one" (within 1).

    >>> [counting_disagreement(p, 7) for p in (7, 8, 5, 2, 13, None)]
    ['equal', 'off_by_one', 'close', 'close', 'large', 'unreadable']
    """
    if predicted is None:
        return "unreadable"
    distance = abs(predicted - gold)
    if distance == 0:
        return "equal"
    if distance <= 1:
        return "off_by_one"
    return "close" if distance <= 5 else "large"


def edit_distance(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Levenshtein distance: the fewest insertions, deletions and substitutions of one
    character (or item, for other sequences) that turn `a` into `b` (the "small edit
    distance" of fuzzy matches, paper 003_26afdd344a01d15b.txt §4.5).

    Edge cases: an empty string is as far as the other's length; equal strings are 0.

    >>> edit_distance("kitten", "sitting"), edit_distance("", "abc"), edit_distance("a", "a")
    (3, 3, 0)
    """
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def _items(value: Any) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list):
        return [str(value)]
    return [", ".join(map(str, v)) if isinstance(v, list) else str(v) for v in value]


def _fold(text: str) -> str:
    return " ".join(text.lower().split())


def _fuzzy(a: str, b: str) -> bool:
    """Within a small edit distance: ≤ 2 edits and ≤ a fifth of the longer string."""
    distance = edit_distance(a, b)
    return distance <= 2 and distance <= max(len(a), len(b)) / 5


def retrieval_disagreement(predicted: Any, gold: Any) -> str:
    """The category of a retrieval answer the rule rejected (§4.5), from how each
    predicted element (a name, or a relation pair written "A, B") relates to the gold
    elements, compared without case and with runs of whitespace collapsed:
    "different" — some predicted element matches no gold element even loosely, or
    nothing was predicted; else "substring" — some element is a prefix or suffix of a
    gold element or the reverse; else "fuzzy" — some element is within a small edit
    distance of a gold one (≤ 2 edits, ≤ a fifth of the longer); else "same_elements"
    — every predicted element is a gold one once folded (the sets still differ: a
    missing element, case, or a duplicate). Paper 003_26afdd344a01d15b.txt §4.5.

    Edge cases: None or an empty prediction is "different"; relation pairs are compared
    as "source, target" strings.

    >>> retrieval_disagreement(["Order"], ["Order Service"])
    'substring'
    >>> retrieval_disagreement(["Custmer"], ["Customer"])
    'fuzzy'
    >>> retrieval_disagreement(["Basket"], ["Ledger"])
    'different'
    >>> retrieval_disagreement(["ledger"], ["Ledger", "Cart"])
    'same_elements'
    """
    pred = [_fold(p) for p in _items(predicted)]
    golds = [_fold(g) for g in _items(gold)]
    if not pred:
        return "different"
    kinds = set()
    for p in pred:
        if p in golds:
            kinds.add("exact")
        elif p and any(g.startswith(p) or g.endswith(p) or p.startswith(g) or p.endswith(g)
                       for g in golds if g):
            kinds.add("substring")
        elif any(_fuzzy(p, g) for g in golds):
            kinds.add("fuzzy")
        else:
            return "different"
    for kind in ("substring", "fuzzy"):
        if kind in kinds:
            return kind
    return "same_elements"
