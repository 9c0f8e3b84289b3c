"""The two scorers of archqa, selected by ``--scorer``:

- ``sadu``: SADU's public rule-based scorer (paper 003 §3.3.2; its
  src/evaluation/evaluation_rule_based.py) reproduced: its reading
  (`scoring.marked_answer.sadu_read`) and its comparisons, with Python's ``==`` on the
  values read — counts ``answer == gold[0]``; ER cardinalities ``answer == gold[0]``
  after the answer list was *sorted*; methods with every ``()`` removed from the answer,
  then sorted lists compared; "which relation" questions take the answer's first item
  (read as a Python literal when it is a string with brackets — parsed, never
  evaluated) and compare it with the gold's first pair; every other answer as a sorted
  list against the sorted gold (a string answer is sorted into its characters). Where
  SADU's script would crash (sorting a number, removing ``()`` from a number), the
  answer is a parse error.
- ``strict`` (default): the same strict format, compared fairly — a count given as
  ``"6"`` or ``[6]`` equals 6; names compared as sets (duplicates do not matter), case
  kept (the prompt's rule 2: "Name matching is case sensitive"), runs of whitespace
  collapsed; relation types, directions and cardinalities compared without case; ER
  cardinalities in order, one per side; relations as ordered ``[source, target]``
  pairs; methods without their parameter list ``(...)``. An answer found outside the
  markers is scored too, and flagged (`ArchQAScore.where`) as a format violation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from diagbench.benchmarks.archqa.records import Question
from diagbench.scoring.marked_answer import Where, read_marked, sadu_read
from diagbench.scoring.py_literal import parse_literal

Scorer = Literal["sadu", "strict"]
SCORERS: tuple[Scorer, ...] = ("strict", "sadu")
_VOCABULARY = ("type_on_the_relation",)  # answers from a fixed vocabulary: case ignored


@dataclass(frozen=True, slots=True)
class Judged:
    """One answer judged: whether one was read (`read`), correct, where it was found,
    the value read, the normal forms of prediction and gold (a number, or a sorted list
    of items) for the metrics, notes and the reason it could not be read."""

    read: bool
    correct: bool
    answer: Any = None
    where: Where | None = None
    prediction: Any = None
    gold: Any = None
    notes: tuple[str, ...] = ()
    error: str | None = None


def _space(text: str) -> str:
    return " ".join(text.split())


def _item(value: Any) -> str:
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value):
        return f"{_space(value[0])} → {_space(value[1])}"
    return _space(value) if isinstance(value, str) else repr(value)


def gold_form(question: Question, gold: Any) -> Any:
    """The gold answer's normal form: a number, or a sorted list of items."""
    if question.kind == "counting":
        return gold[0] if isinstance(gold, list) and gold else gold
    if question.subtype == "type_on_the_relation" and question.family == "er":
        pair = gold[0] if gold else ["", ""]
        return [f"source: {_space(pair[0]).casefold()}", f"target: {_space(pair[1]).casefold()}"]
    items = [_item(g) for g in gold] if isinstance(gold, list) else [_item(gold)]
    if question.subtype == "entity_contains_certain_method":
        items = [_strip_parameters(i)[0] for i in items]
    if question.subtype in _VOCABULARY:
        items = [i.casefold() for i in items]
    return sorted(set(items))


# ---------------------------------------------------------------- the sadu scorer

def _sadu_compare(question: Question, value: Any, gold: list) -> bool:
    """SADU's comparisons (TypeError and AttributeError where its script crashes;
    ValueError where its eval would fail)."""
    sub = question.subtype
    if question.kind == "counting":
        return bool(value == gold[0])
    if sub == "type_on_the_relation" and question.family == "er":
        return bool(value == gold[0])
    if sub == "entity_contains_certain_method":
        return sorted(x.replace("()", "") for x in value) == sorted(gold)
    if sub == "which_relation_has_certain_label":
        if isinstance(value, list) and len(value) > 0:
            value = value[0]
        if isinstance(value, str) and "[" in value and "]" in value:
            value = parse_literal(value)
        return bool(value == gold[0])
    return sorted(value) == sorted(gold)


def _loose_form(question: Question, value: Any) -> Any:
    """The normal form of an answer SADU read, for the metrics: numbers as they are,
    lists of names as sorted sets (None when it is neither)."""
    if question.kind == "counting":
        return value if isinstance(value, int | float) and not isinstance(value, bool) \
            else None
    if isinstance(value, list) and all(isinstance(v, str | list) for v in value):
        if question.subtype == "type_on_the_relation" and question.family == "er":
            if len(value) == 2 and all(isinstance(v, str) for v in value):
                return [f"source: {_space(value[0]).casefold()}",
                        f"target: {_space(value[1]).casefold()}"]
            return None
        items = [_item(v) for v in value]
        if question.subtype in _VOCABULARY:
            items = [i.casefold() for i in items]
        return sorted(set(items))
    return None


def judge_sadu(question: Question, response: str, gold: Any) -> Judged:
    reading = sadu_read(response)
    if not reading.ok:
        return Judged(False, False, error=reading.error)
    try:
        correct = _sadu_compare(question, reading.value, gold)
    except (TypeError, AttributeError, ValueError, RecursionError) as exc:
        return Judged(False, False, reading.value, "markers",
                      error=f"parse_error ({type(exc).__name__} in SADU's comparison)")
    return Judged(True, correct, reading.value, "markers", _loose_form(question, reading.value),
                  gold_form(question, gold))


# ---------------------------------------------------------------- the strict scorer

_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")
_PARAMETERS = re.compile(r"\s*\([^()]*\)\s*$")


def _strip_parameters(name: str) -> tuple[str, bool]:
    stripped = _PARAMETERS.sub("", name)
    return (stripped, stripped != name) if stripped else (name, False)


def _number(value: Any, notes: list[str]) -> float | int | None:
    if isinstance(value, list) and len(value) == 1:
        notes.append("a one-item list for a number")
        value = value[0]
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return value
    if isinstance(value, str) and _NUMBER.fullmatch(value.strip()):
        notes.append("a number written as a string")
        text = value.strip()
        return float(text) if "." in text else int(text)
    return None


def _names(value: Any, notes: list[str]) -> list[str] | None:
    if isinstance(value, str):
        notes.append("a string for a list")
        value = [value]
    if not isinstance(value, list):
        return None
    out: list[str] = []
    for item in value:
        if isinstance(item, list):
            notes.append("a list of lists, flattened")
            inner = _names(item, notes)
            if inner is None:
                return None
            out.extend(inner)
        elif isinstance(item, str):
            out.append(_space(item))
        elif isinstance(item, int | float) and not isinstance(item, bool):
            notes.append("a number for a name")
            out.append(str(item))
        else:
            return None
    return out


def _pair_of(item: Any, notes: list[str]) -> tuple[str, str] | None:
    if isinstance(item, list) and len(item) == 2 and all(isinstance(v, str) for v in item):
        return _space(item[0]), _space(item[1])
    if isinstance(item, str):
        text = item.strip()
        try:
            parsed = parse_literal(text)
        except ValueError:
            parsed = None
        if isinstance(parsed, list | tuple) and len(parsed) == 2 and \
                all(isinstance(v, str) for v in parsed):
            notes.append("a pair written as a string")
            return _space(parsed[0]), _space(parsed[1])
        inner = text[1:-1] if text.startswith("[") and text.endswith("]") else text
        for separator in (" -> ", " → ", ", ", ","):
            if inner.count(separator) == 1:
                notes.append("a pair written as a string")
                a, b = inner.split(separator)
                return _space(a.strip(" '\"")), _space(b.strip(" '\""))
    return None


def _pairs(value: Any, notes: list[str]) -> list[tuple[str, str]] | None:
    if not isinstance(value, list):
        value = [value]
    if len(value) == 2 and all(isinstance(v, str) for v in value) and \
            not any("[" in v or "->" in v or "→" in v for v in value):
        notes.append("one pair written flat")
        return [(_space(value[0]), _space(value[1]))]
    pairs = [_pair_of(item, notes) for item in value]
    return None if any(p is None for p in pairs) else [p for p in pairs if p is not None]


def _strict_forms(question: Question, value: Any, notes: list[str]) -> Any:
    """The normal form of the answer read (None: not an answer of the right shape)."""
    sub = question.subtype
    if question.kind == "counting":
        return _number(value, notes)
    if sub == "type_on_the_relation" and question.family == "er":
        if isinstance(value, list) and len(value) == 1 and isinstance(value[0], list):
            value = value[0]
        if isinstance(value, list) and len(value) == 2 and \
                all(isinstance(v, str) for v in value):
            return [f"source: {_space(value[0]).casefold()}",
                    f"target: {_space(value[1]).casefold()}"]
        return None
    if sub == "which_relation_has_certain_label":
        pairs = _pairs(value, notes)
        return None if pairs is None else sorted({f"{a} → {b}" for a, b in pairs})
    names = _names(value, notes)
    if names is None:
        return None
    if sub == "entity_contains_certain_method":
        stripped = [_strip_parameters(n) for n in names]
        if any(changed for _, changed in stripped):
            notes.append("parameter lists removed from method names")
        names = [n for n, _ in stripped]
    if sub in _VOCABULARY:
        names = [n.casefold() for n in names]
    if len(set(names)) < len(names):
        notes.append("duplicates ignored")
    return sorted(set(names))


def judge_strict(question: Question, response: str, gold: Any) -> Judged:
    reading = read_marked(response)
    if not reading.ok:
        return Judged(False, False, error=reading.error)
    notes: list[str] = []
    prediction = _strict_forms(question, reading.value, notes)
    expected = gold_form(question, gold)
    if prediction is None:
        notes.append("not an answer of the asked shape")
    correct = prediction is not None and prediction == expected
    return Judged(True, correct, reading.value, reading.where, prediction, expected,
                  tuple(dict.fromkeys(notes)))


def judge(scorer: Scorer, question: Question, response: str | None, gold: Any) -> Judged:
    """`response` to `question` judged by `scorer` against `gold`."""
    if response is None:
        return Judged(False, False, error="no response")
    return (judge_sadu if scorer == "sadu" else judge_strict)(question, response, gold)


def gold_of(question: Question, which: str) -> Any:
    """The gold answer used: as published, or as recomputed (published where diagbench
    recomputes none)."""
    if which == "recomputed" and question.recomputed is not None:
        return question.recomputed
    return question.gold

