"""The LLM-as-judge filter of the structure build (paper 004 §3.3, prompt of Fig. 9).

Each sample left after the other filters is sent to the judge model with the prompt of
Fig. 9 (verbatim: system prompt with the category, user prompt with the problem
statement, the FRL, the code and the functional description) and no image: Fig. 9 says
"judge from text only", and the paper's judge (GPT-OSS-120B) is a text model.

The reply is read strictly (`parse_verdict`): one line `correct: true|false|null`,
markdown emphasis aside; its score is true 1.0, null 0.5, false 0.0
(`records.VERDICT_SCORES`). A sample whose score is below `--judge-threshold` (default
0.5: "false" is removed, "null" kept) is removed. A reply with no such line, or with two
different ones, is `unparsable`, and a failed call is `call_error`: either way the
sample is removed with that reason and counted — never kept unjudged, never a crash.
Re-running the build asks again only what is not in
DATA/generation/judge_responses.jsonl (the runner resumes).

`baseline:judge` (`answer_judge`) is the offline judge: it checks what can be checked
without a model — the code parses in its FRL with no error, and every count the
functional description states ("4 classes", "three messages") is the parsed count.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from diagbench.benchmarks.progress import Bars, no_bars
from diagbench.benchmarks.structure.planned import Planned
from diagbench.benchmarks.structure.records import JudgeInfo, Verdict
from diagbench.benchmarks.structure.templates import PLURAL, RELATION_PLURAL

if TYPE_CHECKING:
    from diagbench.models.request import Request

JUDGE_SYSTEM = (
    "You are a professional expert in {category}, with deep experience in reviewing code "
    "and solution specifications.\n\n"
    "You will be given:\n\n"
    "- A problem statement that describes a task\n"
    "- The programming language used to implement a solution\n"
    "- The actual code implementation\n"
    "- A functional description of what the code is supposed to do\n\n"
    "Your task is to judge whether\n\n"
    "1. the code and the functional description are factually, technically and logically "
    "correct,\n"
    "2. the functional description correctly reflect what the code does.\n\n"
    "Use your domain expertise in {category} for the assessment. Don't assume missing "
    "context; do not run code; judge from text only.\n\n"
    "Output your result as binary value \"correct\".\n\n"
    "Output \"true\" when all is correct by tolerating minor deviations or irrelevant "
    "inconsistencies.\n\n"
    "Output \"false\" only when you detect clear, material errors or contradictions.\n\n"
    "Otherwise output \"null\" for an unsure/indeterminate result.\n\n"
    "Also provide a short factual explanation for your decision, free of speculation, of "
    "max. 30 words.")
JUDGE_USER = (
    "Given the following problem statement, code language, code and its functional "
    "description, assess the correctness.\n\n"
    "Problem Statement:\n\n{problem}\n\n"
    "Code Language: {language}\n\n"
    "Code:\n\n{code}\n\n"
    "Functional Description:\n\n{description}\n\n"
    "Now, please output your results in the format below by filling in the placeholders "
    "in <...>:\n\n"
    "correct: <true|false|null>\n\n"
    "explanation: <brief factual explanation>")
DEFAULT_THRESHOLD = 0.5
UNPARSABLE = "judge reply unparsable"
CALL_FAILED = "the judge call failed"
BELOW = "judged incorrect (below the threshold)"
#: The reasons the judge removes a sample for.
JUDGE_REASONS = (CALL_FAILED, UNPARSABLE, BELOW)
_VERDICT = re.compile(r"^[\s*_`>#-]*correct[\s*_`]*:[\s*_`\"'<]*(true|false|null)"
                      r"[\s*_`\"'>.]*$", re.I | re.M)
_EXPLANATION = re.compile(r"^[\s*_`>#-]*explanation[\s*_`]*:[\s*_`]*(.*?)[\s*_`]*$",
                          re.I | re.M)


def judge_prompt(category: str, problem: str, language: str, code: str,
                 description: str) -> tuple[str, str]:
    """(system, user) prompts of Fig. 9 for one sample."""
    return (JUDGE_SYSTEM.format(category=category),
            JUDGE_USER.format(problem=problem.strip(), language=language, code=code.strip(),
                              description=description.strip()))


def judge_template_hash() -> str:
    return hashlib.sha256((JUDGE_SYSTEM + JUDGE_USER).encode()).hexdigest()[:16]


def parse_verdict(text: str | None) -> Verdict:
    """The verdict of a judge's reply, read strictly.

    >>> parse_verdict("correct: true\\nexplanation: fine").correct
    'true'
    >>> parse_verdict("**correct:** false").correct
    'false'
    >>> parse_verdict("The code looks correct.").status
    'unparsable'
    """
    if not text or not text.strip():
        return Verdict("unparsable", reason="empty reply")
    found = [m.lower() for m in _VERDICT.findall(text)]
    if not found:
        return Verdict("unparsable", reason="no line `correct: true|false|null`")
    if len(set(found)) > 1:
        return Verdict("unparsable", reason=f"several verdicts: {', '.join(found)}")
    explanation = _EXPLANATION.search(text)
    return Verdict("parsed", found[0], explanation.group(1)[:300] if explanation else "")


def judge_samples(samples: list[Planned], settings: Any, data: Path, threshold: float,
                  max_connections: int = 8, bars: Bars = no_bars) -> dict[str, Verdict]:
    """Ask the judge about every sample, text only (responses in
    `data`/generation/judge_responses.jsonl); set `reason` on those removed; the
    verdicts by sample id."""
    from diagbench.benchmarks.asking import Ask, ask_model
    from diagbench.languages import category_named, named

    asks = []
    for s in samples:
        system, user = judge_prompt(category_named(s.category).title, s.problem or "",
                                    named(s.language).title, s.code or "",
                                    s.description or "")
        asks.append(Ask(s.id, user, None, system))
    out = data / "generation" / "judge_responses.jsonl"
    answers = ask_model(asks, settings, out, max_connections, bars, "judging") if asks \
        else {}
    verdicts = {}
    for s in samples:
        a = answers[s.id]
        v = (parse_verdict(a.text) if a.status == "ok"
             else Verdict("call_error", reason=str(a.error or a.status)))
        verdicts[s.id] = v
        if v.status == "call_error":
            s.reason, s.detail = CALL_FAILED, v.reason
        elif v.status == "unparsable":
            s.reason, s.detail = UNPARSABLE, v.reason
        elif (v.score or 0.0) < threshold:
            s.reason, s.detail = BELOW, f"correct: {v.correct}; {v.explanation}"
    return verdicts


def rule_checks(samples: list[Planned]) -> dict[str, bool]:
    """The deterministic check of each sample (`offline_verdict`: the code parses and
    every count its description states is the parsed count), by sample id."""
    from diagbench.languages import named

    return {s.id: offline_verdict(named(s.language).title, s.code or "", s.description or "")
            .startswith("correct: true") for s in samples}


def judge_info(model: str, threshold: float, verdicts: dict[str, Verdict],
               checks: dict[str, bool] | None = None) -> JudgeInfo:
    """What build.json records about the judge; with `checks` (`rule_checks`), Cohen's κ
    of the judge's keep/remove (score ≥ threshold) against them, over the samples the
    judge gave a verdict on."""
    from diagbench.scoring.metrics.agreement import cohens_kappa

    counts: dict[str, int] = {"true": 0, "null": 0, "false": 0, "unparsable": 0,
                              "call_error": 0}
    for v in verdicts.values():
        counts[v.correct if v.correct else v.status] += 1
    kappa = None if checks is None else cohens_kappa(
        [checks[i] for i in verdicts],
        [None if v.score is None else v.score >= threshold for v in verdicts.values()])
    return JudgeInfo(model, threshold, judge_template_hash(), len(verdicts), counts,
                     sum(1 for v in verdicts.values() if v.score is None or v.score < threshold),
                     None if kappa is None else round(kappa, 4))


# --- baseline:judge ---------------------------------------------------------------------

_NUMBER_WORDS = {w: n for n, w in enumerate((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
    "eighteen", "nineteen", "twenty"))}
_PART = re.compile(r"Code Language: (?P<lang>.*?)\n\nCode:\n\n(?P<code>.*)\n\n"
                   r"Functional Description:\n\n(?P<description>.*)\n\nNow, please output",
                   re.S)


def _nouns(parsed: Any) -> dict[str, int]:
    """Plural nouns a description may count with, and their counts in the parsed code
    (generic ones — elements, relations, … — and those of the kinds it has)."""
    from diagbench.diagram.graph import GraphDiagram
    from diagbench.diagram.sequence import SequenceDiagram

    d = parsed.diagram
    if isinstance(d, SequenceDiagram):
        return {"participants": len(d.participants), "lifelines": len(d.participants),
                "messages": len(d.messages)}
    if not isinstance(d, GraphDiagram):  # another domain's model: what its reader counts
        return {name.replace("_", " "): n for name, n in parsed.counts().items()}
    nouns = dict.fromkeys(("elements", "nodes", "entities"), len(d.entities))
    nouns |= dict.fromkeys(("relations", "relationships", "connections", "links", "edges"),
                           len(d.relations))
    for kind, n in Counter(e.kind for e in d.entities).items():
        if kind in PLURAL:
            nouns[PLURAL[kind]] = n
    for rtype, n in Counter(r.type for r in d.relations).items():
        if rtype in RELATION_PLURAL:
            nouns.setdefault(RELATION_PLURAL[rtype], n)
    return nouns


def offline_verdict(language: str, code: str, description: str) -> str:
    """baseline:judge's reply (Fig. 9's format) about one code and its description."""
    from diagbench.languages import titled

    reader = titled(language)
    if reader is None:
        return f"correct: null\nexplanation: cannot read the code language {language!r}."
    parsed = reader.read(code)
    if not parsed or parsed[0].kind in ("empty", "unknown"):
        return "correct: false\nexplanation: no diagram is read from the code."
    if parsed[0].errors:
        e = parsed[0].errors[0]
        return (f"correct: false\nexplanation: the code does not parse: line {e.line}: "
                f"{e.reason}.")
    nouns = _nouns(parsed[0])
    claim = re.compile(r"\b(\d+|" + "|".join(_NUMBER_WORDS) + r")\s+(" + "|".join(
        sorted(map(re.escape, nouns), key=len, reverse=True)) + r")\b", re.I)
    checked = 0
    for number, noun in claim.findall(description):
        noun = noun.lower()
        stated = int(number) if number.isdigit() else _NUMBER_WORDS[number.lower()]
        if stated != nouns[noun]:
            return (f"correct: false\nexplanation: the description states {stated} {noun}, "
                    f"the code has {nouns[noun]}.")
        checked += 1
    return (f"correct: true\nexplanation: the code parses; {checked} stated count"
            f"{'' if checked == 1 else 's'} match the code.")


def answer_judge(request: Request) -> str:
    """baseline:judge as an offline model: a Fig. 9 prompt → `offline_verdict`."""
    from diagbench.models.offline import prompt_text

    m = _PART.search(prompt_text(request))
    if m is None:
        raise ValueError("baseline:judge answers only the judge prompt of paper 004 Fig. 9")
    return offline_verdict(m.group("lang").strip(), m.group("code"), m.group("description"))
