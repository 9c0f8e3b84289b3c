"""Response logs in SADU's format scored without a data set (`score archqa --responses
LOG…` with no ``--data``): each line carries its question, its gold answer
(``answer``), subtype and — in the hard set's logs — arrow pattern
(``metadata.challenge``), so the logs are their own data set. SADU's hard-set logs
(``sythesis/hard_*``) need this: they answer synthesised diagrams SADU did not publish
(every line names ``img.json``), not the cases of dataset/SAD_hard.

A question is known by its family, file, pattern, text and gold answer; lines alike in
all of these (the hard logs ask one question of five variants of a diagram) are told
apart by their order in the log (by its ``index`` where every line has one), the same
in every log. No image: the report has no complexity plot and no judge can be asked."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from diagbench.benchmarks.archqa.answers import Log, LoggedAnswer, tokens_of
from diagbench.benchmarks.archqa.hard import pattern_of
from diagbench.benchmarks.archqa.questions import SUBTYPES, kind_of
from diagbench.benchmarks.archqa.records import SADU_FAMILY, Question
from diagbench.benchmarks.jsonl import read_jsonl
from diagbench.benchmarks.protocol import DataError


def _lines(path: Path) -> list[tuple[int, dict]]:
    rows = list(read_jsonl(path))
    if rows and all(isinstance(r.get("index"), int) for _, r in rows):
        rows.sort(key=lambda r: r[1]["index"])
    return rows


def _question(path: Path, number: int, row: dict, seen: Counter[str]) -> Question:
    try:
        family = SADU_FAMILY[row["diagram_type"]]
        file, text, gold = str(row["file"]), str(row["question"]), row["answer"]
        metadata = row["metadata"]
        subtype = metadata["sub_type"]
    except (KeyError, TypeError):
        raise DataError(f"{path}:{number}: not a SADU response line with its question "
                        "(diagram_type, file, question, answer, metadata.sub_type)") from None
    if subtype not in SUBTYPES:
        raise DataError(f"{path}:{number}: unknown subtype {subtype!r}")
    pattern = pattern_of(metadata.get("challenge"))
    key = json.dumps([family, file, pattern, text, gold], ensure_ascii=False)
    digest = hashlib.sha256(key.encode()).hexdigest()[:12]
    occurrence = seen[digest]
    seen[digest] += 1
    return Question(f"{family}/{file}/{digest}.{occurrence}", f"{family}/{file}", family,
                    text, gold, subtype, kind_of(subtype), metadata.get("difficulty"),
                    None, pattern)


def logs_as_data(paths: Sequence[Path]) -> tuple[list[Question], list[Log], str]:
    """The questions the logs `paths` ask (each once, in order of first appearance),
    each log's answers to them, and a sha256 of the questions."""
    questions: dict[str, Question] = {}
    logs: list[Log] = []
    for path in paths:
        seen: Counter[str] = Counter()
        answers: dict[str, LoggedAnswer] = {}
        setting = None
        for number, row in _lines(path):
            setting = setting or row.get("setting")
            q = _question(path, number, row, seen)
            questions.setdefault(q.id, q)
            response = row.get("response")
            answers[q.id] = LoggedAnswer(q.id, response if isinstance(response, str) else None,
                                         tokens_of(row.get("token_usage")), q.gold)
        logs.append(Log(path.stem, answers, [], 0, 0, setting))
    digest = hashlib.sha256("".join(json.dumps(q.to_json(), ensure_ascii=False) + "\n"
                                    for q in questions.values()).encode()).hexdigest()
    return list(questions.values()), logs, digest
