"""codegen's samples for `diagbench view`: each model's code for each sample (the code
it wrote, whether it renders, the engine's error)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from diagbench.report.view import SampleView

if TYPE_CHECKING:
    from diagbench.benchmarks.protocol import Benchmark


def sample_views(bench: Benchmark, run: Path, data: Path | None = None
                 ) -> Iterator[SampleView]:
    from diagbench.benchmarks.runs import model_dir, replayed

    back = replayed(bench, run, data)
    for model, s in back.each():
        ask = back.ask(s.id)
        code = model_dir(run, model) / s.code if s.code else None
        yield SampleView(
            bench.name, model, s.id, s.prompting, s.category, s.status, ask.prompt,
            ask.image, back.text(model, s.id),
            code.read_text(encoding="utf-8") if code and code.is_file() else None, None,
            correct=s.valid, parts={"language": s.language, "complexity": s.complexity,
                                    "length": s.length, "measure": s.measure,
                                    "fenced": s.fenced, "kind": s.kind},
            error=s.error, reasoning=back.reasoning(model, s.id), language=s.language,
            prediction_image=model_dir(run, model) / s.drawn if s.drawn else None,
            flags=back.flags(model, s.id))
