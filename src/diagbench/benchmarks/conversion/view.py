"""conversion's samples for `diagbench view`: each model's script for each image, by
each comparison method — the drawn script beside the image, the differences counted;
an image with twins shown beside its original and its other twins (each with its
change named and the same model's errors there)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from diagbench.report.view import Beside, SampleView

if TYPE_CHECKING:
    from diagbench.benchmarks.conversion.records import ConversionScore
    from diagbench.benchmarks.conversion.samples import Sample
    from diagbench.benchmarks.protocol import Benchmark


def sample_views(bench: Benchmark, run: Path, data: Path | None = None
                 ) -> Iterator[SampleView]:
    from diagbench.benchmarks.conversion.report import total_error_rate
    from diagbench.benchmarks.runs import replayed

    back = replayed(bench, run, data)
    samples: dict[str, Sample] = {s.name: s for s in back.data.samples}
    twins = _Twins(list(samples.values()),
                   {(model, s.method, s.record.name): s for model, s in back.each()})
    for model, s in back.each():
        record, ask = s.record, back.ask(s.record.name)
        result = s.result.as_dict()
        rate = total_error_rate(result) if result["status"] == "ok" else None
        parts = {"valid": record.valid, "errors %": rate,
                 "extraction": list(record.extraction),
                 "normalizations": list(record.normalizations)}
        if record.twin is not None:
            parts["twin"] = f"{record.twin.family} twin: {record.twin.change}"
        if s.habit is not None:
            parts["closer to the original's ground truth (from habit)"] = s.habit
        sample = samples.get(record.name)
        yield SampleView(
            bench.name, model, record.name, s.method, "sequence", record.status,
            ask.prompt, ask.image, back.text(model, record.name),
            _text(Path(record.script) if record.script else None),
            _text(sample.gold if sample else None), score=rate, parts=parts,
            error=record.error or record.render_error or result.get("error"),
            prediction_image=Path(record.rendered) if record.rendered else None,
            differences=tuple(result.get("differences", ())),
            reasoning=back.reasoning(model, record.name), flags=back.flags(model, record.name),
            beside=twins.of(model, s))


class _Twins:
    """An image's original and twins, for `SampleView.beside`: `samples` the run's,
    `scores` every (model, method, image name)'s score."""

    def __init__(self, samples: Sequence[Sample],
                 scores: Mapping[tuple[str, str, str], ConversionScore]) -> None:
        self.samples = {s.name: s for s in samples}
        self.groups: dict[str, list[str]] = {}
        for s in samples:
            self.groups.setdefault(s.twin_of or s.name, []).append(s.name)
        self.scores = scores

    def of(self, model: str, score: ConversionScore) -> tuple[Beside, ...]:
        """The images of `score`'s original and twins but its own (none: it has none),
        each with `model`'s errors there by the same method."""
        name = score.record.name
        sample = self.samples.get(name)
        group = self.groups.get(sample.twin_of or name, []) if sample else []
        if len(group) < 2:
            return ()
        return tuple(self._beside(self.samples[other],
                                  self.scores.get((model, score.method, other)))
                     for other in group if other != name)

    @staticmethod
    def _beside(sample: Sample, score: ConversionScore | None) -> Beside:
        caption = (f"{sample.twin.family} twin: {sample.twin.change}" if sample.twin
                   else "the original")
        lines = ["its ground truth: the edited script" if sample.twin
                 and sample.twin.family == "counterfactual" else
                 "its ground truth: the original's script"]
        if score is not None:
            c = score.result.comparison
            lines.append(f"{score.record.status}: not compared" if c is None else
                         f"{c.errors} errors of {c.gold_elements} ground-truth elements")
            if score.habit:
                lines.append("closer to the original's ground truth (from habit)")
        return Beside(caption, sample.image, tuple(lines))


def _text(path: Path | None) -> str | None:
    return path.read_text(encoding="utf-8") if path and path.is_file() else None
