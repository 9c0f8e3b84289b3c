"""Parse a True / False / Unknown answer (paper 002, Appendix B: "punctuation wrappers,
sentence envelopes around the answer, paraphrases of True/False"; anything that
cannot be resolved unambiguously is Unknown).

Rules, in order, on the answer with markdown, quotes and brackets removed:
1. the whole answer is one label word or paraphrase (`True`, `{False}`, `**Yes**`, `no.`);
2. it opens with one and a punctuation mark (`False. The arrow …`, `Yes, Dog inherits …`;
   not `No arrow is drawn …`);
3. an envelope names it (`The answer is: True`, `Answer - false`, `Final answer: unknown`);
4. its last line is one;
5. exactly one of the words true / false / unknown occurs in it.
Otherwise it is Unknown, with status `ambiguous` (several labels) or `unparsed` (none).
An answer that offers two labels as alternatives is `ambiguous` whatever rule would
read it (`Answer: True or False`, `True, or maybe false`, `yes/no`, `Yes (or no)`):
it names two values and states neither. A comma alone joins alternatives only between
true, false and unknown (`Yes, no arrow is drawn` is a Yes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Label = Literal["True", "False", "Unknown"]
ReadAs = Literal["parsed", "ambiguous", "unparsed", "empty"]
_WORDS: dict[str, Label] = {
    "true": "True", "yes": "True", "correct": "True", "right": "True", "affirmative": "True",
    "false": "False", "no": "False", "incorrect": "False", "wrong": "False",
    "negative": "False", "unknown": "Unknown", "unclear": "Unknown", "undetermined": "Unknown",
    "unsure": "Unknown", "cannot determine": "Unknown", "can't determine": "Unknown",
    "cannot be determined": "Unknown", "not sure": "Unknown", "uncertain": "Unknown",
}
_WRAPPERS = re.compile(r"[*_`\"'“”‘’{}\[\]()<>]")
_TRAILING = re.compile(r"[\s.!,;:]+$")
_OPENING = re.compile(r"^(" + "|".join(sorted(map(re.escape, _WORDS), key=len, reverse=True))
                      + r")\s*[.!,;:—-]")
_ENVELOPE = re.compile(r"\banswer\s*(?:is|:|-|=)\s*:?\s*(" + "|".join(
    sorted(map(re.escape, _WORDS), key=len, reverse=True)) + r")\b")
_STRONG = re.compile(r"\b(true|false|unknown)\b")
_HEDGE = r"(?:maybe|possibly|perhaps|probably)"
_ALTERNATIVES = re.compile(
    r"\b(true|false|unknown|yes|no)\b(?=(\s*(?:\bor\b|/|,)(?:\s*(?:\bor\b|" + _HEDGE
    + r"\b))*\s*)(true|false|unknown|yes|no)\b)")


@dataclass(frozen=True, slots=True)
class TruthAnswer:
    """`label` is True, False or Unknown; `status` says how it was read: `parsed`,
    `ambiguous` (several labels), `unparsed` (none) or `empty`."""

    label: Label
    status: ReadAs


def _word(text: str) -> Label | None:
    return _WORDS.get(_TRAILING.sub("", text).strip())


def _offers_two(text: str) -> bool:
    """Whether `text` offers two different labels as alternatives."""
    for m in _ALTERNATIVES.finditer(text):
        a, joiner, b = m.group(1), m.group(2), m.group(3)
        if _WORDS[a] == _WORDS[b]:
            continue
        if re.search(r"\bor\b|/", joiner) or {a, b} <= {"true", "false", "unknown"}:
            return True
    return False


def parse_truth(answer: str | None) -> TruthAnswer:
    """The label an answer gives (see the module docstring for the rules)."""
    if answer is None or not answer.strip():
        return TruthAnswer("Unknown", "empty")
    text = " ".join(_WRAPPERS.sub(" ", answer).lower().split())
    if _offers_two(text):
        return TruthAnswer("Unknown", "ambiguous")
    lines = [ln for ln in (_WRAPPERS.sub(" ", x).lower().strip() for x in answer.splitlines())
             if ln]
    for found in (_word(text),
                  _WORDS.get(m.group(1)) if (m := _OPENING.match(text + " ")) else None,
                  _WORDS.get(m.group(1)) if (m := _ENVELOPE.search(text)) else None,
                  _word(" ".join(lines[-1].split())) if lines else None):
        if found:
            return TruthAnswer(found, "parsed")
    strong = {m.group(1) for m in _STRONG.finditer(text)}
    if len(strong) == 1:
        return TruthAnswer(_WORDS[strong.pop()], "parsed")
    return TruthAnswer("Unknown", "ambiguous" if strong else "unparsed")
