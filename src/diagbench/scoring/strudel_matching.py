"""STRUDEL's own scoring rules, reproduced to compare with diagbench's strict reading.

Question tasks (`strudel_match`): the text after the model's last ``</think>``, with
``*``, ``boxed`` and the ``<|begin_of_box|>``/``<|end_of_box|>`` markers removed, is
cut into windows of len(gold) + 15 characters — its start and, when the text is
longer than that, its end and what follows the first "nswer:" and the first
"answer is" — and the answer is right when the gold is a substring of one of them
(case-sensitive for a letter A–D, else case-insensitive; a gold yes/no also matches
"true"/"false"). Its flaws, which the strict reading does not share:

- any letter in the window counts: gold "A" matches "Answer: (B)" (the "A" of
  "Answer"), and any answer of fewer than 16 characters containing a capital A;
- a number matches inside another: gold "3" matches "13" and "30";
- a word matches inside another: gold "no" matches "none", "not", "know", "unknown";
- a window of the start or the end is read whatever the answer concludes: "Yes, … —
  no wait, the answer is no" matches both golds;
- a map's multi-word country is searched by one of its words (`COUNTRY_WORD`: "South
  Africa" by "South", which "South Korea" also holds).

Image-to-code (`strudel_code_score`): (renders + F1 of the node-type counts) / 2, the
F1 of `node_type_f1`; edges, labels and layout are not compared, so a code drawing the
right number of boxes of each type, wired anyhow, scores 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

#: The one word STRUDEL searches a map's multi-word country gold by.
COUNTRY_WORD = {
    "North Macedonia": "Macedonia", "United Arab Emirates": "Arab",
    "Central African Republic": "Africa", "Bosnia and Herzegovina": "Bosnia",
    "Sri Lanka": "Lanka", "Papua New Guinea": "Guinea", "South Africa": "South",
    "Saudi Arabia": "Arabia", "Dominican Republic": "Dominican", "Sierra Leone": "Sierra",
    "United Kingdom": "Kingdom", "Trinidad and Tobago": "Trinidad", "South Korea": "Korea",
    "Costa Rica": "Rica", "United States of America": "America"}
#: Characters added to the gold's length to size a window.
WINDOW_SLACK = 15
_MARKERS = ("*", "<|begin_of_box|>", "<|end_of_box|>", "boxed")
_LETTERS = ("A", "B", "C", "D")


@dataclass(frozen=True, slots=True)
class StrudelMatch:
    """STRUDEL's verdict on one answer: right or not, and the window the gold was found
    in (None when wrong)."""

    correct: bool
    window: str | None = None


def final_text(text: str) -> str:
    """The answer as STRUDEL reads it: after the last ``</think>``, markers removed,
    surrounding white space stripped."""
    after = text.rsplit("</think>", 1)[-1].strip()
    for marker in _MARKERS:
        after = after.replace(marker, "")
    return after


def windows(text: str, gold: str) -> list[str]:
    """The windows of `text` (already `final_text`) searched for `gold`."""
    size = len(gold) + WINDOW_SLACK
    out = [text[:size]]
    if size < len(text):
        out.append(text[len(text) - size:])
        for cue in ("nswer:", "answer is"):
            if cue in text:
                out.append(text.split(cue, 1)[1][:size])
    return out


def strudel_match(text: str | None, gold: str) -> StrudelMatch:
    """STRUDEL's verdict on the answer `text` to a question whose gold is `gold`.

    >>> strudel_match("Answer: (B)", "A")
    StrudelMatch(correct=True, window='Answer: (B)')
    """
    if not text:
        return StrudelMatch(False)
    gold = gold.strip()
    letter = gold in _LETTERS
    wanted = [gold] if letter else [gold.lower()]
    if not letter and wanted[0] in ("yes", "no"):
        wanted.append({"yes": "true", "no": "false"}[wanted[0]])
    for window in windows(final_text(text), gold):
        seen = window if letter else window.lower()
        if any(w in seen for w in wanted):
            return StrudelMatch(True, window)
    return StrudelMatch(False)


def node_type_f1(gold: Mapping[str, int], predicted: Mapping[str, int]) -> float:
    """F1 of two multisets of node types given as counts (types counted 0 left out):
    true positives the sum of the smaller counts; both empty is 1."""
    gold = {k: v for k, v in gold.items() if v > 0}
    predicted = {k: v for k, v in predicted.items() if v > 0}
    if not gold and not predicted:
        return 1.0
    tp = sum(min(n, predicted.get(k, 0)) for k, n in gold.items())
    if tp == 0:
        return 0.0
    precision, recall = tp / sum(predicted.values()), tp / sum(gold.values())
    return 2 * precision * recall / (precision + recall)


def strudel_code_score(renders: bool, f1: float) -> float:
    """STRUDEL's image-to-code score: the mean of renders (1 or 0) and the node-type
    F1."""
    return (float(renders) + f1) / 2
