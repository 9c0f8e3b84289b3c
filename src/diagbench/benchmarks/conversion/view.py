"""conversion's samples for `diagbench view`: each model's script for each image, by
each comparison method — the drawn script beside the image, the differences counted."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from diagbench.report.view import SampleView

if TYPE_CHECKING:
    from diagbench.benchmarks.protocol import Benchmark


def sample_views(bench: Benchmark, run: Path, data: Path | None = None
                 ) -> Iterator[SampleView]:
    from diagbench.benchmarks.conversion.report import total_error_rate
    from diagbench.benchmarks.runs import replayed

    back = replayed(bench, run, data)
    gold = {s.name: s.gold for s in back.data.samples}
    for model, s in back.each():
        record, ask = s.record, back.ask(s.record.name)
        result = s.result.as_dict()
        rate = total_error_rate(result) if result["status"] == "ok" else None
        yield SampleView(
            bench.name, model, record.name, s.method, "sequence", record.status,
            ask.prompt, ask.image, back.text(model, record.name),
            _text(Path(record.script) if record.script else None),
            _text(gold.get(record.name)), score=rate,
            parts={"valid": record.valid, "errors %": rate,
                   "extraction": list(record.extraction),
                   "normalizations": list(record.normalizations)},
            error=record.error or record.render_error or result.get("error"),
            prediction_image=Path(record.rendered) if record.rendered else None,
            differences=tuple(result.get("differences", ())),
            reasoning=back.reasoning(model, record.name), flags=back.flags(model, record.name))


def _text(path: Path | None) -> str | None:
    return path.read_text(encoding="utf-8") if path and path.is_file() else None
