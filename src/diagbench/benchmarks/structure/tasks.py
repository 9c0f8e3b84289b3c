"""The tasks of the structure benchmark (paper 004 §3.4), each with a gold answer from
the code's parsed model or from the generated texts:

- `identification` / `quantification` / `structural` — the facts about the drawing:
  a language's own (`Language.facts`), else the templates over the shared graph and
  sequence models (`templates`: counting questions are quantification), read as yes/no,
  a number, a label or a set of items;
- `association` — which persona would have asked for this diagram: four options
  (A–D), one of them right, or — one time in five — none of them (gold NONE);
  distractors are personas of other samples;
- `problem_match` / `description_match` — does this problem statement (functional
  description) belong to the diagram? Yes for its own, no for another sample's of the
  same category (the harder negative of §3.4) when there is one, else of any;
- `image_to_code` — write the diagram's code in its FRL; gold the code;
- `caption_match` — which of four captions (the generating model's, Fig. 10) is this
  diagram's, or none of them (NONE); distractors from the same category first
  (`captions.caption_options`);
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

from diagbench.benchmarks.structure.captions import caption_options
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
    by_category: dict[str, list[StructureSample]] = {}
    for s in samples:
        by_category.setdefault(s.category, []).append(s)
    personas = sorted({s.persona for s in samples})
    numbered: Counter[str] = Counter()  # tasks so far per sample (each task's number)
    # the samples with a problem statement, description, caption: per category and all ("")
    texts = {noun: {c: [(o, text_of(o)) for o in group if text_of(o)]
                    for c, group in [*by_category.items(), ("", samples)]}
             for noun, text_of in (("problem statement", _problem),
                                   ("functional description", _description))}
    captions = {c: [o.caption for o in group if o.caption]
                for c, group in [*by_category.items(), ("", samples)]}

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
        others = [p for p in personas if p != s.persona]
        if len(others) >= 4:
            options = rng.sample(others, 4)
            none_case = rng.random() < 0.2
            if not none_case:
                options[rng.randrange(4)] = s.persona
            gold = "NONE" if none_case else "ABCD"[options.index(s.persona)]
            listed = "\n".join(f"({letter}) {p}" for letter, p in zip("ABCD", options,
                                                                       strict=True))
            add(s, "association", "Which of these persons would most likely have asked for "
                f"this diagram?\n{listed}\n{ANSWER_CHOICE}", gold, options=options)
        for task, text_of, noun in (("problem_match", _problem, "problem statement"),
                                    ("description_match", _description,
                                     "functional description")):
            own = text_of(s)
            if not own:
                continue
            pool = [o for o, text in texts[noun][s.category] if text != own] or \
                [o for o, text in texts[noun][""] if text != own]
            positive = not pool or rng.random() < 0.5
            text = own if positive else text_of(rng.choice(pool))
            add(s, task, f"Does this {noun} correspond to the diagram?\n\n\"{text}\"\n\n"
                f"{ANSWER_YES_NO}", "yes" if positive else "no")
        if s.caption:
            made = caption_options(s.caption, captions[s.category], captions[""], rng)
            if made is not None:
                listed = "\n".join(f"({letter}) {c}" for letter, c in zip("ABCD", made[0],
                                                                          strict=True))
                add(s, "caption_match", "Which of these captions describes this diagram?\n"
                    f"{listed}\n{ANSWER_CHOICE}", made[1], options=made[0])
        mq = s.model_question
        if mq:
            add(s, "model_question", f"{mq.question}\n{ANSWER_BY_TYPE[mq.type]}",
                mq.answer, answer_type=mq.type)
        add(s, "image_to_code", f"Write the {s.frl} code that draws exactly this diagram. "
            "Give the code in one fenced code block.", s.code)
    return tasks


def _problem(s: StructureSample) -> str | None:
    return s.problem


def _description(s: StructureSample) -> str | None:
    return s.description
