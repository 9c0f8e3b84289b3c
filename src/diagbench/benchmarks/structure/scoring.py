"""Scoring of the structure benchmark: strict answer reading (`scoring.strict`,
`scoring.truth`) and the image-to-code score on parsed models (`compare.graph`).

A question is right only when the answer states the gold option, number or yes/no;
an ambiguous or unparsed answer is wrong and counted. A failed call or an unusable
image is no answer: it is wrong too (image-to-code: score 0) and counted by kind
(`ModelSummary.failures`), never left out of the denominators.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from diagbench.benchmarks.asking import Answer
from diagbench.benchmarks.failures import Failures
from diagbench.benchmarks.intervals import grouped, metric_intervals
from diagbench.benchmarks.protocol import DataError, SampleValue
from diagbench.benchmarks.structure.records import (
    Accuracy,
    Gold,
    ImageToCode,
    ModelSummary,
    StructureScore,
    StructureSummary,
    StructureTask,
)
from diagbench.benchmarks.structure.robustness import robustness
from diagbench.benchmarks.structure.table3 import table3, table3_cells
from diagbench.scoring import metrics

_FENCE = re.compile(r"^[ \t]*(```|~~~)[^\n]*\n(.*?)^[ \t]*\1[ \t]*$", re.M | re.S)


def extract_code(text: str | None) -> str | None:
    """The last fenced block of an answer, else the whole answer (None when empty)."""
    if not text or not text.strip():
        return None
    blocks = _FENCE.findall(text + "\n")
    return (blocks[-1][1] if blocks else text).strip("\n") + "\n"


#: How the answer to each question task is read (model_question: its `answer_type`).
ANSWER_TYPE = {"structural": "number", "association": "choice", "problem_match": "yes_no",
               "description_match": "yes_no", "caption_match": "choice"}
_ENVELOPE = re.compile(r"^(?:final\s+answer|the\s+answer\s+is|answer|label)\s*(?:is|:|-|=)\s*",
                       re.I)
_WRAPPERS = " \t*_`\"'“”‘’."
_TWO_LABELS = re.compile(r"\s(?:or|/)\s|,\s*(?:or\s+)?(?:maybe|possibly|perhaps)\s|\s\(or\s",
                         re.I)


def read_label(text: str | None) -> tuple[str, str | None]:
    """(how it was read, the label stated) of a text-label answer: the whole answer when
    it is one line, else its last line; an envelope (`Answer: X`), markdown, quotes and
    a final full stop removed. Compared with the gold by `scoring.labels.labels_match`.

    >>> read_label("**Answer:** 'Order Service'.")
    ('parsed', 'Order Service')
    """
    if not text or not text.strip():
        return "empty", None
    line = [ln for ln in text.strip().splitlines() if ln.strip()][-1].strip(_WRAPPERS)
    label = _ENVELOPE.sub("", line).strip(_WRAPPERS)
    return ("parsed", label) if label else ("unparsed", None)


def read_answer(task: str, text: str | None, gold: Gold, answer_type: str | None = None,
                question: str | None = None) -> tuple[str, Any, bool]:
    """(how it was read, what it states, whether it is right) for a question task
    (`question`: the question asked, whose own numbers an answer may echo)."""
    from diagbench.scoring.item_sets import parse_set, sets_match
    from diagbench.scoring.labels import labels_match
    from diagbench.scoring.strict import parse_choice, parse_number
    from diagbench.scoring.truth import parse_truth

    kind = answer_type or ANSWER_TYPE[task]
    if kind == "set":  # a set gold is a list when read from an exported row
        items = parse_set(text)
        listed = tuple(gold) if isinstance(gold, tuple | list) else (str(gold),)
        return items.status, items.items, sets_match(items.items, listed)
    if kind == "number":
        r = parse_number(text, question)
        value = int(r.value) if isinstance(r.value, float) and r.value.is_integer() \
            else r.value  # "3", not "3.0"
        return r.status, value, value is not None and not isinstance(gold, tuple) \
            and float(value) == float(gold)
    if kind == "choice":
        c = parse_choice(text)
        return c.status, c.value, c.value == gold
    if kind == "label":
        status, label = read_label(text)
        right = label is not None and labels_match(label, str(gold))
        if label is not None and not right and _TWO_LABELS.search(label):
            status = "ambiguous"  # "Order Service or Payment Service": two values
        return status, label, right
    t = parse_truth(text)
    value = {"True": "yes", "False": "no"}.get(t.label)
    status = t.status if t.label != "Unknown" or t.status != "parsed" else "unsure"
    return status, value, value == gold


def score_model(model: str, tasks: list[StructureTask], answers: Mapping[str, Answer],
                data: Path, out_dir: Path | None = None) -> list[StructureScore]:
    """One score per task (in task order); with `out_dir` (the model's directory of the
    run), each predicted code the engine draws is kept as `drawn/TASK.svg` there."""
    from diagbench.languages import named
    from diagbench.languages.rendering import validity

    out: dict[str, StructureScore] = {}
    codes: dict[str, list[tuple[StructureTask, str]]] = {}
    for t in tasks:
        a = answers.get(t.id)
        if a is None or a.status != "ok":
            out[t.id] = _score(model, t, a.status if a else "call_error",
                               error=a.error if a else "no answer")
            continue
        if t.task == "image_to_code":
            code = extract_code(a.text)
            if code is None:
                out[t.id] = _score(model, t, "ok", read="no_code", correct=False, score=0.0,
                                   counts_score=0.0, valid=False, entity_f1=0.0,
                                   relation_f1=0.0)
            else:
                codes.setdefault(t.language, []).append((t, code))
            continue
        read, value, right = read_answer(t.task, a.text, t.gold, t.answer_type, t.question)
        out[t.id] = _score(model, t, "ok", read=read, predicted=value, correct=right,
                           answer_type=t.answer_type)
    for language, items in codes.items():
        drawn = [f"drawn/{t.id}.svg" for t, _ in items]
        results = validity(named(language), [c for _, c in items],
                           keep=[out_dir / d for d in drawn] if out_dir else None)
        for (t, code), (valid, error), image in zip(items, results, drawn, strict=True):
            gold = (data / str(t.gold)).read_text(encoding="utf-8")
            c = named(language).compare_code(gold, code, valid)
            f1s = {field: round(getattr(c, part).f1, 6)  # the graph's parts, if any
                   for part, field in (("entities", "entity_f1"),
                                       ("relations", "relation_f1")) if hasattr(c, part)}
            out[t.id] = _score(model, t, "ok", read="code", score=round(c.score, 6),
                               counts_score=round(c.counts_score, 6), valid=valid,
                               error=error, parts=own_parts(c),
                               drawn=image if out_dir and (out_dir / image).is_file() else None,
                               **f1s)
    if any(t.twin_of is not None or t.original_gold is not None for t in tasks):
        out |= _twins(tasks, answers, out, data)
    return [out[t.id] for t in tasks]


def _twins(tasks: list[StructureTask], answers: Mapping[str, Answer],
           scored: dict[str, StructureScore], data: Path) -> dict[str, StructureScore]:
    """The scores of the twins' tasks (those whose sample is a twin) with their twin's
    family, the original sample, the same question's task on the original (where it was
    asked) and, for a counterfactual question whose answer the edit changed, whether the
    answer states the original's (`StructureScore.habit`: a failed call does not)."""
    from dataclasses import replace

    from diagbench.benchmarks.structure.records import load_samples

    samples = load_samples(data)
    out = {}
    for t in tasks:
        sample = samples.get(t.sample)
        if sample is None or sample.twin is None or sample.twin_of is None:
            if t.twin_of is None and t.original_gold is None:
                continue  # an original's task
            raise DataError(f"{data / 'tasks.jsonl'}: task {t.id} is a twin's (it names "
                            "an original's task or gold) but its sample "
                            f"{t.sample} is " + ("not in samples.jsonl" if sample is None
                                                 else "no twin"))
        habit = None
        if sample.twin.family == "counterfactual" and t.original_gold is not None \
                and t.task != "image_to_code":
            a = answers.get(t.id)
            habit = a is not None and a.status == "ok" and read_answer(
                t.task, a.text, t.original_gold, t.answer_type, t.question)[2]
        out[t.id] = replace(scored[t.id], twin=sample.twin.family, original=sample.twin_of,
                            twin_of=t.twin_of, habit=habit)
    return out


def own_parts(comparison: Any) -> dict[str, float]:
    """The measures of a language's own comparison (`Language.compare`), by name: its
    numbers and yes/no fields (1 or 0), and the F1 of each of its matches (`NAME F1`) —
    Tanimoto, Robinson–Foulds, square accuracy, exact match, …"""
    import dataclasses

    if not dataclasses.is_dataclass(comparison):
        return {}
    out: dict[str, float] = {}
    for f in dataclasses.fields(comparison):
        value = getattr(comparison, f.name)
        if isinstance(value, bool):
            out[f.name] = 1.0 if value else 0.0
        elif isinstance(value, int | float) and f.name != "valid":
            out[f.name] = round(float(value), 6)
        elif isinstance(getattr(value, "f1", None), float):
            out[f"{f.name} F1"] = round(value.f1, 6)
        elif dataclasses.is_dataclass(value):  # a comparison within (the graph of a molecule)
            out |= {f"{f.name} {k}": v for k, v in own_parts(value).items()}
    out.pop("valid", None)
    return out


def _score(model: str, task: StructureTask, status: str, **scored: Any) -> StructureScore:
    """The score record of `task` (`scored`: the fields after `status`)."""
    return StructureScore(model, task.id, task.task, task.category, task.language, task.gold,
                          status, **{"answer_type": task.answer_type} | scored)


#: How an answer read as one was read (any other read is counted unparsed).
_READ = ("parsed", "code")


def _accuracy(rows: list[StructureScore]) -> float | None:
    return metrics.qa_accuracy([bool(r.correct) for r in rows])


def sample_of(task: str) -> str:
    """The sample (source diagram) a task asks about: its id without the task's kind and
    number (``SAMPLE/structural/0`` → ``SAMPLE``)."""
    return task.rsplit("/", 2)[0]


def source_of(score: StructureScore) -> str:
    """The source diagram a score's task asks about, the cluster of its intervals: its
    sample, or a twin's original sample (a diagram and its twins are one cluster)."""
    return score.original or sample_of(score.id)


def sample_values(rows: list[StructureScore]) -> list[SampleValue]:
    """The headline metrics per task, clustered by source diagram (`source_of`):
    "accuracy" (right 1, wrong 0) over the question tasks, "image-to-code" (its score)
    over the image-to-code tasks; a failed call or an unusable image counts wrong (0),
    as the summary counts it."""
    return [SampleValue(r.model, "image-to-code", r.id, source_of(r), r.score or 0.0)
            if r.task == "image_to_code" else
            SampleValue(r.model, "accuracy", r.id, source_of(r), float(bool(r.correct)))
            for r in rows]


def summarize(scores: Mapping[str, list[StructureScore]]) -> StructureSummary:
    """Per model: outcomes, failures, reads, accuracy per task and per task × category ×
    FRL, and the image-to-code scores (mean, counts-only mean, validity) overall and per
    cell, the headline metrics' naive and sample-clustered intervals, and STRUDEL's
    Table 3 (`table3`), and with twins the robustness figures (`robustness`). Every task
    is in its denominators: a failed call or an unusable image is a wrong answer
    (image-to-code: score 0). Twins' scores enter the outcomes, the failures and the
    robustness figures only: every other figure is the originals', as without twins."""
    models: dict[str, ModelSummary] = {}
    for name, every in scores.items():
        rows = [r for r in every if r.twin is None]
        values = grouped(sample_values(rows)).get(name, {})
        questions = [r for r in rows if r.task != "image_to_code"]
        written = [r for r in questions if r.task == "model_question"]
        i2c = [r for r in rows if r.task == "image_to_code"]
        cells: dict[str, list[StructureScore]] = {}
        for r in questions:
            cells.setdefault(f"{r.task}|{r.category}|{r.language}", []).append(r)
        i2c_cells: dict[str, list[StructureScore]] = {}
        for r in i2c:
            i2c_cells.setdefault(f"{r.category}|{r.language}", []).append(r)
        tasks = sorted({r.task for r in questions})
        models[name] = ModelSummary(
            outcomes=dict(sorted(Counter(r.status for r in every).items())),
            failures=Failures.of((r.status, r.error, r.read in _READ) for r in every),
            reads={task: dict(sorted(Counter(r.read for r in questions
                                             if r.task == task and r.status == "ok").items()))
                   for task in tasks},
            accuracy={task: _accuracy([r for r in questions if r.task == task])
                      for task in tasks} | {"all": _accuracy(questions)},
            accuracy_cells={k: Accuracy(len(v), _accuracy(v)) for k, v in sorted(cells.items())},
            model_question_types={
                kind: Accuracy(len(v), _accuracy(v))
                for kind in sorted({r.answer_type for r in written if r.answer_type})
                for v in [[r for r in written if r.answer_type == kind]]},
            image_to_code=_i2c(i2c),
            image_to_code_cells={k: _i2c(v) for k, v in sorted(i2c_cells.items())},
            intervals={metric: metric_intervals(values[metric], scale)
                       for metric, scale in (("accuracy", 100), ("image-to-code", 1))
                       if metric in values},
            table3=table3(rows, {r.id: source_of(r) for r in rows}.__getitem__),
            table3_cells=table3_cells(rows), robustness=robustness(every))
    return StructureSummary(models)


def _i2c(rows: list[StructureScore]) -> ImageToCode:
    """The figures of image-to-code rows (a failed or code-less row counts 0 in every
    mean); the means of the languages' own measures where every row is of one language."""
    n = len(rows)
    if not n:
        return ImageToCode(0, None, None, 0)
    names = list(dict.fromkeys(k for r in rows for k in (r.parts or {})))
    parts = {k: round(sum((r.parts or {}).get(k, 0.0) for r in rows) / n, 6) for k in names} \
        if len({r.language for r in rows}) == 1 else {}
    return ImageToCode(n, round(sum(r.score or 0.0 for r in rows) / n, 6),
                       round(sum(r.counts_score or 0.0 for r in rows) / n, 6),
                       sum(bool(r.valid) for r in rows),
                       round(sum(r.entity_f1 or 0.0 for r in rows) / n, 6),
                       round(sum(r.relation_f1 or 0.0 for r in rows) / n, 6), parts)
