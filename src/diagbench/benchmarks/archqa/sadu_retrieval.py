"""Table 7 (retrieval errors) of paper 003 as SADU's analysis script computes it (its
src/result_analyze/retrieval_error_analysis.py, read, not copied): each retrieval answer
read by SADU's reader (the ``sadu`` scorer's `answer`) and put in the form the script
compares, per subtype, then `scoring.metrics.sadu_retrieval`. On SADU's 11 published
default logs this gives Table 7's 88 cells exactly; diagbench's own Table 7
(`summary.retrieval`) follows Eq. 6–11 as §3.3.2 writes them.

The forms (gold as published, with its duplicates):

- ER ``type_on_the_relation``: the answer as read against the gold's first pair;
- ``entity_contains_certain_method``: every ``()`` removed from the answer's items, both
  sorted;
- ``which_relation_has_certain_label``: the answer's first item (a string with brackets
  read as a Python literal, never evaluated; the whole answer when that fails) against
  the gold's first pair;
- every other subtype: both sorted (a string answer sorted into its characters)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import Any

from diagbench.benchmarks.archqa.records import FAMILIES, ArchQAScore, Question
from diagbench.scoring.metrics.sadu_retrieval import sadu_retrieval
from diagbench.scoring.py_literal import parse_literal


def sadu_form(question: Question, answer: Any) -> tuple[Any, Any] | None:
    """(prediction, gold) in the form SADU's script compares (the prediction None when
    the answer was not read); None when the script could not form it."""
    gold = question.gold
    if answer is None:
        return None, gold
    sub = question.subtype
    try:
        if sub == "type_on_the_relation" and question.family == "er":
            return answer, gold[0]
        if sub == "entity_contains_certain_method":
            return sorted(x.replace("()", "") for x in answer), sorted(gold)
        if sub == "which_relation_has_certain_label":
            return _first_relation(answer), gold[0]
        return sorted(answer), sorted(gold)
    except (TypeError, AttributeError, IndexError, KeyError):
        return None


def _first_relation(answer: Any) -> Any:
    value = answer[0] if isinstance(answer, list) and answer else answer
    if isinstance(value, str) and "[" in value and "]" in value:
        try:
            return parse_literal(value)
        except (ValueError, RecursionError):
            return answer
    return value


def sadu_table7(scorer: str, scores: Sequence[ArchQAScore],
                questions: Mapping[str, Question]) -> dict[str, Any] | None:
    """Table 7 per diagram type and over all (`summary.json`'s ``retrieval_sadu``) for a
    run scored by the ``sadu`` scorer (None for another scorer — the answers read are
    not SADU's — or when no retrieval question was asked)."""
    if scorer != "sadu":
        return None
    forms: dict[str, list[tuple[Any, Any] | None]] = {f: [] for f in FAMILIES}
    for s in scores:
        q = questions.get(s.id)
        if q is not None and q.kind == "retrieval":
            forms[q.family].append(sadu_form(q, s.answer))
    if not any(forms.values()):
        return None
    out = {family: _row(pairs) for family, pairs in forms.items()}
    out["all"] = _row([pair for family in FAMILIES for pair in forms[family]])
    return out


def _row(pairs: list[tuple[Any, Any] | None]) -> dict[str, Any] | None:
    if not pairs:
        return None
    formed = [p for p in pairs if p is not None]
    result = sadu_retrieval(formed, len(pairs) - len(formed))
    return {k: round(v, 4) if isinstance(v, float) else v for k, v in asdict(result).items()}
