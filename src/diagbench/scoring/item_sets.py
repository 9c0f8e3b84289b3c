"""Strict reading of an answer that names a set of items (the elements of a molecule,
the leaves of a clade, the conserved positions of a logo), and its exact match with the
gold set: every item right, none missing, none extra, order and repeats ignored, each
item compared under `name_keys.label_key` (case, spaces, punctuation and accents
folded; sharps and flats kept).

The items are read from, in order:

1. the JSON array that ends the answer, also near-JSON (`names.parse_name_list`:
   `["C", "O"]`, `['C', 'O',]`, `[C, O]`, in a code fence or not);
2. a list of two or more bullet or numbered lines (`- C`, `* C`, `1. C`): the last
   such run of lines;
3. the whole answer, when it is one line, else its last line: an envelope
   (`Answer:`, `The answer is`, `Final answer -`) and then anything up to a colon left
   out (`The elements are: C, O`), the items split at commas, semicolons, `and` and `&`.

An answer that is only "none" (`None.`, `nothing`, `none of them`, `There are none`) or
`[]` is the empty set. Lines without bullets are not a list: `C` then `N` on the next
line is read as its last line, `N`. A remark in brackets after an item is left out
(`C (carbon)` is `C`). An item that offers alternatives (`C or N`, `maybe O`, `N?`)
makes the answer `ambiguous`; an item of more than `MAX_WORDS` words is a sentence,
not an item, and the answer `unparsed`. Both are wrong, and counted.

>>> parse_set("Answer: C, N and O.")
SetReading(items=('C', 'N', 'O'), status='parsed')
>>> sets_match(parse_set("o, c, n, C").items, ("C", "N", "O"))
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from diagbench.scoring.name_keys import label_key
from diagbench.scoring.names import parse_name_list
from diagbench.scoring.strict import ReadAs

#: The most words one item may have (a functional group's name has at most four).
MAX_WORDS = 5
_EMPHASIS = re.compile(r"[*_`\"“”]")
_BULLET = re.compile(r"^\s*(?:[-*•+]|\d+[.)])\s+(?P<item>\S.*)$")
_ENVELOPE = re.compile(r"^\s*(?:final\s+answer|the\s+answer\s+is|answer)\s*(?:is|:|-|=)?\s*",
                       re.I)
_SEPARATOR = re.compile(r"\s*(?:[,;&]|\band\b)\s*", re.I)
_ALTERNATIVE = re.compile(r"\bor\b|\beither\b|\bmaybe\b|\bpossibly\b|\bperhaps\b|\?", re.I)
_NONE = {"none", "nothing", "noneofthem", "thereisnone", "therearenone", "emptyset"}
_WRAPPERS = " \t'‘’()[]{}."
_REMARK = re.compile(r"\s+\([^()]*\)\s*$")


@dataclass(frozen=True, slots=True)
class SetReading:
    """The items an answer names, in its order (None unless `status` is parsed), and
    how it was read: `parsed`, `ambiguous`, `unparsed` or `empty`."""

    items: tuple[str, ...] | None
    status: ReadAs


def _items_of_line(line: str) -> list[str]:
    line = _ENVELOPE.sub("", line, count=1)
    if ":" in line:
        line = line.rsplit(":", 1)[1]
    return [part for part in _SEPARATOR.split(line.strip().rstrip(".")) if part.strip()]


def _bullets(lines: list[str]) -> list[str]:
    """The items of the last run of two or more bullet or numbered lines."""
    runs: list[list[str]] = []
    current: list[str] = []
    for line in [*lines, ""]:
        m = _BULLET.match(line)
        if m:
            current.append(m.group("item"))
        else:
            if len(current) >= 2:
                runs.append(current)
            current = []
    return runs[-1] if runs else []


def parse_set(answer: str | None) -> SetReading:
    """The set of items `answer` names (see the module's docstring for the rules)."""
    if answer is None or not answer.strip():
        return SetReading(None, "empty")
    listed = parse_name_list(answer) if answer.rstrip().rstrip("`.").rstrip().endswith("]") \
        else None
    lines = [ln for ln in answer.splitlines() if ln.strip()]
    if listed is not None:
        raw = listed
    elif bullets := _bullets(lines):
        raw = bullets
    else:
        last = _EMPHASIS.sub("", lines[-1])
        if label_key(_ENVELOPE.sub("", last, count=1)) in _NONE:
            return SetReading((), "parsed")
        raw = _items_of_line(last)
    items = [_REMARK.sub("", _EMPHASIS.sub("", item)).strip(_WRAPPERS) for item in raw]
    items = [item for item in items if label_key(item)]
    if any(_ALTERNATIVE.search(item) for item in items):
        return SetReading(None, "ambiguous")
    if not items and listed is None:
        return SetReading(None, "unparsed")
    if any(len(item.split()) > MAX_WORDS for item in items):
        return SetReading(None, "unparsed")
    return SetReading(tuple(items), "parsed")


def sets_match(items: Sequence[str] | None, gold: Sequence[str]) -> bool:
    """Whether the items read are exactly the gold set under `label_key` (an answer
    not read never matches)."""
    return items is not None and {label_key(i) for i in items} == {label_key(g) for g in gold}
