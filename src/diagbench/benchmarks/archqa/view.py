"""archqa's samples for `diagbench view`: each model's answer to each question, from a
run of `eval archqa` (its saved responses) or of `score archqa --responses` (the logs
it scored)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from diagbench.benchmarks.jsonl import not_json, read_text
from diagbench.report.view import SampleView, as_text

if TYPE_CHECKING:
    from diagbench.benchmarks.archqa.records import ArchQAScore
    from diagbench.benchmarks.protocol import Benchmark


def sample_views(bench: Benchmark, run: Path, data: Path | None = None
                 ) -> Iterator[SampleView]:
    """The views of `run`: asked questions with their prompts, or logged answers."""
    try:
        manifest = json.loads(read_text(run / "manifest.json"))
    except json.JSONDecodeError as exc:
        raise not_json(run / "manifest.json", exc) from None
    if manifest.get("source") == "response logs":
        yield from _logged(bench, run, manifest)
        return
    from diagbench.benchmarks.runs import replayed

    back = replayed(bench, run, data)
    for model, s in back.each():
        ask = back.ask(s.id)
        yield _view(bench.name, s, ask.prompt, ask.image, back.text(model, s.id),
                    back.reasoning(model, s.id), back.flags(model, s.id))


def _logged(bench: Benchmark, run: Path, manifest: Mapping) -> Iterator[SampleView]:
    """The views of logs scored against a data set, or on their own questions (no
    images then)."""
    from diagbench.benchmarks.archqa.answers import read_log
    from diagbench.benchmarks.archqa.data import load_data
    from diagbench.benchmarks.archqa.log_questions import logs_as_data

    files = {model: Path(entry["file"]) for model, entry in manifest["logs"].items()}
    images: dict[str, str] = {}
    if manifest.get("data"):
        questions, images, _ = load_data(Path(manifest["data"]))
        logs = {model: read_log(path, questions) for model, path in files.items()}
    else:
        questions, read, _ = logs_as_data(list(files.values()))
        logs = dict(zip(files, read, strict=True))
    by_id = {q.id: q for q in questions}
    for model, records in bench.load_scores(run, list(files)).items():
        for s in records:
            q = by_id[s.id]
            logged = logs[model].answers.get(s.id)
            yield _view(bench.name, s, q.text,
                        Path(images[q.diagram]) if q.diagram in images else None,
                        logged.response if logged else None)


def _view(benchmark: str, s: ArchQAScore, prompt: str, image: Path | None,
          answer: str | None, reasoning: str | None = None, flags: tuple[str, ...] = ()
          ) -> SampleView:
    if s.judge is not None and s.judge != s.correct:
        flags += (f"the judge disagrees (judge: {'right' if s.judge else 'wrong'})",)
    return SampleView(
        benchmark, s.model, s.id, s.subtype, s.family, s.status, prompt, image, answer,
        as_text(s.answer), as_text(s.gold), correct=s.correct,
        parts={"where": s.where, "read as": s.prediction, "difficulty": s.difficulty,
               "scorer": s.scorer, "judge": s.judge, "judge note": s.judge_note,
               "notes": list(s.notes)},
        error=s.error, reasoning=reasoning, flags=flags)
