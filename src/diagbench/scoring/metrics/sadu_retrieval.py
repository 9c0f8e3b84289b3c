"""The retrieval metrics of paper 003_26afdd344a01d15b.txt (SADU) as its Table 7 was
computed: by the analysis script of its repository (src/result_analyze/
retrieval_error_analysis.py), which departs from Eq. 6–11 as §3.3.2 writes them
(`metrics.archqa.retrieval_scores`) in four ways:

1. answers are multisets (a name given twice counts twice), compared as SADU's script
   compares them — a string answer is the multiset of its characters;
2. an answer that could not be read, or whose comparison would stop SADU's script (a
   number where a list is expected, unhashable items), is left out of Precision, Recall
   and F1 but stays in the denominator of EMRate, SubsetRate and SupersetRate;
3. Missing and Spurious are averaged over the answers where they are not zero
   (Missing: the answers that miss something; Spurious: the answers that add
   something), not over all N;
4. an empty answer has precision 0 (no ε), and F1 is 0 when precision or recall is.

For each answer P (prediction) and gold G, overlap O = |P ∩ G| (multiset):
EM when P = G; otherwise SubsetRate counts P ⊆ G, SupersetRate G ⊆ P (tested in that
order); precision O/|P| (0 when |P| = 0), recall O/|G|, F1 their harmonic mean,
Missing |G| − O, Spurious |P| − O.

>>> r = sadu_retrieval([(["A", "B"], ["A", "B"]), (["A"], ["A", "B"]), (None, ["C"])])
>>> r.em_rate, r.subset_rate, r.precision, r.recall, r.missing, r.total, r.scored
(0.3333333333333333, 0.3333333333333333, 1.0, 0.75, 1.0, 3, 2)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class SaduRetrieval:
    """Table 7's columns as SADU computed them, the questions counted (`total`), those
    in the means (`scored`) and those left out because SADU's script could not compare
    them (`uncomparable`; the unread answers are `total` − `scored` − `uncomparable`)."""

    precision: float | None
    recall: float | None
    f1: float | None
    em_rate: float | None
    subset_rate: float | None
    superset_rate: float | None
    other_rate: float | None
    missing: float | None
    spurious: float | None
    total: int
    scored: int
    uncomparable: int


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _overlap(predicted: Any, gold: Any) -> tuple[str, int] | None:
    """P against G as multisets: ("subset" | "superset" | "other", overlap); None when
    SADU's comparison fails (unhashable items, a value without items)."""
    try:
        p, g = Counter(predicted), Counter(gold)
        kind = ("subset" if all(p[k] <= g[k] for k in p)
                else "superset" if all(g[k] <= p[k] for k in g) else "other")
        return kind, sum((p & g).values())
    except TypeError:
        return None


def sadu_retrieval(answers: Sequence[tuple[Any, Any]], unformed: int = 0) -> SaduRetrieval:
    """Table 7 of 003_26afdd344a01d15b.txt §4.2.2 as SADU's script computes it, over
    `answers`, pairs (prediction, gold) already in the form the script compares (see
    the module's docstring); a prediction of None was not read. `unformed` more answers
    were read but could not be put in that form (SADU's script stops on them): they
    count in the rates' denominators and in `uncomparable`.

    >>> r = sadu_retrieval([(["A", "A"], ["A"]), (["B"], ["A", "B"])])
    >>> r.superset_rate, r.subset_rate, r.missing, r.spurious, r.f1
    (0.5, 0.5, 1.0, 1.0, 0.6666666666666666)

    Edge cases: no answer → every rate None, total 0; no answer scored → Precision,
    Recall and F1 None; no answer missing (or adding) anything → Missing (Spurious)
    None, as SADU's mean of an empty list is not a number."""
    counts: Counter[str] = Counter()
    precision: list[float] = []
    recall: list[float] = []
    f1: list[float] = []
    missing: list[int] = []
    spurious: list[int] = []
    uncomparable = unformed
    for predicted, gold in answers:
        if predicted is None:
            continue
        if predicted == gold:
            kind, overlap = "exact", _size(predicted)
        else:
            found = _overlap(predicted, gold)
            if found is None:
                uncomparable += 1
                continue
            kind, overlap = found
        size = _size(predicted)
        if size is None or overlap is None or not _size(gold):
            uncomparable += 1
            continue
        counts[kind] += 1
        p = overlap / size if size else 0.0
        r = overlap / len(gold)
        precision.append(p)
        recall.append(r)
        f1.append(2 * p * r / (p + r) if p and r else 0.0)
        missing.append(len(gold) - overlap)
        spurious.append(size - overlap)
    total = len(answers) + unformed

    def rate(kind: str) -> float | None:
        return counts[kind] / total if total else None

    return SaduRetrieval(_mean(precision), _mean(recall), _mean(f1), rate("exact"),
                         rate("subset"), rate("superset"), rate("other"),
                         _mean([m for m in missing if m]), _mean([s for s in spurious if s]),
                         total, len(precision), uncomparable)


def _size(value: Any) -> int | None:
    try:
        return len(value)
    except TypeError:
        return None
