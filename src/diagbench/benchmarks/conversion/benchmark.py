"""The conversion benchmark (paper 000_30f6dc923c2b066d.txt §2.1, §3.2, §4): each model
converts the images of ground-truth PlantUML scripts to PlantUML; every script is
compared with its ground truth by both methods of `diagbench.compare`.

    RUN/gold/NAME.png        the images the models see (unless --images)
    RUN/gold/NAME~FAMILY.*   with --twins, the twins' images (and a counterfactual's
                             ground truth, .puml)
    RUN/models/MODEL/…       responses.jsonl, conversions.jsonl, pred/NAME.puml|png
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from diagbench.benchmarks.conversion.export import COLUMNS, ROW_METRIC
from diagbench.benchmarks.conversion.options import PROMPT_OPTION, RENDER_OPTIONS
from diagbench.benchmarks.progress import Bars
from diagbench.benchmarks.protocol import (
    Benchmark,
    DataError,
    Dataset,
    RowMetric,
    SampleValue,
)
from diagbench.benchmarks.registering import benchmark
from diagbench.benchmarks.robustness import HABIT_METRIC
from diagbench.benchmarks.twins import twins_option
from diagbench.compare.methods import METHODS
from diagbench.report.leaderboard import Headline

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from diagbench.benchmarks.asking import Answer, Ask
    from diagbench.benchmarks.conversion.records import (
        ConversionCounts,
        ConversionScore,
        ConversionSummary,
        ModelResults,
    )
    from diagbench.benchmarks.failures import Failures
    from diagbench.report.view import SampleView


@benchmark("conversion")
class ConversionBenchmark(Benchmark["ConversionScore", "ConversionSummary"]):
    description = ("Image → PlantUML conversion of sequence diagrams, scored against the "
                   "ground truth component by component (paper 000, Table 2)")
    eval_options = (
        click.option("--gold", required=True, type=click.Path(exists=True, path_type=Path),
                     help="Ground-truth PlantUML scripts (a folder, searched recursively, "
                          "or a file)."),
        click.option("--images", type=click.Path(exists=True, file_okay=False, path_type=Path),
                     help="Take NAME.png (or .jpg, …) from here instead of rendering the "
                          "ground truth."),
        PROMPT_OPTION, *RENDER_OPTIONS,
        twins_option("its ground-truth script changed by one edit, the edited script its "
                     "ground truth", "the same script drawn in a PlantUML style"))
    columns = COLUMNS
    row_metric = ROW_METRIC
    headline_metrics = (*(
        RowMetric(f"error rate {method}", False, f"insertions + deletions + substitutions "
                  f"over the ground truth's elements, % ({method} method, pooled)",
                  scale=100)
        for method in METHODS), HABIT_METRIC)

    def is_data(self, data: Path) -> bool:
        from diagbench.benchmarks.conversion.export import is_data
        return is_data(data)

    def samples(self, run: Path, bars: Bars, *, gold: str, images: str | None = None,
                prompt: str = "paper", jobs: int = 2, render_timeout: float = 20.0,
                twins: Sequence[str] = (), **_: Any) -> Dataset:
        from diagbench.benchmarks.conversion.gold import load_gold
        from diagbench.benchmarks.conversion.prompts import PromptError, load_prompt
        from diagbench.benchmarks.conversion.twins import make_twins
        from diagbench.render.plantuml_pipe import PlantUMLEngine

        drawn = [f for f in twins if f != "capture"]
        if images and drawn:
            raise click.UsageError(
                f"--twins {','.join(drawn)} draws the ground truth again: with --images "
                "(your own images) only capture twins can be made")
        try:
            self.prompt = load_prompt(prompt)
        except PromptError as exc:
            raise DataError(str(exc)) from None
        self.engine = PlantUMLEngine(jobs, render_timeout)
        gold_set = load_gold(Path(gold), run / "gold", self.engine,
                             Path(images) if images else None)
        made, info = make_twins(gold_set.samples, twins, run / "gold", self.engine) \
            if twins else ([], {})
        samples = gold_set.samples + made
        digest = hashlib.sha256()
        for sample in samples:
            digest.update(sample.name.encode() + b"\0" + Path(sample.gold or "").read_bytes()
                          + b"\0" + (sample.twin.change.encode() + b"\0" if sample.twin
                                     else b""))
        manifest = {"dataset_hash": digest.hexdigest(), "samples": len(gold_set.samples),
                    "gold_problems": len(gold_set.problems),
                    "images": str(images) if images else "rendered from the ground truth",
                    "prompt": self.prompt.name, "prompt_template_hash": self.prompt.sha256,
                    "tools": {"plantuml": self.engine.version()}}
        if twins:
            manifest["twins"] = {family: made.to_json() for family, made in info.items()}
        return Dataset(samples, gold_set.problems, manifest)

    def prompts(self, data: Dataset) -> list[Ask]:
        from diagbench.benchmarks.conversion.convert import asks
        return asks(list(data.samples), self.prompt)

    def score(self, data: Dataset, model: str, answers: Mapping[str, Answer],
              out: Path) -> list[ConversionScore]:
        from diagbench.benchmarks.conversion.convert import conversions
        from diagbench.benchmarks.conversion.scoring import score
        samples = list(data.samples)
        return score(samples, conversions(samples, answers, out, self.engine), model)

    def summarize(self, data: Dataset, scores: Mapping[str, list[ConversionScore]]
                  ) -> ConversionSummary:
        from diagbench.benchmarks.conversion.scoring import summarize_scores
        return summarize_scores(scores, data.problems)

    def load_scores(self, run: Path, models: list[str]) -> dict[str, list[ConversionScore]]:
        from diagbench.benchmarks.conversion.records import Conversion, ConversionScore
        from diagbench.benchmarks.jsonl import read_jsonl
        from diagbench.benchmarks.runs import model_dir
        lines = read_jsonl(run / "scores.jsonl")
        scores: dict[str, list[ConversionScore]] = {}
        for model in models:
            path = model_dir(run, model) / "conversions.jsonl"
            records = [Conversion.from_json(r) for _, r in read_jsonl(path)]
            mine = [(n, r) for n, r in lines if r.get("model") == model]
            if len(mine) % max(len(records), 1):
                raise DataError(f"{run / 'scores.jsonl'}: {len(mine)} lines of {model} for "
                                f"{len(records)} conversions in {path}")
            scores[model] = [ConversionScore.from_json(line, records[k % len(records)])
                             for k, (_, line) in enumerate(mine)]
        return scores

    def records(self) -> tuple[type[ConversionScore], type[ConversionSummary]]:
        from diagbench.benchmarks.conversion.records import ConversionScore, ConversionSummary

        return ConversionScore, ConversionSummary

    def report(self, run: Path, data: Dataset, scores: Mapping[str, list[ConversionScore]],
               summary: ConversionSummary) -> Path:
        from diagbench.benchmarks.conversion.report import write_report
        return write_report(run, list(data.samples), scores, summary)

    def lines(self, summary: ConversionSummary, scores: Mapping[str, list[ConversionScore]]
              ) -> list[str]:
        """Per model: how the images ended, then Table 2 by each method (the
        originals'); with twins, how theirs ended and the robustness figures."""
        from diagbench.benchmarks.conversion.robustness import MEASURE
        from diagbench.benchmarks.conversion.scoring import by_method, originals
        from diagbench.benchmarks.robustness import robustness_lines
        from diagbench.compare.report import pooled, table2

        def ended(statuses: Mapping[str, int]) -> str:
            return ", ".join(f"{n} {s.replace('_', ' ')}" for s, n in statuses.items())

        out = []
        for name, model in scores.items():
            m = summary.models[name]
            out.append(f"\n== {name}: " + ended(m.conversion.statuses))
            for method in METHODS:
                out += table2(pooled([s.result for s in by_method(originals(model), method)]),
                              method)
            if m.twin_conversion is not None:
                out.append(f"  twins' images: {ended(m.twin_conversion.statuses)}")
            out += robustness_lines(m.robustness, MEASURE)
        return out

    def sample_views(self, run: Path, data: Path | None = None) -> Iterator[SampleView]:
        from diagbench.benchmarks.conversion.view import sample_views
        return sample_views(self, run, data)

    def headlines(self, summary: ConversionSummary) -> list[Headline]:
        from diagbench.benchmarks.conversion.report import total_error_rate
        from diagbench.benchmarks.intervals import clustered
        from diagbench.benchmarks.robustness import habit_headline
        return [h for name, m in summary.models.items() for h in (
            *(Headline(name, f"error rate {method}", total_error_rate(m.methods[method]),
                       m.conversion.images,
                       clustered=clustered(m.intervals, f"error rate {method}"))
              for method in m.methods),
            *habit_headline(name, m.robustness))]

    def failures(self, summary: ConversionSummary) -> dict[str, Failures]:
        """Per model: its unusable images, failed calls and answers without a script (the
        twins' counted with the originals')."""
        from diagbench.benchmarks.failures import Failures

        def count(m: ModelResults, status: str) -> int:
            return sum(c.statuses.get(status, 0) for c in _counts(m))

        return {name: Failures(sum(c.images for c in _counts(m)), {
            "image_error": count(m, "image_error"), "call_error": count(m, "call_error"),
            "unparsed": count(m, "no_script")}) for name, m in summary.models.items()}

    def sample_values(self, scores: Mapping[str, list[ConversionScore]]) -> list[SampleValue]:
        from diagbench.benchmarks.conversion.scoring import sample_values
        return [v for model in scores.values() for v in sample_values(model)]

    def failed_inputs(self, data: Dataset, summary: ConversionSummary) -> bool:
        image_errors = sum(c.statuses["image_error"] for m in summary.models.values()
                           for c in _counts(m))
        return bool(data.problems) or bool(image_errors) or not data.samples


def _counts(m: ModelResults) -> list[ConversionCounts]:
    """How a model's images ended: the originals', and the twins' when any."""
    return [m.conversion] + ([m.twin_conversion] if m.twin_conversion else [])
