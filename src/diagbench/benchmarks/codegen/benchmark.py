"""The codegen benchmark (paper 004_34f8485b6a3a0424.txt §4, STRUDEL's code-generation
study). It has no data set to build: `eval codegen` plans the samples from its options.

    RUN/  models/MODEL/responses.jsonl (both rounds of the sequential prompts),
          models/MODEL/code/ID.EXT; scores.jsonl; summary.json; report.html, plots/
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from diagbench.benchmarks.options import comma_list
from diagbench.benchmarks.progress import Bars
from diagbench.benchmarks.protocol import (
    Benchmark,
    DataError,
    Dataset,
    RowMetric,
    SampleValue,
)
from diagbench.benchmarks.registering import benchmark
from diagbench.benchmarks.synthesis import COMPLEXITIES, PROMPTINGS
from diagbench.languages import category_names, languages_of, names
from diagbench.report.leaderboard import Headline

if TYPE_CHECKING:
    from collections.abc import Iterator

    from diagbench.benchmarks.asking import Answer, Ask
    from diagbench.benchmarks.codegen.records import CodegenScore, CodegenSummary
    from diagbench.benchmarks.failures import Failures
    from diagbench.report.view import SampleView

_CATEGORIES = category_names()
_LANGUAGES = names()


@benchmark("codegen")
class CodegenBenchmark(Benchmark["CodegenScore", "CodegenSummary"]):
    description = ("Diagram code written by a model (paper 004 §4, STRUDEL): validity per "
                   "category × FRL and complexity, complexity consistency, all-in-one vs "
                   "sequential prompts")
    eval_options = (
        click.option("--categories", default=",".join(_CATEGORIES), show_default=True,
                     callback=comma_list(_CATEGORIES), help="Comma-separated categories."),
        click.option("--languages", default=",".join(_LANGUAGES), show_default=True,
                     callback=comma_list(_LANGUAGES), help="Comma-separated FRLs."),
        click.option("--per-category", type=click.IntRange(1), default=5, show_default=True,
                     help="Personas per category, each asked for every FRL and level."),
        click.option("--complexity", "complexities", default=",".join(COMPLEXITIES),
                     show_default=True, callback=comma_list(COMPLEXITIES),
                     help="Complexity levels, each asked of every persona."),
        click.option("--prompting", "promptings", default=",".join(PROMPTINGS),
                     show_default=True, callback=comma_list(PROMPTINGS),
                     help="Prompting approaches: all-in-one (Fig. 7), sequential (the "
                          "problem statement, then the description and code given it)."),
        click.option("--sample-seed", type=int, default=0, show_default=True,
                     help="Seed of the choice of personas and domains."),
        click.option("--jobs", type=click.IntRange(1, 64), default=2, show_default=True,
                     help="Processes per rendering engine."),
    )

    def __init__(self) -> None:
        self.jobs = 2

    def samples(self, run: Path, bars: Bars, *, categories: list[str] | None = None,
                languages: list[str] | None = None, per_category: int = 5,
                complexities: list[str] | None = None, promptings: list[str] | None = None,
                sample_seed: int = 0, jobs: int = 2, **_: Any) -> Dataset:
        from diagbench.benchmarks.codegen.plan import plan, plan_manifest

        self.jobs = jobs
        samples = plan(categories or list(_CATEGORIES), languages or list(_LANGUAGES),
                       per_category, complexities or list(COMPLEXITIES),
                       promptings or list(PROMPTINGS), sample_seed)
        if not samples:
            raise DataError(f"nothing to ask: no category among {', '.join(categories or [])} "
                            f"has an FRL among {', '.join(languages or [])}")
        return Dataset(samples, (), plan_manifest(samples))

    def prompts(self, data: Dataset) -> list[Ask]:
        from diagbench.benchmarks.synthesis import first_ask
        return [first_ask(s) for s in data.samples]

    def answers(self, data: Dataset, ask: Callable[[list[Ask]], Mapping[str, Answer]]
                ) -> Mapping[str, Answer]:
        from diagbench.benchmarks.synthesis import ask_all
        return ask_all(data.samples, ask)

    def score(self, data: Dataset, model: str, answers: Mapping[str, Answer],
              out: Path) -> list[CodegenScore]:
        from diagbench.benchmarks.codegen.scoring import score_model
        return score_model(model, data.samples, answers, out, self.jobs)

    def summarize(self, data: Dataset, scores: Mapping[str, list[CodegenScore]]
                  ) -> CodegenSummary:
        from diagbench.benchmarks.codegen.scoring import summarize
        return summarize(scores)

    def records(self) -> tuple[type[CodegenScore], type[CodegenSummary]]:
        from diagbench.benchmarks.codegen.records import CodegenScore, CodegenSummary

        return CodegenScore, CodegenSummary

    def report(self, run: Path, data: Dataset, scores: Mapping[str, list[CodegenScore]],
               summary: CodegenSummary) -> Path:
        from diagbench.benchmarks.codegen.report import write_report
        return write_report(run, summary, scores)

    headline_metrics = (
        *(RowMetric(f"validity {p}", True, f"% of codes written with {p} prompting that "
                    f"render as the category asked", scale=100) for p in PROMPTINGS),
        *(RowMetric(f"validity {category}/{language}", True,
                    f"% of {category} codes written in {language} (every level and "
                    f"prompting) that render as {category}", scale=100)
          for category in _CATEGORIES for language in languages_of(category)))

    def sample_views(self, run: Path, data: Path | None = None) -> Iterator[SampleView]:
        from diagbench.benchmarks.codegen.view import sample_views
        return sample_views(self, run, data)

    def failures(self, summary: CodegenSummary) -> dict[str, Failures]:
        from diagbench.benchmarks.failures import Failures
        return {name: Failures.from_json(m["failures"]) if "failures" in m
                else Failures(sum(m["outcomes"].values()), {
                    "call_error": m["outcomes"].get("call_error", 0),
                    "unparsed": m["outcomes"].get("no_code", 0)})
                for name, m in summary.models.items()}

    def headlines(self, summary: CodegenSummary) -> list[Headline]:
        from diagbench.benchmarks.intervals import clustered
        known = {metric.name for metric in self.headline_metrics}
        return [*(Headline(name, f"validity {p}", cell["validity"], cell["n"],
                           clustered=clustered(m.get("intervals"), f"validity {p}"))
                  for name, m in summary.models.items()
                  for p, cell in m["promptings"].items()),
                *(Headline(name, metric, cell["validity"], cell["n"])
                  for name, m in summary.models.items() for key, cell in m["frls"].items()
                  if (metric := f"validity {key.replace('|', '/')}") in known)]

    def sample_values(self, scores: Mapping[str, list[CodegenScore]]) -> list[SampleValue]:
        from diagbench.benchmarks.codegen.scoring import sample_values
        return [v for records in scores.values() for v in sample_values(records)]

    def lines(self, summary: CodegenSummary, scores: Mapping[str, list[CodegenScore]]
              ) -> list[str]:
        from diagbench.benchmarks.codegen.report import table_lines
        return table_lines(summary)
