"""The structure benchmark scored both ways, side by side: diagbench's strict reading
(`scoring`) and STRUDEL's matching (`scoring.strudel_matching`: its window-substring
rule for questions, (renders + node-type F1) / 2 for image-to-code). Both are computed
for a STRUDEL import or with ``--matching strudel``; the scores follow the one asked
for, the summary counts the answers they disagree on and keeps examples."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

from diagbench.benchmarks.asking import Answer
from diagbench.benchmarks.structure.records import (
    Disagreement,
    Matchings,
    MatchingSummary,
    StructureSample,
    StructureScore,
    StructureSummary,
    StructureTask,
)
from diagbench.scoring.strudel_matching import (
    COUNTRY_WORD,
    node_type_f1,
    strudel_code_score,
    strudel_match,
)

Matching = Literal["strict", "strudel"]
MATCHINGS: tuple[Matching, ...] = ("strict", "strudel")
#: How the printed comparison names each matching.
_BY = {"strict": "the strict reading", "strudel": "STRUDEL's matching"}
#: Disagreements kept as examples per model.
EXAMPLES = 10


def node_types(language: str, code: str) -> dict[str, int] | None:
    """The node types of a code, counted as STRUDEL counts them: a graph's entities and a
    sequence diagram's participants by kind, another model's counts (None when nothing
    can be read)."""
    from diagbench.benchmarks.structure.counting import statistics
    from diagbench.languages import named

    parsed = named(language).read(code)
    if not parsed:
        return None
    stats, _ = statistics(parsed[0], software=False)
    nodes = stats.get("entities", stats.get("participants"))
    if isinstance(nodes, dict):
        return dict(nodes)
    return {k: v for k, v in stats.items() if isinstance(v, int)}


def strudel_gold(task: StructureTask) -> str:
    """The gold as STRUDEL searches it: a map's multi-word country by one word."""
    gold = str(task.gold)
    return COUNTRY_WORD.get(gold, gold) if task.category == "map" else gold


def score_both(scores: list[StructureScore], tasks: list[StructureTask],
               answers: Mapping[str, Answer], samples: Mapping[str, StructureSample],
               data: Path, scored_by: Matching) -> list[StructureScore]:
    """`scores` (the strict reading's, in task order) with both matchings on every
    answered task, their verdict and score following `scored_by`."""
    out = []
    for score, task in zip(scores, tasks, strict=True):
        answer = answers.get(task.id)
        if score.status != "ok" or answer is None:  # no answer: wrong both ways, counted
            out.append(replace(score, matchings=Matchings(0.0, 0.0)))
            continue
        if task.task == "image_to_code":
            both = Matchings(score.score or 0.0, _code_score(score, task, answer, samples, data))
            out.append(replace(score, matchings=both,
                               score=round(both.strudel, 6) if scored_by == "strudel"
                               else score.score))
            continue
        m = strudel_match(answer.text, strudel_gold(task))
        both = Matchings(float(bool(score.correct)), float(m.correct), m.window)
        out.append(replace(score, matchings=both,
                           correct=m.correct if scored_by == "strudel" else score.correct))
    return out


def _code_score(score: StructureScore, task: StructureTask, answer: Answer,
                samples: Mapping[str, StructureSample], data: Path) -> float:
    """STRUDEL's image-to-code score: renders, and the F1 of the node types drawn against
    the gold's (STRUDEL's gold statistics when imported with them, else the gold code's
    read by diagbench)."""
    from diagbench.benchmarks.structure.scoring import extract_code

    code = extract_code(answer.text)
    if not score.valid or code is None:
        return 0.0
    sample = samples.get(task.sample)
    gold = sample.statistics.get("node_types") if sample else None
    if not isinstance(gold, dict):
        gold = node_types(task.language, (data / str(task.gold)).read_text(encoding="utf-8"))
    predicted = node_types(task.language, code)
    f1 = node_type_f1(gold, predicted) if gold is not None and predicted is not None else 0.0
    return round(strudel_code_score(True, f1), 6)


def _percent(hits: list[bool]) -> float | None:
    return round(100 * sum(hits) / len(hits), 2) if hits else None


def matching_summary(rows: list[StructureScore], scored_by: Matching
                     ) -> MatchingSummary | None:
    """Both matchings over one model's rows (None when none was scored both ways)."""
    both = [r for r in rows if r.matchings is not None]
    if not both:
        return None
    questions = [r for r in both if r.task != "image_to_code"]
    codes = [r for r in both if r.task == "image_to_code"]
    differ = [r for r in questions if r.matchings and r.matchings.strict != r.matchings.strudel]
    return MatchingSummary(
        scored_by, len(questions),
        _percent([bool(r.matchings and r.matchings.strict) for r in questions]),
        _percent([bool(r.matchings and r.matchings.strudel) for r in questions]),
        len(differ), sum(bool(r.matchings and r.matchings.strudel) for r in differ),
        sum(bool(r.matchings and r.matchings.strict) for r in differ),
        [Disagreement(r.id, r.gold, r.predicted, bool(r.matchings.strict),
                      bool(r.matchings.strudel), r.matchings.window)
         for r in differ[:EXAMPLES] if r.matchings],
        len(codes),
        round(sum(r.matchings.strict for r in codes if r.matchings) / len(codes), 6)
        if codes else None,
        round(sum(r.matchings.strudel for r in codes if r.matchings) / len(codes), 6)
        if codes else None)


def with_matching(summary: StructureSummary, scores: Mapping[str, list[StructureScore]],
                  scored_by: Matching) -> StructureSummary:
    """`summary` with each model's matchings side by side, where scored both ways."""
    return StructureSummary({name: replace(m, matching=matching_summary(
        list(scores.get(name, [])), scored_by)) for name, m in summary.models.items()})


def matching_lines(summary: StructureSummary) -> list[str]:
    """The printed comparison of the two matchings, per model scored both ways."""
    lines: list[str] = []
    for name, m in summary.models.items():
        s = m.matching
        if s is None:
            continue
        lines += [f"{name}: scored by {_BY[s.scored_by]}; strict "
                  f"{_figure(s.strict_accuracy)} % vs STRUDEL's {_figure(s.strudel_accuracy)} %"
                  f" over {s.questions} questions; they disagree on {s.disagree} "
                  f"({s.strudel_only} right by STRUDEL's only, {s.strict_only} by the strict "
                  "reading's only)"]
        if s.codes:
            lines.append(f"{name}: image-to-code over {s.codes}: diagbench "
                         f"{_figure(s.strict_code)} vs STRUDEL's (renders + node-type F1)/2 "
                         f"{_figure(s.strudel_code)}")
        lines += [f"  {d.id}: gold {d.gold!r}, read {d.predicted!r}: strict "
                  f"{'right' if d.strict else 'wrong'}, STRUDEL "
                  f"{'right' if d.strudel else 'wrong'}"
                  + (f" (found in {d.window!r})" if d.window else "") for d in s.examples]
    return lines


def _figure(value: float | None) -> str:
    return "—" if value is None else f"{value:g}"


def matching_section(report: Any, summary: StructureSummary) -> None:
    """The two matchings side by side in the HTML report (`report.html.HtmlReport`), when
    some model was scored both ways: accuracies, disagreements, examples."""
    scored = {name: m.matching for name, m in summary.models.items() if m.matching}
    if not scored:
        return
    report.heading("Strict reading and STRUDEL's matching, side by side")
    report.paragraph("STRUDEL's rule counts an answer right when the gold is a substring of "
                     "a window of len(gold) + 15 characters at its start, its end, or after "
                     "\"answer:\" / \"answer is\": gold \"A\" matches \"Answer: (B)\", \"3\" "
                     "matches \"13\", \"no\" matches \"none\". Its image-to-code score is "
                     "(renders + node-type F1) / 2, blind to edges.", note=True)
    report.table(["model", "scored by", "questions", "strict %", "STRUDEL %", "disagree",
                  "STRUDEL only", "strict only", "image-to-code n", "strict", "STRUDEL"],
                 [[name, s.scored_by, s.questions, _figure(s.strict_accuracy),
                   _figure(s.strudel_accuracy), s.disagree, s.strudel_only, s.strict_only,
                   s.codes, _figure(s.strict_code), _figure(s.strudel_code)]
                  for name, s in scored.items()])
    report.table(["model", "task", "gold", "read (strict)", "strict", "STRUDEL",
                  "STRUDEL's window"],
                 [[name, d.id, str(d.gold), str(d.predicted), "right" if d.strict else "wrong",
                   "right" if d.strudel else "wrong", d.window or ""]
                  for name, s in scored.items() for d in s.examples])
