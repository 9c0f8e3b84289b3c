"""Response logs in SADU's published format (its experiment_result/response_result/):
JSON lines with ``diagram_type`` (behavior, structural, ER), ``file`` (the diagram's
name), ``question``, ``response``, ``answer``, ``metadata.sub_type`` and
``token_usage`` (prompt, completion and — Gemini — thinking tokens, under
provider-specific keys), ``setting`` (the model, and for the ablations of Tables 8–9
``prompt_type`` and ``thinking_level``). Each line is matched to a question of the
imported data set by family, file and question text.

Completion tokens are counted as the paper's Table 3 counts them, reasoning included:
Gemini's logs give the thinking tokens apart from ``completion_tokens`` (its
``candidates_token_count``), so they are added; OpenAI's ``completion_tokens`` already
hold the reasoning tokens (``completion_tokens_details.reasoning_tokens`` is a part of
them)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from diagbench.benchmarks.archqa.records import SADU_FAMILY, Question
from diagbench.benchmarks.jsonl import read_jsonl
from diagbench.benchmarks.protocol import DataError

# the keys of each token count in SADU's logs, by provider
_PROMPT = ("prompt_tokens", "prompt_token", "input_tokens")
_COMPLETION = ("completion_tokens", "output_tokens")
_THOUGHTS = ("thoughts_token", "thoughts_tokens", "thoughts_token_count")  # apart
_REASONING_PART = ("reasoning_tokens",)  # a part of the completion tokens


@dataclass(frozen=True, slots=True)
class LoggedAnswer:
    """One line of a log: the question id it answers, the response text (None when
    the line has none) and its tokens."""

    id: str
    response: str | None
    tokens: dict[str, int | None] = field(default_factory=dict)
    logged_gold: object = None


@dataclass(frozen=True, slots=True)
class Log:
    """A log read: its answers by question id, and what could not be matched."""

    name: str
    answers: dict[str, LoggedAnswer]
    unmatched: list[str]
    duplicates: int
    gold_differs: int
    setting: object = None  # the first line's ``setting``: model, prompt, thinking level


def _first(usage: Mapping, keys: tuple[str, ...]) -> int | None:
    for key in keys:
        value = usage.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def tokens_of(usage: object) -> dict[str, int | None]:
    """Prompt, completion (reasoning included) and reasoning tokens of a
    ``token_usage`` object (None: not in it).

    >>> tokens_of({"prompt_tokens": 600, "thoughts_token": 300, "completion_tokens": 15})
    {'prompt': 600, 'completion': 315, 'reasoning': 300}
    >>> tokens_of({"prompt_tokens": 9, "completion_tokens": 213,
    ...            "completion_tokens_details": {"reasoning_tokens": 192}})
    {'prompt': 9, 'completion': 213, 'reasoning': 192}
    """
    if not isinstance(usage, Mapping):
        return {"prompt": None, "completion": None, "reasoning": None}
    completion, thoughts = _first(usage, _COMPLETION), _first(usage, _THOUGHTS)
    details = usage.get("completion_tokens_details")
    part = _first(details, _REASONING_PART) if isinstance(details, Mapping) else None
    if thoughts is not None:
        completion = (completion or 0) + thoughts
    return {"prompt": _first(usage, _PROMPT), "completion": completion,
            "reasoning": thoughts if thoughts is not None
            else part if part is not None else _first(usage, _REASONING_PART)}


def question_key(family: str, diagram_file: str, text: str) -> tuple[str, str, str]:
    return family, diagram_file, text


def read_log(path: Path, questions: list[Question]) -> Log:
    """The answers of the log `path` to `questions` (DataError when a line is not one
    of SADU's log lines)."""
    index: dict[tuple[str, str, str], Question] = {}
    for q in questions:
        index.setdefault(question_key(q.family, q.diagram.split("/", 1)[1], q.text), q)
    answers: dict[str, LoggedAnswer] = {}
    unmatched: list[str] = []
    duplicates = gold_differs = 0
    setting = None
    for number, row in read_jsonl(path):
        try:
            family = SADU_FAMILY[row["diagram_type"]]
            key = question_key(family, str(row["file"]), str(row["question"]))
        except (KeyError, TypeError):
            raise DataError(f"{path}:{number}: not a SADU response line (diagram_type, "
                            "file, question)") from None
        if setting is None:
            setting = row.get("setting")
        question = index.get(key)
        if question is None:
            unmatched.append(f"{path}:{number}: no such question in the data "
                             f"({row['diagram_type']}/{row['file']})")
            continue
        if question.id in answers:
            duplicates += 1
            continue
        response = row.get("response")
        if "answer" in row and row["answer"] != question.gold:
            gold_differs += 1
        answers[question.id] = LoggedAnswer(question.id,
                                            response if isinstance(response, str) else None,
                                            tokens_of(row.get("token_usage")),
                                            row.get("answer"))
    return Log(path.stem, answers, unmatched, duplicates, gold_differs, setting)
