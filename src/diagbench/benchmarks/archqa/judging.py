"""LLM as judge (paper 003 §3.3.1, §4.5): a judge model is sent the question, the diagram
and both answers — the model's and the gold one — and says whether they are
equivalent; its True/False verdict (read by `scoring.truth`) is set beside the rule-based
one on each score (`judge_status`: judged, call_error, unreadable), and the summary gives
the judge's accuracy beside the rule-based one, Table 10's agreement and the categories
of the disagreements (`scoring.metrics.judge`), and the judge's failed calls and
unreadable replies.

The paper gives the judge's inputs (§3.3.1: "the question, the diagram, the gold answer,
and the model prediction", a binary decision) and leaves its template to the project's
homepage; SADU's published judge (src/evaluation/evaluation_llm_based.py, gpt-5.4,
temperature 0) is sent only the two answers. `JUDGE_PROMPT` is diagbench's wording of
that template's content, in its order — an expert evaluator deciding semantic
equivalence; numbers exactly; retrieval answers the same entity or set of entities, a
missing, extra or different one not; differences of meaning never ignored (names,
quantities, relation direction or type, the wrong entity); no fixing or interpreting
beyond matching; first line True or False, then one short sentence — with the question
and the diagram the paper names. The response is sent as the model wrote it (its last
4,000 characters); SADU's script sends the JSON it extracted from the markers where it
could read one, else the raw text.

`answer_judge` is `baseline:judge` for this prompt: an offline, deterministic reference
judge (see its docstring) so that the judge's path runs with no key."""

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
    "You are an expert evaluator of question answering about software architecture "
    "diagrams. Decide whether the model's response is semantically equivalent to the "
    "ground-truth answer of the question about the diagram in the image.\n\n"
    "Evaluation rules:\n"
    "1. Numerical questions: the response is equivalent only if its number is exactly "
    "the answer's.\n"
    "2. Retrieval questions: the response is equivalent only if it names the same entity "
    "or the same set of entities as the answer; a missing, extra or different entity "
    "makes it not equivalent.\n"
    "3. Never ignore a difference that changes the meaning: a wrong component name, a "
    "different quantity, a wrong direction or type of relation, the wrong entity.\n"
    "4. Do not correct, rewrite or interpret the response beyond matching its meaning.\n\n"
    "Output format (mandatory): the first line is True or False; the second line is one "
    "short sentence saying why.\n\n"
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
            result.append(replace(s, judge=None, judge_note=f"judge call failed: {a.error}",
                                  judge_status="call_error"))
            continue
        first = a.text.strip().splitlines()[0] if a.text.strip() else ""
        verdict = parse_truth(first)
        if verdict.label == "Unknown":
            verdict = parse_truth(a.text)
        known = verdict.label != "Unknown"
        result.append(replace(s, judge=verdict.label == "True" if known else None,
                              judge_note=a.text.strip()[:300],
                              judge_status="judged" if known else "unreadable"))
    return result


def judge_failures(scores: Sequence[ArchQAScore]) -> dict[str, Any] | None:
    """How many answers the judge was asked about, gave a verdict on, failed on (its call
    failed) and answered with no verdict (unreadable), and the first failure's reason;
    None when no judge was asked."""
    asked = [s.judge_status for s in scores if s.judge_status is not None]
    if not asked:
        return None
    first = next((s.judge_note for s in scores if s.judge_status in ("call_error",
                                                                      "unreadable")), None)
    return {"asked": len(asked), "verdicts": asked.count("judged"),
            "call_errors": asked.count("call_error"), "unreadable": asked.count("unreadable"),
            "first_failure": first}


#: Table 10's columns, as the console and the report print them.
TABLE_10 = ("All_Same", "T_Same", "F_Same", "T_Diff", "F_Diff", "F_Diff_caption")


def judge_report_lines(judge: str | None, summary: Any) -> list[str]:
    """The console's judge table: per model the rule-based and the judge's accuracy
    (all questions, percent), the judge's calls, and Table 10 (percent of the judged);
    a warning per model whose judge failed. Nothing when no judge was asked."""
    models = {n: m for n, m in summary.models.items() if m.get("judge")}
    if not models:
        return []
    width = max([len(n) for n in models] + [5])
    out = [f"LLM judge {judge or '(see the manifest)'}: accuracy (all) by the rules "
           f"({summary.scorer}) and by the judge; Table 10 in percent of the judged "
           "(F_Diff: judge False, rules True, as the text; F_Diff_caption: both False, as "
           "the caption)",
           f"{'model':<{width}}  {'rules':>7}{'judge':>7}{'asked':>7}{'verd.':>7}"
           f"{'failed':>7}{'unread.':>8}" + "".join(f"{c:>15}" for c in TABLE_10)]
    warnings = []
    for name, m in models.items():
        j, agreement = m["judge"], m["judge"]["agreement"]
        judged = (m.get("accuracy_judge") or {}).get("all")
        out.append(f"{name:<{width}}  {_pct(m['accuracy']['all']):>7}{_pct(judged):>7}"
                   f"{j['asked']:>7}{j['verdicts']:>7}{j['call_errors']:>7}"
                   f"{j['unreadable']:>8}"
                   + "".join(f"{_pct(agreement.get(c)):>15}" for c in TABLE_10)
                   + (f"  κ {j['kappa']:.3f}" if j.get("kappa") is not None else ""))
        if j["call_errors"] or j["unreadable"]:
            warnings.append(f"warning: the judge failed on {j['call_errors']} and gave no "
                            f"verdict on {j['unreadable']} of the {j['asked']} answers of "
                            f"{name} (first: {j['first_failure']})")
    return out + warnings


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def failure_reasons(summary: Any, rate: float | None) -> list[str]:
    """Why a run fails `--fail-on-error RATE` beside its models' failed calls: each
    model whose judge's failed calls and unreadable replies are more than RATE of the
    answers it was asked about; nothing without RATE."""
    if rate is None:
        return []
    out = []
    for name, m in summary.models.items():
        j = m.get("judge")
        if j and j["asked"] and (j["call_errors"] + j["unreadable"]) / j["asked"] > rate:
            out.append(f"{name}: the judge failed on {j['call_errors']} and gave no verdict "
                       f"on {j['unreadable']} of {j['asked']} answers, above "
                       f"--fail-on-error {rate:g}")
    return out


def judge_summary(scores: Sequence[ArchQAScore]) -> dict[str, Any] | None:
    """The judge's calls (`judge_failures`), Table 10's agreement of the judge with the
    rule-based scorer, overall and per kind, Cohen's κ of the two (chance-corrected),
    the judge's accuracy over the answers it judged (`judge_accuracy`: T_Same + T_Diff,
    Table 2's unit) and the categories of the T_Diff and F_Diff cases (§4.5); None when
    no judge was asked."""
    from diagbench.scoring.metrics.agreement import cohens_kappa
    from diagbench.scoring.metrics.judge import (
        counting_disagreement,
        judge_agreement,
        retrieval_disagreement,
    )

    failures = judge_failures(scores)
    if failures is None:
        return None
    judged = [s for s in scores if s.judge is not None]

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

    return failures | {
        "agreement": judge_agreement([s.correct for s in scores], [s.judge for s in scores]),
        "kappa": None if (k := cohens_kappa([s.correct for s in scores],
                                            [s.judge for s in scores])) is None
        else round(k, 4),
        "by_kind": {k: judge_agreement([s.correct for s in scores if s.kind == k],
                                       [s.judge for s in scores if s.kind == k])
                    for k in ("counting", "retrieval")},
        "judge_accuracy": round(100 * sum(bool(s.judge) for s in judged) / len(judged), 2)
        if judged else None,
        "t_diff": categories([s for s in judged if s.judge and not s.correct]),
        "f_diff": categories([s for s in judged if not s.judge and s.correct]),
    }


def _section(prompt: str, name: str, following: str | None) -> str:
    text = prompt.split(f"# {name} #\n", 1)[1]
    return (text.split(f"\n# {following} #\n", 1)[0] if following else text).strip()


def _folded(value: Any) -> Any:
    """A value as the reference judge compares it: a number, or a set of items
    case-folded with runs of whitespace collapsed (pairs as "a → b")."""
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], int | float):
        value = value[0]
    if isinstance(value, str) and value.strip().lstrip("-").replace(".", "", 1).isdigit():
        value = float(value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    items = value if isinstance(value, list) else [value]
    return frozenset(" ".join(str(" → ".join(map(str, i)) if isinstance(i, list) else i)
                              .replace("->", "→").split()).casefold() for i in items)


def reference_verdict(response: str, answer: Any) -> tuple[bool, str]:
    """The verdict of `baseline:judge` on `response` against the gold `answer` (a
    number, or a list of items as the summary's gold forms are written).

    It reads the response's answer as the strict reader does (inside the markers, else
    after an unclosed ``[start]``, else the last JSON object with "answer"), then
    compares numbers by value and lists as sets of items with case, spacing and the
    arrow's spelling ignored. So it accepts what the strict scorer rejects only for
    its form — an answer outside the markers, other case, spacing, order or duplicates,
    a count written "6" — and never a different number or a different element: its
    T_Diff cases are the strict scorer's surface-form rejections, it has no F_Diff
    against the strict scorer. No answer read is False.

    >>> reference_verdict('[start] {"answer": ["order service"]} [end]', ["Order Service"])
    (True, 'The same elements, once case and spacing are ignored.')
    >>> reference_verdict('{"answer": "7"}', 6)
    (False, 'A different answer: 7.0 is not 6.0.')
    """
    from diagbench.scoring.marked_answer import read_marked

    reading = read_marked(response)
    if not reading.ok:
        return False, f"No answer could be read ({reading.error})."
    got, gold = _folded(reading.value), _folded(answer)
    if got == gold:
        return True, ("The same number." if isinstance(gold, float)
                      else "The same elements, once case and spacing are ignored.")
    shown = sorted(got) if isinstance(got, frozenset) else got
    wanted = sorted(gold) if isinstance(gold, frozenset) else gold
    return False, f"A different answer: {shown} is not {wanted}."


def answer_judge(request: Any) -> str:
    """baseline:judge for archqa's judge prompt (`reference_verdict`); ValueError for any
    other request (another benchmark's judge prompt is answered by its own baseline)."""
    from diagbench.models.offline import prompt_text

    prompt = prompt_text(request)
    if not prompt.startswith(JUDGE_PROMPT.split("\n", 1)[0]) or "# Answer #\n" not in prompt:
        raise ValueError("not archqa's judge prompt")
    response = _section(prompt, "Response", "Answer")
    try:
        answer = json.loads(_section(prompt, "Answer", None))
    except json.JSONDecodeError:
        raise ValueError("archqa's judge prompt with no JSON answer") from None
    verdict, why = reference_verdict(response, answer)
    return f"{verdict}\n{why}"
