"""structure's samples for `diagbench view`: each model's answer to each task."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from diagbench.report.view import SampleView, as_text

if TYPE_CHECKING:
    from diagbench.benchmarks.protocol import Benchmark


def sample_views(bench: Benchmark, run: Path, data: Path | None = None
                 ) -> Iterator[SampleView]:
    from diagbench.benchmarks.runs import model_dir, replayed

    back = replayed(bench, run, data)
    for model, s in back.each():
        ask = back.ask(s.id)
        parts = {"read": s.read, "language": s.language, "answer type": s.answer_type,
                 "valid": s.valid, "entity F1": s.entity_f1,
                 "relation F1": s.relation_f1, **(s.parts or {}),
                 "STRUDEL counts-only": s.counts_score}
        if s.matchings:  # scored both ways: each matching's verdict or score
            parts |= {"strict reading": s.matchings.strict,
                      "STRUDEL's matching": s.matchings.strudel}
        gold = as_text(s.gold)
        if s.task == "image_to_code" and gold is not None:  # the gold code, not its path
            source = getattr(bench, "data_dir", Path(".")) / gold
            gold = source.read_text(encoding="utf-8") if source.is_file() else gold
        yield SampleView(
            bench.name, model, s.id, s.task, s.category, s.status, ask.prompt, ask.image,
            back.text(model, s.id), as_text(s.predicted), gold,
            correct=s.correct, score=s.score,
            parts={k: v for k, v in parts.items() if v is not None}, error=s.error,
            reasoning=back.reasoning(model, s.id), language=s.language,
            prediction_image=model_dir(run, model) / s.drawn if s.drawn else None,
            flags=back.flags(model, s.id), task_type=s.task_type, domain=s.domain)
