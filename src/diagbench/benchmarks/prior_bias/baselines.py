"""The two reference models of the prior-bias benchmark, offline and deterministic.

- `baseline:prior` answers from the class names alone, through the vocabulary: the
  "fully prior-dependent" end of the scale (RelAcc ≈ 100 on prior-conform, ≈ 0 on
  2-reverse). It never looks at the image, so it lists no class names (EM 0) and
  answers Unknown where the names carry no prior (prior-free).
- `baseline:vision-uml` reads the rendered diagram by computer vision and OCR and
  answers from what is drawn; it never consults a prior.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re

from rapidfuzz.distance import Levenshtein

from diagbench.benchmarks.prior_bias.prompts import QUESTIONS
from diagbench.benchmarks.prior_bias.vocabulary import Vocabulary, load_vocabulary
from diagbench.diagram.classes import ClassDiagram
from diagbench.models.offline import one_image, prompt_text
from diagbench.models.request import Request
from diagbench.scoring.name_keys import answer_key

_RELATION = re.compile(r"showing (\w+) relationships")
_QUESTION = {relation: re.compile(re.escape(template).replace(r"\{a\}", "(.+?)")
                                  .replace(r"\{b\}", "(.+?)"))
             for relation, template in QUESTIONS.items()}
_STAGE1 = "List all class names that appear in the UML diagram."


def parse_question(prompt: str) -> tuple[str, str, str]:
    """(relation, class A, class B) of a stage-2 prompt; ValueError for any other text."""
    relation = _RELATION.search(prompt)
    if relation and relation.group(1) in _QUESTION:
        asked = _QUESTION[relation.group(1)].search(prompt)
        if asked:
            return relation.group(1), asked.group(1), asked.group(2)
    raise ValueError("not a prior-bias question (paper 002, Fig. 13)")


@functools.cache
def _vocabulary() -> Vocabulary:
    return load_vocabulary()


def answer_from_prior(request: Request) -> str:
    """The label the class names suggest, without looking at the image."""
    prompt = prompt_text(request)
    if _STAGE1 in prompt:
        return "[]"
    relation, a, b = parse_question(prompt)
    prior = _vocabulary().prior(relation, a, b)
    return "Unknown" if prior is None else str(prior)


def _closest(name: str, read: list[str]) -> str | None:
    """The read class name that is `name` (under 𝒩, else the most similar above 0.6)."""
    key = answer_key(name)
    scored = [(Levenshtein.normalized_similarity(key, answer_key(r)), r) for r in read]
    best = max(scored, default=(0.0, None))
    return best[1] if best[0] >= 0.6 else None


_READINGS: dict[bytes, ClassDiagram] = {}  # by the image's sha256: a reading is a few hundred bytes


def _read(image: bytes) -> ClassDiagram:
    """The image read once for both stages and all its questions (the reader is
    deterministic)."""
    from diagbench.models.baselines.class_reader import read_class_diagram  # heavy: lazy

    key = hashlib.sha256(image).digest()
    if key not in _READINGS:
        _READINGS[key] = read_class_diagram(image)
    return _READINGS[key]


def answer_from_diagram(request: Request) -> str:
    """The class names, or the relation's direction, as read from the image."""
    reading = _read(one_image(request))
    prompt = prompt_text(request)
    if _STAGE1 in prompt:
        return json.dumps(reading.names)
    relation, a, b = parse_question(prompt)
    ra, rb = _closest(a, reading.names), _closest(b, reading.names)
    for found in reading.relations:
        if found.kind == relation and {found.source, found.target} == {ra, rb} and ra != rb:
            return str((found.source, found.target) == (ra, rb))
    return "Unknown"
