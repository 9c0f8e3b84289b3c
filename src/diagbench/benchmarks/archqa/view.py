"""archqa's samples for `diagbench view`: each model's answer to each question, from a
run of `eval archqa` (its saved responses) or of `score archqa --responses` (the logs
it scored)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from diagbench.benchmarks.jsonl import read_text
from diagbench.benchmarks.protocol import DataError
from diagbench.report.view import SampleView, as_text

if TYPE_CHECKING:
    from diagbench.benchmarks.archqa.records import ArchQAScore
    from diagbench.benchmarks.protocol import Benchmark


def sample_views(bench: Benchmark, run: Path) -> Iterator[SampleView]:
    """The views of `run`: asked questions with their prompts, or logged answers."""
    try:
        manifest = json.loads(read_text(run / "manifest.json"))
    except json.JSONDecodeError as exc:
        raise DataError(f"{run / 'manifest.json'}: not JSON ({exc.msg})") from None
    if manifest.get("source") == "response logs":
        yield from _logged(bench, run, manifest)
        return
    from diagbench.benchmarks.runs import replayed

    back = replayed(bench, run)
    for model, scores in back.scores.items():
        for s in scores:
            ask = back.ask(s.id)
            yield _view(bench.name, s, ask.prompt, ask.image, back.text(model, s.id))


def _logged(bench: Benchmark, run: Path, manifest: Mapping) -> Iterator[SampleView]:
    from diagbench.benchmarks.archqa.answers import read_log
    from diagbench.benchmarks.archqa.data import load_data

    questions, images, _ = load_data(Path(manifest["data"]))
    by_id = {q.id: q for q in questions}
    scores = bench.load_scores(run, list(manifest["logs"]))
    for model, records in scores.items():
        log = read_log(Path(manifest["logs"][model]["file"]), questions)
        for s in records:
            q = by_id[s.id]
            logged = log.answers.get(s.id)
            yield _view(bench.name, s, q.text, Path(images[q.diagram]),
                        logged.response if logged else None)


def _view(benchmark: str, s: ArchQAScore, prompt: str, image: Path | None,
          answer: str | None) -> SampleView:
    return SampleView(
        benchmark, s.model, s.id, s.subtype, s.family, s.status, prompt, image, answer,
        as_text(s.answer), as_text(s.gold), correct=s.correct,
        parts={"where": s.where, "read as": s.prediction, "difficulty": s.difficulty,
               "scorer": s.scorer, "judge": s.judge, "judge note": s.judge_note,
               "notes": list(s.notes)},
        error=s.error)
