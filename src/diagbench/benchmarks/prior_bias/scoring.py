"""The two-stage protocol of paper 002_b0dc7d344efc1856.txt §3.2 over a built
benchmark: what is asked, how answers are scored, and the summary.

Stage 1 asks once per image for the class names (EM); stage 2 asks each
instance's relation question, the class names given as in Fig. 13 (RelAcc).
Answers are parsed deterministically (`diagbench.scoring`). A failed call is not
an answer: it is counted and left out of the metrics.

Twins (`prior_bias.twins`) are asked like any instance; their scores name their
family and original, and a counterfactual's whether it was answered with the
original's gold (`habit`). Every figure of the paper (RelAcc, EM, Δ, the prerequisite,
their intervals) is the originals' alone, as without twins; the twins enter the counts
of calls and the robustness figures (`prior_bias.robustness`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from itertools import zip_longest
from pathlib import Path
from typing import Literal

from diagbench.benchmarks.asking import Answer, Ask
from diagbench.benchmarks.intervals import grouped, metric_intervals
from diagbench.benchmarks.jsonl import read_jsonl
from diagbench.benchmarks.prior_bias.generate import CONDITIONS, CONFLICT, diagram_of
from diagbench.benchmarks.prior_bias.prompts import SYSTEM, stage1, stage2
from diagbench.benchmarks.prior_bias.records import (
    Cell,
    Item,
    ModelSummary,
    PriorBiasScore,
    PriorBiasSummary,
)
from diagbench.benchmarks.prior_bias.robustness import robustness
from diagbench.benchmarks.prior_bias.vocabulary import RELATIONS
from diagbench.benchmarks.protocol import DataError, SampleValue
from diagbench.scoring import metrics
from diagbench.scoring.names import names_match, parse_name_list
from diagbench.scoring.truth import parse_truth


def load_items(data: Path, scales: tuple[str, ...] = ()) -> tuple[list[Item], tuple[str, ...]]:
    """The instances of `data`/manifest.jsonl and the scales to run."""
    path = data / "manifest.jsonl"
    if not path.is_file():
        raise DataError(f"{path}: no such file (build one with diagbench build prior-bias)")
    items = []
    for number, row in read_jsonl(path):
        try:
            items.append(Item.from_json(row))
        except (KeyError, TypeError, ValueError) as exc:
            raise DataError(f"{path}:{number}: not an instance ({type(exc).__name__}: "
                            f"{exc})") from None
    if items and not items[0].images:
        raise DataError(f"{path}: planned only, no images (build it without --plan)")
    available = tuple(items[0].images) if items else ()
    unknown = [s for s in scales if s not in available]
    if unknown:
        raise DataError(f"{path}: no images at scale {', '.join(unknown)} "
                        f"(built: {', '.join(available)})")
    return items, scales or available


def stratified(items: list[Item], limit: int, seed: int = 0) -> list[Item]:
    """`limit` original items sampled evenly from every condition × relation cell (a
    seeded shuffle per cell, then one from each cell in turn while any is left), with
    their twins, in manifest order."""
    cells: dict[tuple[str, str], list[int]] = {}
    for k, item in enumerate(items):
        if item.twin is None:
            cells.setdefault((item.condition, item.relation), []).append(k)
    rng = random.Random(seed)
    queues = [rng.sample(ks, len(ks)) for _, ks in sorted(cells.items())]
    turns = [k for turn in zip_longest(*queues) for k in turn if k is not None]
    chosen = {items[k].id for k in turns[:limit]}
    return [item for item in items if (item.twin_of or item.id) in chosen]


def asks(data: Path, items: list[Item], scales: tuple[str, ...]) -> list[Ask]:
    """Per scale: stage 1 once per diagram, then stage 2 once per instance."""
    out = []
    for scale in scales:
        for item in {i.diagram: i for i in items}.values():
            out.append(Ask(f"names:{item.diagram}@{scale}",
                           stage1(item.relation, list(item.classes)),
                           data / item.images[scale].path, SYSTEM))
        out += [Ask(f"{item.id}@{scale}", stage2(item.relation, list(item.classes), item.query),
                    data / item.images[scale].path, SYSTEM) for item in items]
    return out


def score(model: str, items: list[Item], scales: tuple[str, ...],
          answers: Mapping[str, Answer]) -> list[PriorBiasScore]:
    """One record per instance × scale, from its two answers (a counterfactual twin's
    `habit` against its original's gold, where the original is among `items`)."""
    golds = {item.id: item.gold for item in items if item.twin is None}
    return [_score(model, item, scale, answers[f"names:{item.diagram}@{scale}"],
                   answers[f"{item.id}@{scale}"], golds.get(item.twin_of or ""))
            for scale in scales for item in items]


def _label(gold: bool) -> Literal["True", "False"]:
    return "True" if gold else "False"


def _score(model: str, item: Item, scale: str, names: Answer, answer: Answer,
           original: bool | None = None) -> PriorBiasScore:
    listed = parse_name_list(names.text) if names.status == "ok" else None
    truth = parse_truth(answer.text) if answer.status == "ok" else None
    gold = _label(item.gold)
    status = _status(truth is not None, names, answer)
    habit = None
    if item.twin is not None and item.twin.family == "counterfactual" \
            and original is not None and original != item.gold:
        habit = status == "ok" and truth is not None and truth.label == _label(original)
    return PriorBiasScore(
        model, item.id, item.condition, item.relation, scale, gold, status,
        answer.error or names.error,
        truth.label if truth else None, truth.status if truth else None,
        truth is not None and truth.label == gold, None if listed is None else tuple(listed),
        names_match(listed, list(item.classes)),
        twin=item.twin.family if item.twin else None, twin_of=item.twin_of, habit=habit)


def _status(read: bool, names: Answer, answer: Answer
            ) -> Literal["ok", "error", "image_error"]:
    """ok when both answers were read; image_error when an image could not be sent
    (missing or unreadable); error otherwise (a failed call, an answer not read)."""
    if "image_error" in (names.status, answer.status):
        return "image_error"
    return "ok" if read and names.status == "ok" else "error"


def _select(records: list[PriorBiasScore], **fields: str) -> list[PriorBiasScore]:
    """The records whose fields have the given values."""
    return [r for r in records if all(getattr(r, k) == v for k, v in fields.items())]


def sample_values(records: list[PriorBiasScore]) -> list[SampleValue]:
    """Each answered original instance × scale's right (1) or wrong (0) as "RelAcc
    CONDITION" (pooled over the condition's cells), clustered by its diagram."""
    return [SampleValue(r.model, f"RelAcc {r.condition}", f"{r.id}@{r.scale}",
                        diagram_of(r.id), float(r.correct)) for r in records
            if r.status == "ok" and r.twin is None]


def _intervals(records: list[PriorBiasScore], delta: float | None,
               delta_ci: tuple[float, float] | None, clustered: tuple | None
               ) -> dict[str, dict]:
    """Δ with its stratified (naive) and diagram-clustered bootstrap intervals and the
    clustered bootstrap SE (n and diagrams: the answers of the two conditions it
    compares); each condition's pooled RelAcc with `metric_intervals`."""
    ok = [r for r in records if r.status == "ok" and r.condition in ("prior-conform",
                                                                     "2-reverse")]
    delta_row = {"n": len(ok), "clusters": len({diagram_of(r.id) for r in ok}),
                 "estimate": None if delta is None else round(delta, 4), "se": None,
                 "se_clustered": None if clustered is None else round(clustered[2], 4),
                 "ci95": None if delta_ci is None else [round(v, 4) for v in delta_ci],
                 "ci95_clustered": None if clustered is None
                 else [round(clustered[0], 4), round(clustered[1], 4)]}
    return {"Δ": delta_row} | {metric: metric_intervals(values, 100) for metric, values in
                               grouped(sample_values(records)).get(
                                   records[0].model if records else "", {}).items()}


def summarize_models(scores: Mapping[str, list[PriorBiasScore]]) -> PriorBiasSummary:
    """summary.json: every model's summary, and Δ averaged over the models."""
    models = {name: summarize(records) for name, records in scores.items()}
    return PriorBiasSummary(models, metrics.mean_gap([m.delta for m in models.values()]))


def summarize(every: list[PriorBiasScore]) -> ModelSummary:
    """One model: RelAcc and EM per cell (condition × relation × scale) and per condition
    (the mean of its cells, as the paper averages over relations and scales); Δ overall
    (with its bootstrap interval), per relation, per scale and per conflict condition;
    the prerequisite (on prior-free); how answers were parsed: all over the originals.
    Answered and failed calls over every record, twins' too; with twins, the robustness
    figures."""
    records = [r for r in every if r.twin is None]
    ok = [r for r in records if r.status == "ok"]
    scales = tuple(sorted({r.scale for r in ok}, key=lambda s: float(s.rstrip("x"))))

    def grid(condition: str, relations: tuple[str, ...] = RELATIONS,
             at: tuple[str, ...] = scales) -> list[list[PriorBiasScore]]:
        return [_select(ok, condition=condition, relation=r, scale=s)
                for r in relations for s in at]

    def correct(cells: list[list[PriorBiasScore]]) -> list[list[bool]]:
        return [[r.correct for r in cell] for cell in cells]

    def clustered(cells: list[list[PriorBiasScore]]) -> list[list[tuple[str, bool]]]:
        return [[(diagram_of(r.id), r.correct) for r in cell] for cell in cells]

    def matched(cells: list[list[PriorBiasScore]]) -> list[list[bool]]:
        return [[r.em for r in cell] for cell in cells]

    def cell(rs: list[PriorBiasScore]) -> Cell:
        return Cell(len(rs), metrics.rel_acc([r.correct for r in rs]),
                    metrics.exact_match([r.em for r in rs]))

    def condition(c: str) -> Cell:
        cells = grid(c)
        return Cell(sum(map(len, cells)), metrics.cell_average(correct(cells)),
                    metrics.cell_average(matched(cells)))

    def gap(conflict: str = "2-reverse", relations: tuple[str, ...] = RELATIONS,
            at: tuple[str, ...] = scales) -> float | None:
        return metrics.conflict_gap(correct(grid("prior-conform", relations, at)),
                                    correct(grid(conflict, relations, at)))

    delta, delta_ci = gap(), metrics.gap_interval(correct(grid("prior-conform")),
                                                  correct(grid("2-reverse")))
    return ModelSummary(
        answered=sum(r.status == "ok" for r in every),
        errors=sum(r.status != "ok" for r in every),
        image_errors=sum(r.status == "image_error" for r in every),
        unusable_images=tuple(dict.fromkeys(r.error or r.id for r in every
                                            if r.status == "image_error")),
        conditions={c: condition(c) for c in CONDITIONS},
        cells={c: {r: {s: cell(_select(ok, condition=c, relation=r, scale=s))
                       for s in scales} for r in RELATIONS} for c in CONDITIONS},
        delta=delta,
        delta_ci=delta_ci,
        delta_by_condition={c: gap(c) for c in CONFLICT},
        delta_by_relation={r: gap(relations=(r,)) for r in RELATIONS},
        delta_by_scale={s: gap(at=(s,)) for s in scales},
        prerequisite=metrics.prerequisite(matched(grid("prior-free")),
                                          correct(grid("prior-free"))),
        parse=dict(Counter(r.parse for r in ok)),
        labels=dict(Counter(r.label for r in ok)),
        names_unparsed=sum(r.names is None for r in ok),
        intervals=_intervals(records, delta, delta_ci, metrics.gap_interval_clustered(
            clustered(grid("prior-conform")), clustered(grid("2-reverse")))),
        robustness=robustness(every),
    )
