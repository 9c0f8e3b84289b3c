"""The tasks of the structure benchmark (paper 004 §3.4), each with a gold answer from
the code's parsed model or from the generated texts:

- `identification` / `quantification` / `structural` — the facts about the drawing:
  a language's own (`Language.facts`), else the templates over the shared graph and
  sequence models (`templates`: counting questions are quantification), read as yes/no,
  a number, a label or a set of items;
- `association` — which persona would have asked for this diagram: four options
  (A–D), one of them right, or — one time in two — none of them (gold NONE); the
  wrong ones from STRUDEL's contrary-persona categories (`distractors`);
- `problem_match` / `description_match` — does this problem statement (functional
  description) belong to the diagram? Yes for its own (one time in two), no for
  another sample's, of a contrary category or — the harder negative of §3.4 — of the
  same category (`distractors.matched_text`);
- `image_to_code` — write the diagram's code in its FRL; gold the code;
- `caption_match` — which of four captions (the generating model's, Fig. 10) is this
  diagram's, or none of them (NONE, one time in two); the wrong ones from contrary
  categories, one of them of the same category half the time
  (`distractors.caption_options`);
- `model_question` — the closed-ended question the generating model wrote about its
  diagram (Fig. 10, `questions`), with its answer as gold; `answer_type` says how the
  answer is read (choice, yes_no, number, label).

Each task is of one of STRUDEL's five task types (`task_type`, Table 3's columns).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping

from diagbench.benchmarks.structure.distractors import (
    caption_options,
    matched_text,
    persona_options,
)
from diagbench.benchmarks.structure.records import Gold, StructureSample, StructureTask
from diagbench.diagram.facts import TASK_TYPES as FACT_TYPES
from diagbench.diagram.facts import Fact

ANSWER_NUMBER = "Answer with the number only."
ANSWER_CHOICE = ("Answer with the letter of the right option (A, B, C or D), or NONE if "
                 "none of them fits.")
ANSWER_YES_NO = "Answer yes or no."
ANSWER_LABEL = "Answer with the label only, as it is written in the diagram."
#: A language's fact whose answer is a text: a name, a symbol or a code, which the
#: drawing need not write (a map's country, a board's best move).
ANSWER_TEXT = "Answer with the name, symbol or code alone, without explanation."
#: A language's fact whose answer is a set (a molecule's elements, a clade's leaves).
ANSWER_SET = ("Answer with the items only, each once, separated by commas, as the diagram "
              "writes them; answer none if there are none.")
#: The answer instruction of each answer type of a model-written question.
ANSWER_BY_TYPE = {"choice": ANSWER_CHOICE, "yes_no": ANSWER_YES_NO, "number": ANSWER_NUMBER,
                  "label": ANSWER_LABEL}


def fact_question(fact: Fact) -> tuple[str, Gold, str]:
    """(question with its answer instruction, gold, answer type) of a language's fact
    (a list-valued fact asks for the set, read by `scoring.item_sets`)."""
    answer = fact.answer
    if isinstance(answer, bool):
        return f"{fact.question}\n{ANSWER_YES_NO}", "yes" if answer else "no", "yes_no"
    if isinstance(answer, int | float):
        return f"{fact.question}\n{ANSWER_NUMBER}", answer, "number"
    if isinstance(answer, str):
        return f"{fact.question}\n{ANSWER_TEXT}", answer, "label"
    return f"{fact.question}\n{ANSWER_SET}", tuple(answer), "set"


def without_duplicates(tasks: list[StructureTask]) -> tuple[list[StructureTask], int]:
    """(the tasks, each image, prompt and gold asked once — the first kept —, how many
    were dropped): a task repeated would count twice in every accuracy."""
    seen: set[tuple[str, str, str]] = set()
    kept = []
    for t in tasks:
        key = (t.image, t.question, json.dumps(t.gold, sort_keys=True))
        if key not in seen:
            seen.add(key)
            kept.append(t)
    return kept, len(tasks) - len(kept)


def derive(samples: list[StructureSample], seed: int, per_sample: int = 3,
           facts: Mapping[str, list[Fact]] | None = None) -> list[StructureTask]:
    """Every task of every sample (`per_sample` of its facts of each task type at most),
    seeded."""
    rng = random.Random(seed)
    tasks: list[StructureTask] = []
    pools: dict[str, dict[str, list[str]]] = {f: {} for f in ("persona", "problem",
                                                               "description", "caption")}
    for s in samples:
        for field, by_category in pools.items():
            if getattr(s, field):
                by_category.setdefault(s.category, []).append(getattr(s, field))
    numbered: Counter[str] = Counter()  # tasks so far per sample (each task's number)

    def add(s: StructureSample, task: str, question: str, gold: Gold,
            options: list[str] | None = None, answer_type: str | None = None) -> None:
        numbered[s.id] += 1
        tasks.append(StructureTask(
            f"{s.id}/{task}/{numbered[s.id] - 1}", s.id, task, s.category,
            s.language, s.frl, s.image, question, gold,
            None if options is None else tuple(options), answer_type))

    for s in samples:
        asked = [(f.task, fact_question(f)) for f in (facts or {}).get(s.id, [])]
        for task in FACT_TYPES:
            of_type = [q for t, q in asked if t == task]
            for question, gold, kind in rng.sample(of_type, min(per_sample, len(of_type))):
                add(s, task, question, gold, answer_type=kind)
        persona = persona_options(s.persona, s.category, s.domain, pools["persona"], rng)
        if persona is not None:
            add(s, "association", "Which of these persons would most likely have asked for "
                f"this diagram?\n{_listed(persona[0])}\n{ANSWER_CHOICE}", persona[1],
                options=persona[0])
        for task, field, noun in (("problem_match", "problem", "problem statement"),
                                  ("description_match", "description",
                                   "functional description")):
            own = getattr(s, field)
            if not own:
                continue
            text, positive = matched_text(own, s.category, pools[field], rng)
            add(s, task, f"Does this {noun} correspond to the diagram?\n\n\"{text}\"\n\n"
                f"{ANSWER_YES_NO}", "yes" if positive else "no")
        if s.caption:
            made = caption_options(s.caption, s.category, pools["caption"], rng)
            if made is not None:
                add(s, "caption_match", "Which of these captions describes this diagram?\n"
                    f"{_listed(made[0])}\n{ANSWER_CHOICE}", made[1], options=made[0])
        mq = s.model_question
        if mq:
            add(s, "model_question", f"{mq.question}\n{ANSWER_BY_TYPE[mq.type]}",
                mq.answer, answer_type=mq.type)
        add(s, "image_to_code", image_to_code_question(s.frl), s.code)
    return tasks


def _listed(options: list[str]) -> str:
    """The options, one a line: "(A) …"."""
    return "\n".join(f"({letter}) {o}" for letter, o in zip("ABCD", options, strict=True))


def image_to_code_question(frl: str) -> str:
    """The image-to-code task's question for a diagram in `frl` (its title)."""
    return (f"Write the {frl} code that draws exactly this diagram. Give the code in one "
            "fenced code block.")
