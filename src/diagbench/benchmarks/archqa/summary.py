"""Scoring a model's answers (`score_model`) and the summary of every model
(`summarize`): accuracy per diagram type, subtype and difficulty (paper 003 Table 2,
Fig. 3), the counting metrics per diagram type (Tables 4–6), the retrieval metrics
(Table 7), mean tokens (Table 3), a bootstrap interval on accuracy, outcome counts and
paired comparisons of the models on the questions they share."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, replace
from typing import Any

from diagbench.benchmarks.archqa.hard import pattern_accuracy
from diagbench.benchmarks.archqa.judging import judge_summary
from diagbench.benchmarks.archqa.records import (
    FAMILIES,
    Annotation,
    ArchQAScore,
    ArchQASummary,
    Question,
    Status,
    diagram_of,
)
from diagbench.benchmarks.archqa.robustness import robustness
from diagbench.benchmarks.archqa.sadu_retrieval import sadu_table7
from diagbench.benchmarks.archqa.scorers import Scorer, gold_form, gold_of, judge
from diagbench.benchmarks.intervals import metric_intervals
from diagbench.benchmarks.protocol import DataError, SampleValue
from diagbench.scoring.metrics.archqa import (
    accuracy_by,
    accuracy_interval,
    count_bias,
    mean_absolute_error,
    mean_tokens,
    paired_accuracy,
    qa_accuracy,
    retrieval_scores,
    tolerance_accuracy,
)

#: Bootstrap resamples in summaries (each draws a resamples × questions index matrix).
RESAMPLES = 2_000


def score_model(model: str, questions: Sequence[Question], responses: Mapping[str, Any],
                scorer: Scorer, gold: str = "published",
                twins: Mapping[str, Annotation] | None = None) -> list[ArchQAScore]:
    """One score per question. `responses` maps a question id to an object with
    `status` ("ok" or a failure), `text`, `error` and `usage` (an `Answer`); `twins`
    the data set's twin diagrams by id (`data.load_twins`), whose questions' scores
    name their twin (`twinned`)."""
    scored = [_scored(model, q, responses.get(q.id), scorer, gold) for q in questions]
    if not any(q.twin_of is not None or q.original_gold is not None or q.diagram in
               (twins or {}) for q in questions):
        return scored
    return [twinned(s, q, responses.get(q.id), scorer, twins or {})
            for s, q in zip(scored, questions, strict=True)]


def twinned(score: ArchQAScore, q: Question, answer: Any, scorer: Scorer,
            twins: Mapping[str, Annotation]) -> ArchQAScore:
    """The score of a twin's question with its twin's family, the original diagram,
    the same question on the original and, for a counterfactual question whose answer
    the edit changed, whether the answer, read by `scorer`, states the original's (a
    failed call does not); an original's score as it is. DataError for a question that
    names an original's question or answer about a diagram that is no twin."""
    twin = twins.get(q.diagram)
    if twin is None or twin.twin is None:
        if q.twin_of is None and q.original_gold is None:
            return score
        raise DataError(f"question {q.id} is a twin's (it names an original's question or "
                        f"answer) but its diagram {q.diagram} is no twin")
    habit = None
    if twin.twin.family == "counterfactual" and q.original_gold is not None:
        habit = answer is not None and answer.status == "ok" and answer.text is not None \
            and judge(scorer, q, answer.text, q.original_gold).correct
    return replace(score, twin=twin.twin.family, original=twin.twin_of, twin_of=q.twin_of,
                   habit=habit)


def _scored(model: str, q: Question, answer: Any, scorer: Scorer, gold: str
            ) -> ArchQAScore:
    """The score of one answer (None: no response)."""
    expected = gold_of(q, gold)
    tokens: dict[str, int | None] = {}
    if answer is not None and getattr(answer, "usage", None) is not None:
        u = answer.usage
        tokens = {"prompt": u.input_tokens, "completion": u.output_tokens,
                  "reasoning": u.reasoning_tokens}
    base = ArchQAScore(model, q.id, q.family, q.subtype, q.kind, q.difficulty, scorer,
                       "missing", False, gold=gold_form(q, expected), tokens=tokens,
                       error="no response")
    if answer is None:
        return base
    if answer.status != "ok" or answer.text is None:  # an unusable image is never asked
        failed: Status = "image_error" if answer.status == "image_error" else "call_error"
        return replace(base, status=failed, error=answer.error or answer.status)
    j = judge(scorer, q, answer.text, expected)
    return replace(base, status="ok" if j.read else "unparsable", correct=j.correct,
                   answer=j.answer, where=j.where, prediction=j.prediction,
                   gold=j.gold if j.gold is not None else base.gold, notes=j.notes,
                   error=j.error)


def _r(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


def _counting(scores: list[ArchQAScore]) -> dict[str, Any]:
    predicted = [s.prediction if isinstance(s.prediction, int | float) else None
                 for s in scores]
    gold = [s.gold for s in scores]
    bias = count_bias(predicted, gold)
    return {"n": len(scores), "acc": _r(tolerance_accuracy(predicted, gold, 0)),
            "acc_1": _r(tolerance_accuracy(predicted, gold, 1)),
            "acc_2": _r(tolerance_accuracy(predicted, gold, 2)),
            "mae": _r(mean_absolute_error(predicted, gold)), "bias": _r(bias.bias),
            "p_over": _r(bias.p_over), "p_under": _r(bias.p_under)}


def _retrieval(scores: list[ArchQAScore]) -> dict[str, Any] | None:
    result = retrieval_scores([s.prediction if isinstance(s.prediction, list) else None
                               for s in scores], [s.gold for s in scores])
    return None if result is None else {k: _r(v) if isinstance(v, float) else v
                                        for k, v in asdict(result).items()}


def _by_family(scores: list[ArchQAScore], metric: Any) -> dict[str, Any]:
    out: dict[str, Any] = {family: metric([s for s in scores if s.family == family])
                           for family in FAMILIES}
    out["all"] = metric(scores)
    return out


def _tokens(scores: list[ArchQAScore], count: Any) -> dict[str, float | None]:
    """The mean of `count(tokens)` per family (a score without token counts is left out)."""
    def mean(group: list[ArchQAScore]) -> float | None:
        return _r(mean_tokens([count(s.tokens) if s.tokens else None for s in group]), 2)
    return _by_family(scores, mean)


def _known(*values: int | None) -> bool:
    return any(v is not None for v in values)


#: The token means of a summary: Table 3's completion tokens count the reasoning ones
#: (paper 003 §4.1: "including prompt, completion, and reasoning tokens when available");
#: `answer` is what is left of them once the reasoning tokens are taken out (unknown where
#: the reasoning tokens are: a log that does not report them).
TOKEN_MEANS: dict[str, Any] = {
    "total": lambda t: (t.get("prompt") or 0) + (t.get("completion") or 0)
    if _known(t.get("prompt"), t.get("completion")) else None,
    "completion": lambda t: t.get("completion"),
    "answer": lambda t: None if t.get("completion") is None or t.get("reasoning") is None
    else t["completion"] - t["reasoning"],
    "reasoning": lambda t: t.get("reasoning"),
}


def accuracy_values(scores: Sequence[ArchQAScore]) -> list[SampleValue]:
    """Each question's right (1) or wrong (0), clustered by its diagram."""
    return [SampleValue(s.model, "accuracy", s.id, diagram_of(s.id), float(s.correct))
            for s in scores]


def summarize_model(scores: list[ArchQAScore]) -> dict[str, Any]:
    """Every metric of one model's scores; `intervals`: accuracy's naive and
    diagram-clustered standard errors and bootstrap intervals."""
    correct = [s.correct for s in scores]
    interval = accuracy_interval(correct, RESAMPLES)
    violations = [s for s in scores if s.violation]
    happened = _outcomes(scores)
    return {
        "questions": len(scores),
        "accuracy": _by_family(scores, lambda g: _r(qa_accuracy([s.correct for s in g]), 2)),
        "accuracy_ci95": None if interval is None else [_r(interval[0], 2), _r(interval[1], 2)],
        "intervals": {"accuracy": metric_intervals(accuracy_values(scores), 100, RESAMPLES)},
        "by_subtype": {k: _r(v, 2) for k, v in accuracy_by([s.subtype for s in scores],
                                                           correct).items()},
        "by_difficulty": {k: _r(v, 2) for k, v in accuracy_by(
            [s.difficulty or "none" for s in scores], correct).items()},
        "counting": _by_family([s for s in scores if s.kind == "counting"], _counting),
        "retrieval": _by_family([s for s in scores if s.kind == "retrieval"], _retrieval),
        "tokens": {name: _tokens(scores, count) for name, count in TOKEN_MEANS.items()},
        "outcomes": happened["outcomes"],
        "format_violations": len(violations),
        "format_violations_correct": sum(s.correct for s in violations),
        "accuracy_within_format": _by_family(
            scores, lambda g: _r(qa_accuracy([s.correct and not s.violation for s in g]), 2)),
        "errors": happened["errors"],
        "unusable_images": happened["unusable_images"],
        "notes": dict(Counter(n for s in scores for n in s.notes)),
        "accuracy_judge": _by_family(
            scores, lambda g: _r(qa_accuracy([s.judge is True for s in g]), 2))
        if any(s.judge_status for s in scores) else None,
        "judge": judge_summary(scores),
    }


def _outcomes(scores: Sequence[ArchQAScore]) -> dict[str, Any]:
    """What became of each question asked: its status, its error, the unusable images."""
    return {"outcomes": dict(Counter(s.status for s in scores)),
            "errors": dict(Counter(s.error for s in scores if s.error)),
            "unusable_images": list(dict.fromkeys(s.error for s in scores
                                                  if s.status == "image_error" and s.error))}


def paper_views(scorer: str, scores: list[ArchQAScore], questions: Mapping[str, Question]
                ) -> dict[str, Any]:
    """Table 7 as SADU's script computes it (``retrieval_sadu``, `--scorer sadu` only)
    and, on SADU's hard set, Table 11's accuracy per arrow pattern (``by_pattern``)."""
    views = {"retrieval_sadu": sadu_table7(scorer, scores, questions),
             "by_pattern": pattern_accuracy(scores, questions)}
    return {k: v for k, v in views.items() if v is not None}


def originals(scores: Sequence[ArchQAScore]) -> list[ArchQAScore]:
    """The scores of the original diagrams' questions (those of no twin)."""
    return [s for s in scores if s.twin is None]


def summarize(scorer: str, scores: Mapping[str, list[ArchQAScore]],
              questions: Sequence[Question] = ()) -> ArchQASummary:
    """The summary of every model, with the views of the paper's tables that need the
    questions (`paper_views`), and each pair of models compared on the questions both
    were asked; with twins, each model's robustness figures (`robustness`) and the
    questions asked (`asked`). Twins' scores count in those and in the outcomes, errors
    and unusable images (a failed call is a failure, whichever diagram it asked about);
    every other figure is the originals', as without twins."""
    by_id = {q.id: q for q in questions}
    models = {}
    for name, every in scores.items():
        records = originals(every)
        models[name] = summarize_model(records) | paper_views(scorer, records, by_id)
        if (figures := robustness(every)) is not None:
            models[name] |= {**_outcomes(every), "asked": len(every),
                             "robustness": figures.to_json()}
    names = list(scores)
    paired = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            test = paired_accuracy({s.id: s.correct for s in originals(scores[a])},
                                   {s.id: s.correct for s in originals(scores[b])},
                                   RESAMPLES)
            paired.append({"a": a, "b": b} | {k: _r(v) if isinstance(v, float) else v
                                               for k, v in test.as_dict().items()})
    return ArchQASummary(scorer, models, paired)
