"""Strict readers of a multiple-choice letter and of a number (paper 004 §5.1 scores
"(A)…(D) or NONE", and numbers), the fix of the anchor's substring matching: gold "A"
is not found in "Answer: (B)", "3" not in "13 classes", "no" not in "Not sure".

An answer states its choice or number when, on the answer with markdown removed,

1. the whole answer is it (`B`, `(B)`, `**NONE**`, `3`, `3.`),
2. an envelope names it (`Answer: (B)`, `The answer is 7`, `Final answer - NONE`),
3. its last line is it (or an envelope on that line),
4. it opens with it and a punctuation mark or a space and words (`B) Because …`,
   `12 classes are drawn`; a choice only when followed by `)`, `.`, `:` or `,`);

otherwise it is read as one only when exactly one candidate occurs in it (a lone
`(C)`; a lone number, also before a full stop: `There are 12.`). Several different
candidates are `ambiguous`, none `unparsed`: both are wrong, and counted. A number is a
candidate when it stands alone: not inside a word (`H2O`, `v2`) nor a dotted version or
date (`1.2.3`), nor a list item's number (`1. Gateway`, `- 2. Queue` opening a line); `12.5` is one
number.

A number the question names (`Which base pairs with base 27?`) is not a candidate when
the answer echoes it beside another (`Base 27 pairs with base 52.` is 52), nor the
opening number of rule 4; it is still read when it is the answer's only number, or when
rules 1–3 state it (`Answer: 27`). A value that rules 2–4 find is `ambiguous` too when
another value is offered beside it as an alternative (`Answer: 3 or 4`, `3 (or 4)`,
`3, maybe 4`, `3-4`, `3 classes or 4`, `Answer: A or B`, `(B), maybe (C)`): an answer
naming two values states neither. Yes/no answers are read by `scoring.truth.parse_truth`
("Not sure" is Unknown: wrong).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

ReadAs = Literal["parsed", "ambiguous", "unparsed", "empty"]
_MARKDOWN = re.compile(r"[*_`\"“”]")
_ENVELOPE = r"(?:final\s+answer|the\s+answer\s+is|answer|option|choice)\s*(?:is|:|-|=)?\s*:?\s*"
_CHOICE = r"\(?\b(?P<c>[A-D]|NONE)\b\)?"
_NUMBER = r"(?P<n>[-+]?\d+(?:\.\d+)?)"
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
#: A number standing alone (see the module's docstring), with its sign: a candidate
#: answer; and without its sign: a value beside which another may be offered (`3 -4`).
_CANDIDATE = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?!\w|\.\d)")
_NUMBER_TOKEN = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?!\w|\.\d)")
#: What follows a list item's number (`1. Gateway`) that opens its line, and what may
#: stand before it there (blanks, a bullet, a quote mark).
_LIST_ITEM = re.compile(r"\.[ \t]+\S")
_BULLET = re.compile(r"[\s\-+•>#]*")
_CHOICE_TOKEN = re.compile(r"\(?(?<![\w'])([A-D]|NONE)(?![\w'])\)?")
_HEDGE = r"(?:or|maybe|possibly|perhaps|probably)"
#: What may stand between two values offered as alternatives: a joining mark or word
#: (or, to, and, a comma, a slash, a dash, a hedge), with brackets and blanks around —
#: or one word (a unit) and then "or" or "to" (`3 classes or 4`).
ALTERNATIVE = re.compile(
    rf"^[\s()\[\]]*(?:(?:,|;|/|-|–|—|~|\bor\b|\bto\b|\band\b|\bvs\b\.?|\b{_HEDGE}\b)"
    rf"(?:[\s,()\[\]]*\b{_HEDGE}\b)*|[A-Za-z]+\s+(?:or|to)\b(?:\s*\b{_HEDGE}\b)?)"
    r"[\s()\[\]]*$", re.I)


@dataclass(frozen=True, slots=True)
class Reading:
    """What an answer states (None unless `status` is parsed) and how it was read."""

    value: str | float | None
    status: ReadAs


def _clean(answer: str) -> str:
    return _MARKDOWN.sub("", answer).strip()


def offered_with_another(text: str, start: int, end: int,
                         tokens: Sequence[tuple[int, int, object]]) -> bool:
    """Whether the value at `start`…`end` of `text` has a different value beside it
    joined as an alternative (`ALTERNATIVE`); `tokens` are the values of `text` as
    (start, end, value), in order."""
    here = next((i for i, (a, b, _) in enumerate(tokens) if a <= start and end <= b), None)
    if here is None:
        return False
    value = tokens[here][2]
    for other in (here - 1, here + 1):
        if 0 <= other < len(tokens) and tokens[other][2] != value:
            left, right = sorted((tokens[here], tokens[other]))
            if ALTERNATIVE.match(text[left[1]:right[0]]):
                return True
    return False


def _choice_tokens(text: str, options: tuple[str, ...]) -> list[tuple[int, int, object]]:
    return [(m.start(), m.end(), m.group(1)) for m in _CHOICE_TOKEN.finditer(text)
            if m.group(1) in options and (m.group(0).startswith("(") or not re.match(
                r"\s+(?!or\b|and\b)[a-z]", text[m.end():]))]


def parse_choice(answer: str | None, options: tuple[str, ...] = ("A", "B", "C", "D", "NONE")
                 ) -> Reading:
    """The option an answer states: a letter or NONE (upper case).

    >>> parse_choice("Answer: (B)")
    Reading(value='B', status='parsed')
    >>> parse_choice("A or B").status
    'ambiguous'
    """
    if answer is None or not answer.strip():
        return Reading(None, "empty")
    text = _clean(answer)
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    whole = re.compile(rf"^\s*{_CHOICE}\s*[.!]?\s*$")
    envelope = re.compile(rf"{_ENVELOPE}{_CHOICE}", re.I)
    opening = re.compile(r"^\s*\(?(?P<c>[A-D]|NONE)(?:\)|\.|:|,)")
    for pattern, target in ((whole, text), (envelope, text), (whole, lines[-1] if lines else ""),
                            (envelope, lines[-1] if lines else ""), (opening, text)):
        m = pattern.search(target)
        if m and m.group("c").upper() in options:
            if offered_with_another(target, m.start("c"), m.end("c"),
                                    _choice_tokens(target, options)):
                return Reading(None, "ambiguous")
            return Reading(m.group("c").upper(), "parsed")
    found = _candidates(text, options)
    if len(found) == 1:
        return Reading(found.pop(), "parsed")
    return Reading(None, "ambiguous" if found else "unparsed")


def _candidates(text: str, options: tuple[str, ...]) -> set[str]:
    """Options written as `(X)`, or as a capital letter standing alone, or NONE."""
    found = {m.group(1) for m in re.finditer(r"\(([A-D])\)", text)}
    for m in re.finditer(r"(?<![\w'])([A-D])(?![\w'])", text):
        if not re.match(r"\s+(?!or\b|and\b)[a-z]", text[m.end():]):  # not "A class …"
            found.add(m.group(1))
    if re.search(r"\bNONE\b", text):
        found.add("NONE")
    return {f for f in found if f in options}


def _numbers(text: str, pattern: re.Pattern[str] = _CANDIDATE
             ) -> list[tuple[int, int, float]]:
    """The numbers of `text` (`pattern`: with or without sign) as (start, end, value),
    list items' numbers left out."""
    out = []
    for m in pattern.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        if _BULLET.fullmatch(text, line_start, m.start()) and _LIST_ITEM.match(text, m.end()):
            continue
        out.append((m.start(), m.end(), float(m.group(0))))
    return out


def question_numbers(question: str | None) -> frozenset[float]:
    """The numbers `question` names, which an answer may echo.

    >>> sorted(question_numbers("Which base pairs with base 27? Answer with the number."))
    [27.0]
    """
    if not question:
        return frozenset()
    text = _plain(question)
    return frozenset(value for _, _, value in _numbers(text))


def _plain(text: str) -> str:
    """`text` without markdown and without thousands separators (`1,200` is 1200)."""
    return _THOUSANDS.sub("", _clean(text))


def parse_number(answer: str | None, question: str | None = None) -> Reading:
    """The number an answer states (a float; 3 and 3.0 are the same); `question`, when
    given, names the numbers an answer may echo (see the module's docstring).

    >>> parse_number("13 classes")
    Reading(value=13.0, status='parsed')
    >>> parse_number("either 3 or 4").status
    'ambiguous'
    >>> parse_number("Base 27 pairs with base 52.", "Which base pairs with base 27?")
    Reading(value=52.0, status='parsed')
    """
    if answer is None or not answer.strip():
        return Reading(None, "empty")
    text = _plain(answer)
    echoed = question_numbers(question)
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    whole = re.compile(rf"^\s*{_NUMBER}\s*[.!]?\s*$")
    envelope = re.compile(rf"{_ENVELOPE}{_NUMBER}", re.I)
    opening = re.compile(rf"^\s*{_NUMBER}(?:[.:)]\s|\s+[A-Za-z])")
    for pattern, target in ((whole, text), (envelope, text), (whole, lines[-1] if lines else ""),
                            (envelope, lines[-1] if lines else ""), (opening, text)):
        m = pattern.search(target)
        if m and not (pattern is opening and float(m.group("n")) in echoed):
            if offered_with_another(target, m.start("n"), m.end("n"),
                                    _numbers(target, _NUMBER_TOKEN)):
                return Reading(None, "ambiguous")
            return Reading(float(m.group("n")), "parsed")
    found = {value for _, _, value in _numbers(text)}
    fresh = found - echoed or found
    if len(fresh) == 1:
        return Reading(fresh.pop(), "parsed")
    return Reading(None, "ambiguous" if fresh else "unparsed")
