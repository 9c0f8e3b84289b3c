"""The prior-bias benchmark (paper 002_b0dc7d344efc1856.txt): class diagrams whose arrow
agrees or conflicts with what the class names suggest, in five conditions × four
relations; do models read the arrow, or answer from the names?

    DIR/ (build)   diagrams/ID.puml, images/ID@SCALE.png, manifest.jsonl, build.json
    RUN/ (eval)    models/MODEL/responses.jsonl; scores.jsonl: model × instance × scale
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import click

from diagbench.benchmarks.prior_bias.export import COLUMNS, ROW_METRIC
from diagbench.benchmarks.progress import Bars
from diagbench.benchmarks.protocol import (
    Benchmark,
    DataError,
    Dataset,
    RowMetric,
)
from diagbench.benchmarks.registry import benchmark
from diagbench.report.leaderboard import Headline

if TYPE_CHECKING:
    from diagbench.benchmarks.asking import Answer, Ask
    from diagbench.benchmarks.prior_bias.records import PriorBiasScore, PriorBiasSummary
    from diagbench.executors.protocol import Executor

WORDNET_DIR = Path("/usr/share/wordnet")


@benchmark("prior-bias")
class PriorBiasBenchmark(Benchmark["PriorBiasScore", "PriorBiasSummary"]):
    description = ("Prior bias in UML class diagrams: relation direction against what the "
                   "class names suggest (paper 002; RelAcc, EM, Δ)")
    baselines: ClassVar[Mapping[str, str]] = {
        "prior": "diagbench.benchmarks.prior_bias.baselines:answer_from_prior",
        "vision-uml": "diagbench.benchmarks.prior_bias.baselines:answer_from_diagram"}
    build_options = (
        click.option("--per-cell", type=click.IntRange(1), default=100, show_default=True,
                     help="Instances per relation × condition (fewer where the vocabulary "
                          "runs out)."),
        click.option("--seed", type=int, default=0, show_default=True),
        click.option("--scale", "scales", type=click.FloatRange(0.25, 4.0), multiple=True,
                     help="Image scale (repeatable). Default: 1, 1.5 and 2."),
        click.option("--jobs", type=click.IntRange(1, 64), default=2, show_default=True,
                     help="PlantUML processes rendering in parallel."),
        click.option("--wordnet", "wordnet_dir", type=click.Path(path_type=Path),
                     is_flag=False, flag_value=WORDNET_DIR,
                     help="Widen the vocabulary from WordNet (Debian's wordnet-base; "
                          f"default folder {WORDNET_DIR})."),
        click.option("--wordnet-min-count", type=click.IntRange(1), default=2,
                     show_default=True,
                     help="With --wordnet: only words whose first sense is tagged this often."),
    )
    eval_options = (
        click.option("--data", required=True,
                     type=click.Path(exists=True, file_okay=False, path_type=Path),
                     help="A directory written by diagbench build prior-bias."),
        click.option("--scale", "scales", multiple=True,
                     help="Only these image scales (e.g. 1x; repeatable). Default: all built."),
        click.option("--limit", type=click.IntRange(1), help="Only the first N instances."),
    )
    columns = COLUMNS
    row_metric = ROW_METRIC
    headline_metrics = (RowMetric("Δ", False, "prior dependence: RelAcc on prior-conform "
                                  "minus the conflict conditions', points, with its 95 % "
                                  "bootstrap interval"),)

    def is_data(self, data: Path) -> bool:
        return (data / "manifest.jsonl").is_file() and (data / "diagrams").is_dir()

    def build(self, out: Path, bars: Bars, *, per_cell: int = 100, seed: int = 0,
              scales: tuple[float, ...] = (), jobs: int = 2, wordnet_dir: Path | None = None,
              wordnet_min_count: int = 2, executor: Executor | None = None,
              **_: Any) -> list[str]:
        """The benchmark of §3.1; the same seed (and vocabulary) gives byte-identical files,
        whichever `executor` renders."""
        from diagbench.benchmarks.prior_bias.build import SCALES, build_benchmark
        from diagbench.benchmarks.prior_bias.vocabulary import RELATIONS, load_vocabulary
        from diagbench.benchmarks.prior_bias.wordnet import WordNetError, wordnet_chains
        from diagbench.executors.local import LocalExecutor

        try:
            extra = wordnet_chains(wordnet_dir, wordnet_min_count) if wordnet_dir else None
        except (WordNetError, OSError) as exc:
            raise DataError(str(exc)) from None
        info = build_benchmark(out, load_vocabulary(extra=extra), per_cell, seed,
                               (executor or LocalExecutor()).engine("plantuml", jobs, 20.0),
                               tuple(sorted(set(scales))) or SCALES, bars)
        lines = [f"{'condition':<15}" + "".join(f"{r[:4] + '.':>8}" for r in RELATIONS)
                 + f"{'base':>8}{'rendered':>10}"]
        for condition, row in info["cells"].items():
            lines.append(f"{condition:<15}" + "".join(f"{n:>8}" for n in row.values())
                         + f"{row['base'] * len(info['scales']):>10}")
        rejected = sum(info["rejected"].values())
        lines.append(f"{info['instances']} instances, {info['diagrams']} diagrams, {rejected} "
                     f"candidates rejected (reasons in build.json) -> {out}")
        return lines

    def samples(self, run: Path, bars: Bars, *, data: str, scales: tuple[str, ...] = (),
                limit: int | None = None, **_: Any) -> Dataset:
        from diagbench.benchmarks.prior_bias.prompts import template_hash
        from diagbench.benchmarks.prior_bias.scoring import load_items

        self.data = Path(data)
        items, self.scales = load_items(self.data, tuple(scales), limit)
        digest = hashlib.sha256((self.data / "manifest.jsonl").read_bytes()).hexdigest()
        return Dataset(items, (), {"data": str(data), "dataset_hash": digest,
                                   "instances": len(items), "scales": list(self.scales),
                                   "limit": limit, "prompt_template_hash": template_hash()})

    def prompts(self, data: Dataset) -> list[Ask]:
        from diagbench.benchmarks.prior_bias.scoring import asks
        return asks(self.data, list(data.samples), self.scales)

    def score(self, data: Dataset, model: str, answers: Mapping[str, Answer],
              out: Path) -> list[PriorBiasScore]:
        from diagbench.benchmarks.prior_bias.scoring import score
        return score(model, list(data.samples), self.scales, answers)

    def summarize(self, data: Dataset, scores: Mapping[str, list[PriorBiasScore]]
                  ) -> PriorBiasSummary:
        from diagbench.benchmarks.prior_bias.scoring import summarize_models
        return summarize_models(scores)

    def read_summary(self, data: dict) -> PriorBiasSummary:
        from diagbench.benchmarks.prior_bias.records import PriorBiasSummary
        return PriorBiasSummary.from_json(data)

    def load_scores(self, run: Path, models: list[str]) -> dict[str, list[PriorBiasScore]]:
        from diagbench.benchmarks.jsonl import read_scores
        from diagbench.benchmarks.prior_bias.records import PriorBiasScore

        return read_scores(run / "scores.jsonl", models, PriorBiasScore.from_json,
                           "a prior-bias score")

    def report(self, run: Path, data: Dataset, scores: Mapping[str, list[PriorBiasScore]],
               summary: PriorBiasSummary) -> Path:
        from diagbench.benchmarks.prior_bias.report import write_report
        return write_report(run, summary)

    def headlines(self, summary: PriorBiasSummary) -> list[Headline]:
        return [Headline(name, "Δ", m.delta, m.answered, m.delta_ci)
                for name, m in summary.models.items()]

    def lines(self, summary: PriorBiasSummary, scores: Mapping[str, list[PriorBiasScore]]
              ) -> list[str]:
        """Per model: RelAcc and EM per condition, Δ with its interval, the prerequisite."""
        out = []
        for name, model in summary.models.items():
            out.append(f"\n== {name}: {model.answered} answered, {model.errors} failed calls")
            out.append(f"{'condition':<15}{'RelAcc':>8}{'EM':>8}{'n':>7}")
            for condition, cell in model.conditions.items():
                out.append(f"{condition:<15}{_pct(cell.rel_acc):>8}{_pct(cell.em):>8}"
                           f"{cell.n:>7}")
            ci = model.delta_ci
            out.append(f"Δ = {_pct(model.delta)}"
                       + (f" (95% CI {ci[0]:.1f} to {ci[1]:.1f})" if ci else "")
                       + "; " + ", ".join(f"Δ {c} {_pct(v)}"
                                          for c, v in model.delta_by_condition.items()))
            out.append("prerequisite (EM ≥ 95, prior-free RelAcc ≥ 50): "
                       f"{'passed' if model.prerequisite.passed else 'failed'}")
        return out


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}"
