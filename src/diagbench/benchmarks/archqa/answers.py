"""Response logs in SADU's published format (its experiment_result/response_result/):
JSON lines with ``diagram_type`` (behavior, structural, ER), ``file`` (the diagram's
name), ``question``, ``response``, ``answer``, ``metadata.sub_type`` and
``token_usage`` (prompt, completion and — Gemini — thinking tokens, under
provider-specific keys). Each line is matched to a question of the imported data set by
family, file and question text."""

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
_REASONING = ("thoughts_token", "thoughts_tokens", "reasoning_tokens")


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


def _first(usage: Mapping, keys: tuple[str, ...]) -> int | None:
    for key in keys:
        value = usage.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def tokens_of(usage: object) -> dict[str, int | None]:
    """Prompt, completion and reasoning tokens of a ``token_usage`` object."""
    if not isinstance(usage, Mapping):
        return {"prompt": None, "completion": None, "reasoning": None}
    return {"prompt": _first(usage, _PROMPT), "completion": _first(usage, _COMPLETION),
            "reasoning": _first(usage, _REASONING)}


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
    for number, row in read_jsonl(path):
        try:
            family = SADU_FAMILY[row["diagram_type"]]
            key = question_key(family, str(row["file"]), str(row["question"]))
        except (KeyError, TypeError):
            raise DataError(f"{path}:{number}: not a SADU response line (diagram_type, "
                            "file, question)") from None
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
    return Log(path.stem, answers, unmatched, duplicates, gold_differs)
