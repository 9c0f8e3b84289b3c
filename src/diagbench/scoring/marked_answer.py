"""Answers in the strict format of paper 003 (SADU, Fig. 2): a JSON object with the key
"answer" between ``[start]`` and ``[end]`` markers.

Two readers:

`sadu_read` reproduces the reading of SADU's public rule-based scorer
(src/evaluation/evaluation_rule_based.py of its repository) step by step, so published
results can be re-scored like for like — without evaluating any model text as code:

1. a response with ``[start]`` but no ``[end]`` is cut at its last ``",`` and closed
   with ``"]}`` and ``[end]`` (an answer list cut short keeps its complete items);
2. the text between the first ``[start]`` and the first ``[end]`` after it is taken
   (none: ``format_error``) and stripped;
3. repairs: a text ending in ``}]`` has every ``}]`` turned into ``]}``; the copied
   placeholders ``, "x1", "x2", ...``, ``, "x2", ...`` and ``, ...`` are deleted; a text
   starting ``{"answer": "`` has that turned into ``{"answer": ["`` and, when it ends in
   ``"}`` or ``" }``, every ``"}`` and ``" }`` into ``"]}`` (a string answer becomes a
   one-item list; so does ``{"answer": "6"}``);
4. JSON parsing (Python's json rules, NaN and Infinity included; failure:
   ``json_error``); an object without the key "answer" is ``json_key_error``;
5. a list answer is sorted (Python's order; a list mixing strings and numbers, or
   holding objects, makes SADU's script crash: ``sort_error`` here).

Any error means "Parse Error", which SADU counts as wrong.

`read_marked` is the strict reader: the answer is the JSON object in the last
``[start]…[end]`` block that holds one (inside code fences or not); with no such block,
a complete object after the last ``[start]`` whose ``[end]`` is missing
(`open_marker`), else the last JSON object with the key "answer" anywhere in the text
(`outside`) — both are format violations, which the caller counts. No repair: a JSON
object cut short is no answer.

>>> sadu_read('[start]\\n{"answer": ["b", "a"]}\\n[end]').value
['a', 'b']
>>> sadu_read('[start] {"answer": "6"} [end]').value
['6']
>>> r = read_marked('Reasoning first.\\n```json\\n{"answer": 6}\\n```')
>>> r.value, r.where
(6, 'outside')
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal

SaduError = Literal["format_error", "json_error", "json_key_error", "sort_error"]
Where = Literal["markers", "open_marker", "outside"]

_BLOCK = re.compile(r"\[start\](.*?)\[end\]", re.S)
_FENCE = re.compile(r"^```[A-Za-z0-9_-]*\s*\n?(.*?)\n?```$", re.S)


@dataclass(frozen=True, slots=True)
class SaduReading:
    """What SADU's scorer reads from a response: the answer value, or its error."""

    value: Any = None
    error: SaduError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def sadu_repair(response: str) -> str:
    """Step 1: a response with ``[start]`` and no ``[end]`` cut at its last ``",`` and
    closed."""
    if "[start]" in response and "[end]" not in response:
        cut = response.rfind('",')
        if cut != -1:
            response = response[:cut] + '"]}\n[end]'
    return response


def sadu_fix_json(text: str) -> str:
    """Step 3: the JSON repairs, in SADU's order."""
    text = text.strip()
    if text.endswith("}]"):
        text = text.replace("}]", "]}")
    for placeholder in (', "x1", "x2", ...', ', "x2", ...', ", ..."):
        text = text.replace(placeholder, "")
    if text.startswith('{"answer": "'):
        text = text.replace('{"answer": "', '{"answer": ["')
    if text.endswith('"}') or text.endswith('" }'):
        text = text.replace('"}', '"]}').replace('" }', '"]}')
    return text


def sadu_read(response: str) -> SaduReading:
    """The answer SADU's scorer reads from `response` (steps 1–5 above)."""
    match = _BLOCK.search(sadu_repair(response))
    if not match:
        return SaduReading(error="format_error")
    try:
        obj = json.loads(sadu_fix_json(match.group(1).strip()))
    except (json.JSONDecodeError, RecursionError):
        return SaduReading(error="json_error")
    # SADU tests `"answer" in obj`: a list or string holding "answer" then crashes its
    # script on obj["answer"]; a number crashes it at once. Both are errors here.
    if not isinstance(obj, dict) or "answer" not in obj:
        return SaduReading(error="json_key_error")
    value = obj["answer"]
    if isinstance(value, list):
        try:
            value = sorted(value)
        except TypeError:
            return SaduReading(error="sort_error")
    return SaduReading(value)


@dataclass(frozen=True, slots=True)
class MarkedAnswer:
    """The strict reading: the answer value and where it was found, or why there is none
    (`error`: ``empty``, ``cut_short`` — a JSON object begun and not finished —,
    ``no_answer``)."""

    value: Any = None
    where: Where | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.where is not None

    @property
    def violation(self) -> bool:
        return self.where in ("open_marker", "outside")


_DECODER = json.JSONDecoder()


def _object_in(text: str) -> tuple[dict | None, bool]:
    """The JSON object with the key "answer" that `text` is (allowing a code fence and
    surrounding blanks), and whether one was begun but cut short."""
    text = text.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1).strip()
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, text.startswith("{") and exc.pos >= len(text.rstrip("`").rstrip())
    except RecursionError:
        return None, False
    return (obj, False) if isinstance(obj, dict) and "answer" in obj else (None, False)


def _objects_anywhere(text: str) -> list[dict]:
    """Every JSON object with the key "answer" that starts at some ``{`` of `text`."""
    found = []
    for m in re.finditer(r"\{", text):
        try:
            obj, _ = _DECODER.raw_decode(text, m.start())
        except (json.JSONDecodeError, RecursionError):
            continue
        if isinstance(obj, dict) and "answer" in obj:
            found.append(obj)
    return found


def read_marked(response: str) -> MarkedAnswer:
    """The strict reading of `response` (see the module's docstring)."""
    if not response or not response.strip():
        return MarkedAnswer(error="empty")
    cut_short = False
    for block in reversed(_BLOCK.findall(response)):
        obj, cut = _object_in(block)
        if obj is not None:
            return MarkedAnswer(obj["answer"], "markers")
        cut_short = cut_short or cut
    last = response.rfind("[start]")
    if last != -1 and "[end]" not in response[last:]:
        tail = response[last + len("[start]"):]
        obj, cut = _object_in(tail)
        if obj is None:
            objects = _objects_anywhere(tail)
            obj = objects[0] if objects else None
            cut = cut or (obj is None and "{" in tail)
        if obj is not None:
            return MarkedAnswer(obj["answer"], "open_marker")
        cut_short = cut_short or cut
    objects = _objects_anywhere(response)
    if objects:
        return MarkedAnswer(objects[-1]["answer"], "outside")
    return MarkedAnswer(error="cut_short" if cut_short else "no_answer")
