"""Parse a list of class names (paper 002, Fig. 12 asks for a JSON array) and match it
exactly under 𝒩 (`name_keys.answer_key`, §3.2: case folding, punctuation cleanup)."""

from __future__ import annotations

import json
import re

from diagbench.scoring.name_keys import answer_key

_ARRAY = re.compile(r"\[[^\[\]]*\]", re.S)
_ITEM = re.compile(r"""\s*["'`]?(.*?)["'`]?\s*$""", re.S)


def parse_name_list(answer: str | None) -> list[str] | None:
    """The names of the last JSON array in `answer`, also when it is near-JSON (single
    quotes, unquoted names, trailing commas, code fences); None when there is none."""
    if not answer:
        return None
    arrays = _ARRAY.findall(answer)
    if not arrays:
        return None
    text = arrays[-1]
    try:
        value = json.loads(text)
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return [v.strip() for v in value if v.strip()]
    except json.JSONDecodeError:
        pass
    items = [_unquote(item) for item in text[1:-1].split(",")]
    return [item for item in items if item]


def _unquote(item: str) -> str:
    """One item of a near-JSON array, without its spaces and quotes."""
    match = _ITEM.match(item)
    assert match is not None  # every part of _ITEM is optional: it matches any text
    return match.group(1).strip()


def names_match(predicted: list[str] | None, gold: list[str]) -> bool:
    """Exact match of the name sets under 𝒩 (EM); an unparsed list never matches."""
    return predicted is not None and {answer_key(n) for n in predicted} == {
        answer_key(n) for n in gold}
