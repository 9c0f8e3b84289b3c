"""prior-bias's samples for `diagbench view`: each model's answer about each instance at
each scale (stage 2's relation answer; stage 1's class names among the parts), an
instance with twins shown beside its original and its other twins at the same scale
(each image with its change named, its gold and the model's answer)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from diagbench.report.view import Beside, SampleView

if TYPE_CHECKING:
    from diagbench.benchmarks.prior_bias.records import Item, PriorBiasScore
    from diagbench.benchmarks.protocol import Benchmark


def sample_views(bench: Benchmark, run: Path, data: Path | None = None
                 ) -> Iterator[SampleView]:
    from diagbench.benchmarks.runs import replayed

    back = replayed(bench, run, data)
    items: Sequence[Item] = back.data.samples
    diagrams = {item.id: item.diagram for item in items}
    besides = _Twins(items, getattr(bench, "data", Path(".")),
                     {(model, f"{s.id}@{s.scale}"): s for model, s in back.each()})
    for model, s in back.each():
        ident = f"{s.id}@{s.scale}"
        ask = back.ask(ident)
        names = back.text(model, f"names:{diagrams.get(s.id)}@{s.scale}")
        twin = {"twin": besides.change(s.id), "answered from habit": s.habit}
        yield SampleView(
            bench.name, model, ident, s.condition, s.relation, s.status, ask.prompt,
            ask.image, back.text(model, ident), s.label, s.gold, correct=s.correct,
            parts={"scale": s.scale, "read as": s.parse, "class names answer": names,
                   "class names read": list(s.names) if s.names is not None else None,
                   "names exact match": s.em,
                   **{k: v for k, v in twin.items() if v is not None}},
            error=s.error, reasoning=back.reasoning(model, ident),
            flags=back.flags(model, ident), beside=besides.of(model, s.id, s.scale))


class _Twins:
    """An instance's original and twins, for `SampleView.beside`: `items` the run's,
    `data` the data set (their images), `scores` every (model, instance@scale)'s."""

    def __init__(self, items: Sequence[Item], data: Path,
                 scores: dict[tuple[str, str], PriorBiasScore]) -> None:
        self.items = {item.id: item for item in items}
        #: an instance's group: its original and the original's twins, in the run's order
        self.groups: dict[str, list[str]] = {}
        for item in items:
            self.groups.setdefault(item.twin_of or item.id, []).append(item.id)
        self.data, self.scores = data, scores

    def of(self, model: str, ident: str, scale: str) -> tuple[Beside, ...]:
        """The original and twins of instance `ident` but itself (none: it has none),
        each at `scale` with its gold and `model`'s answer."""
        item = self.items.get(ident)
        group = self.groups.get(item.twin_of or ident, []) if item else []
        return tuple(self._beside(model, other, scale) for other in group
                     if other != ident and len(group) > 1)

    def change(self, ident: str) -> str | None:
        """"FAMILY twin: CHANGE" of instance `ident` (None: not a twin)."""
        item = self.items.get(ident)
        twin = item.twin if item else None
        return f"{twin.family} twin: {twin.change}" if twin else None

    def _beside(self, model: str, ident: str, scale: str) -> Beside:
        item = self.items[ident]
        score = self.scores.get((model, f"{ident}@{scale}"))
        lines = [f"gold: {item.gold}"]
        if score is not None:
            lines.append(f"read from the answer: {score.label} ("
                         f"{'right' if score.correct else 'wrong'})"
                         if score.status == "ok" else f"no answer: {score.status}")
            if score.habit:
                lines.append("the original's answer (answered from habit)")
        image = item.images.get(scale)
        return Beside(self.change(ident) or "the original",
                      self.data / image.path if image else None, tuple(lines))
