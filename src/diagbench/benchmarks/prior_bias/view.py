"""prior-bias's samples for `diagbench view`: each model's answer about each instance at
each scale (stage 2's relation answer; stage 1's class names among the parts)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from diagbench.report.view import SampleView

if TYPE_CHECKING:
    from diagbench.benchmarks.protocol import Benchmark


def sample_views(bench: Benchmark, run: Path, data: Path | None = None
                 ) -> Iterator[SampleView]:
    from diagbench.benchmarks.runs import replayed

    back = replayed(bench, run, data)
    diagrams = {item.id: item.diagram for item in back.data.samples}
    for model, s in back.each():
        ident = f"{s.id}@{s.scale}"
        ask = back.ask(ident)
        names = back.text(model, f"names:{diagrams.get(s.id)}@{s.scale}")
        yield SampleView(
            bench.name, model, ident, s.condition, s.relation, s.status, ask.prompt,
            ask.image, back.text(model, ident), s.label, s.gold, correct=s.correct,
            parts={"scale": s.scale, "read as": s.parse, "class names answer": names,
                   "class names read": list(s.names) if s.names is not None else None,
                   "names exact match": s.em},
            error=s.error, reasoning=back.reasoning(model, ident),
            flags=back.flags(model, ident))
