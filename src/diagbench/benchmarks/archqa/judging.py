"""LLM as judge (paper 003 §3.3.1, §4.5): a judge model is sent the question, the diagram
and both answers — the model's and the gold one — and says whether they are
equivalent; its True/False verdict (read by `scoring.truth`) is set beside the rule-based
one on each score, and the summary gives Table 10's agreement and the categories of the
disagreements (`scoring.metrics.judge`).

SADU's published judge sees only the two answers; the paper says the judge sees the
question and the diagram, which is what this one is sent. The prompt is diagbench's own
wording of the same rules (numbers exactly; the same element or set of elements; a
different direction or type is a difference; first line True or False, then one
sentence)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from diagbench.benchmarks.archqa.questions import stem
from diagbench.benchmarks.archqa.records import ArchQAScore, Question

JUDGE_PROMPT = (
    "You are judging an answer to a question about the software architecture diagram in "
    "the image.\nDecide whether the model's response gives the same answer as the "
    "ground-truth answer.\n\n"
    "Rules:\n"
    "1. A number must match exactly.\n"
    "2. A list must name the same element or the same set of elements: a missing, extra or "
    "different element makes it not equivalent.\n"
    "3. Differences that change the meaning count: a wrong name, a different quantity, a "
    "different direction or type of relation.\n"
    "4. Letter case, spacing, quotes and the answer's formatting do not count.\n"
    "5. Do not correct or reinterpret the response beyond this.\n\n"
    "Output format: the first line is True or False; the second line is one short sentence "
    "saying why.\n\n"
    "# Question #\n{question}\n# Response #\n{response}\n# Answer #\n{answer}\n")
#: The longest response text sent to the judge (characters; the end is kept).
MAX_RESPONSE = 4000


def judge_prompt(question: Question, response: str, gold: Any) -> str:
    """The judge's prompt for one answer."""
    text = response if len(response) <= MAX_RESPONSE else "…" + response[-MAX_RESPONSE:]
    return JUDGE_PROMPT.format(question=stem(question.text), response=text.strip(),
                               answer=json.dumps(gold, ensure_ascii=False))


def judge_template_hash() -> str:
    return hashlib.sha256(JUDGE_PROMPT.encode()).hexdigest()


def judge_settings(model: str) -> Any:
    """The `ModelSettings` of a judge named PROVIDER:MODEL[@URL]: temperature 0, 512
    tokens, the response cache (ModelSpecError when the name or key is wrong)."""
    from diagbench.benchmarks.own_models import model_settings
    from diagbench.models.request import GenerationConfig

    return model_settings(model, GenerationConfig(temperature=0.0, max_tokens=512))


def judge_scores(scores: list[ArchQAScore], questions: Sequence[Question],
                 texts: Mapping[str, str | None], images: Mapping[str, str], judge: str,
                 out: Path) -> list[ArchQAScore]:
    """`scores` with the judge's verdict on every answer that has a text (`judge`: True,
    False, or None when the judge's reply was no verdict or its call failed, with
    `judge_note`); the judge's responses in OUT/judge_responses.jsonl."""
    from diagbench.benchmarks.asking import Ask, ask_model
    from diagbench.scoring.truth import parse_truth

    by_id = {q.id: q for q in questions}
    asks = []
    for s in scores:
        text = texts.get(s.id)
        if text is None or s.id not in by_id:
            continue
        q = by_id[s.id]
        asks.append(Ask(s.id, judge_prompt(q, text, s.gold), Path(images[q.diagram])))
    settings = judge_settings(judge)
    out.mkdir(parents=True, exist_ok=True)
    answers = ask_model(asks, settings, out / "judge_responses.jsonl") if asks else {}
    result = []
    for s in scores:
        a = answers.get(s.id)
        if a is None:
            result.append(s)
            continue
        if a.status != "ok" or a.text is None:
            result.append(replace(s, judge=None, judge_note=f"judge call failed: {a.error}"))
            continue
        first = a.text.strip().splitlines()[0] if a.text.strip() else ""
        verdict = parse_truth(first)
        if verdict.label == "Unknown":
            verdict = parse_truth(a.text)
        result.append(replace(
            s, judge=None if verdict.label == "Unknown" else verdict.label == "True",
            judge_note=a.text.strip()[:300]))
    return result


def judge_summary(scores: Sequence[ArchQAScore]) -> dict[str, Any] | None:
    """Table 10's agreement of the judge with the rule-based scorer, overall and per
    kind, and the categories of the T_Diff and F_Diff cases (§4.5); None when no score
    was judged."""
    from diagbench.scoring.metrics.judge import (
        counting_disagreement,
        judge_agreement,
        retrieval_disagreement,
    )

    judged = [s for s in scores if s.judge is not None]
    if not judged:
        return None

    def categories(diff: list[ArchQAScore]) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {"counting": {}, "retrieval": {}}
        for s in diff:
            if s.kind == "counting":
                gold = s.gold[0] if isinstance(s.gold, list) and s.gold else s.gold
                pred = s.prediction if isinstance(s.prediction, int | float) else None
                key = counting_disagreement(pred, gold) if isinstance(gold, int | float) \
                    else "unreadable"
            else:
                key = retrieval_disagreement(s.prediction, s.gold)
            out[s.kind][key] = out[s.kind].get(key, 0) + 1
        return out

    return {
        "agreement": judge_agreement([s.correct for s in scores], [s.judge for s in scores]),
        "by_kind": {k: judge_agreement([s.correct for s in scores if s.kind == k],
                                       [s.judge for s in scores if s.kind == k])
                    for k in ("counting", "retrieval")},
        "judge_accuracy": round(100 * sum(bool(s.judge) for s in judged) / len(judged), 2),
        "t_diff": categories([s for s in judged if s.judge and not s.correct]),
        "f_diff": categories([s for s in judged if not s.judge and s.correct]),
    }
