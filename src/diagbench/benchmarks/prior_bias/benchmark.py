"""The prior-bias benchmark (paper 002_b0dc7d344efc1856.txt): class diagrams whose arrow
agrees or conflicts with what the class names suggest, in five conditions × four
relations; do models read the arrow, or answer from the names?

    DIR/ (build)   diagrams/ID.puml, images/ID@SCALE.png, manifest.jsonl, build.json
                   (with --twins, each instance's twins beside it: ID~FAMILY)
    RUN/ (eval)    models/MODEL/responses.jsonl; scores.jsonl: model × instance × scale
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
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
    SampleValue,
)
from diagbench.benchmarks.registering import benchmark
from diagbench.benchmarks.robustness import HABIT_METRIC
from diagbench.benchmarks.twins import twins_option
from diagbench.report.leaderboard import Headline

if TYPE_CHECKING:
    from collections.abc import Iterator

    from diagbench.benchmarks.asking import Answer, Ask
    from diagbench.benchmarks.failures import Failures
    from diagbench.benchmarks.prior_bias.generate import Queries
    from diagbench.benchmarks.prior_bias.records import PriorBiasScore, PriorBiasSummary
    from diagbench.benchmarks.twins import TwinFamily
    from diagbench.executors.protocol import Executor
    from diagbench.report.view import SampleView

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
        click.option("--paper-sizes", is_flag=True,
                     help="Paper 002's Table 1 in every cell instead of --per-cell (prior-free "
                          "at most its printed size); widens the vocabulary from WordNet."),
        click.option("--queries", type=click.Choice(["one", "both"]), default="one",
                     show_default=True,
                     help="Per diagram, one query (the paper's base instance) or each drawn "
                          "edge asked both ways."),
        click.option("--plan", is_flag=True,
                     help="Write build.json, the diagrams' PlantUML and the instances, without "
                          "rendering (eval needs a rendered build)."),
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
        twins_option("the queried arrow reversed, so that its answer flips",
                     "drawn in another PlantUML style, hand-drawn among them"),
    )
    eval_options = (
        click.option("--data", required=True,
                     type=click.Path(exists=True, file_okay=False, path_type=Path),
                     help="A directory written by diagbench build prior-bias."),
        click.option("--scale", "scales", multiple=True,
                     help="Only these image scales (e.g. 1x; repeatable). Default: all built."),
        click.option("--limit", type=click.IntRange(1),
                     help="Only N instances, sampled evenly from every condition × relation "
                          "cell (seeded by --sample-seed), each with its twins."),
        click.option("--sample-seed", type=int, default=0, show_default=True,
                     help="The seed of --limit's sample."),
    )
    columns = COLUMNS
    row_metric = ROW_METRIC
    headline_metrics = (RowMetric("Δ", False, "prior dependence: RelAcc on prior-conform "
                                  "minus the conflict conditions', points, with its 95 % "
                                  "bootstrap interval"),
                        HABIT_METRIC)

    def is_data(self, data: Path) -> bool:
        return (data / "manifest.jsonl").is_file() and (data / "diagrams").is_dir()

    def build(self, out: Path, bars: Bars, *, per_cell: int = 100, paper_sizes: bool = False,
              queries: Queries = "one", plan: bool = False, seed: int = 0,
              scales: tuple[float, ...] = (), jobs: int = 2, wordnet_dir: Path | None = None,
              wordnet_min_count: int = 2, executor: Executor | None = None,
              twins: Sequence[TwinFamily] = (), **_: Any) -> list[str]:
        """The benchmark of §3.1 (with `twins`, each instance's twins of those families);
        the same seed (and vocabulary) gives byte-identical files, whichever `executor`
        renders."""
        from diagbench.benchmarks.prior_bias.build import SCALES, build_benchmark
        from diagbench.benchmarks.prior_bias.generate import PAPER_SIZES, uniform
        from diagbench.benchmarks.prior_bias.vocabulary import load_vocabulary
        from diagbench.benchmarks.prior_bias.wordnet import WordNetError, wordnet_chains
        from diagbench.executors.local import LocalExecutor
        from diagbench.languages.rendering import ended

        if plan and twins:
            raise click.UsageError("--twins draws its twins: build without --plan")
        wordnet_dir = wordnet_dir or (WORDNET_DIR if paper_sizes else None)
        try:
            extra = wordnet_chains(wordnet_dir, wordnet_min_count) if wordnet_dir else None
        except (WordNetError, OSError) as exc:
            raise DataError(str(exc)) from None
        engine = None if plan else (executor or LocalExecutor()).engine("plantuml", jobs, 20.0)
        sizes = PAPER_SIZES if paper_sizes else uniform(per_cell)
        try:
            info = build_benchmark(out, load_vocabulary(extra=extra), sizes, seed, engine,
                                   tuple(sorted(set(scales))) or SCALES, bars, queries,
                                   tuple(twins))
        finally:
            if engine is not None:
                ended(engine)
        return [*_table(info, sizes),
                *(f"{family} twins: {made['made']} made" + "".join(
                    f", {reason} {n}" for reason, n in made["dropped"].items())
                  for family, made in info.get("twins", {}).items()),
                f"{info['instances']} instances, {info['diagrams']} diagrams"
                f"{' (planned, not rendered)' if plan else ''}, "
                f"{sum(info['rejected'].values())} candidates rejected (by constraint in "
                f"build.json) -> {out}"]

    def samples(self, run: Path, bars: Bars, *, data: str, scales: tuple[str, ...] = (),
                limit: int | None = None, sample_seed: int = 0, **_: Any) -> Dataset:
        from diagbench.benchmarks.prior_bias.prompts import template_hash
        from diagbench.benchmarks.prior_bias.scoring import load_items, stratified

        self.data = Path(data)
        items, self.scales = load_items(self.data, tuple(scales))
        if limit is not None:
            items = stratified(items, limit, sample_seed)
        digest = hashlib.sha256((self.data / "manifest.jsonl").read_bytes()).hexdigest()
        twins = sum(item.twin is not None for item in items)
        return Dataset(items, (), {"data": str(data), "dataset_hash": digest,
                                   "instances": len(items) - twins,
                                   **({"twin_instances": twins} if twins else {}),
                                   "scales": list(self.scales),
                                   "limit": limit, "sample_seed": sample_seed,
                                   "prompt_template_hash": template_hash()})

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

    def records(self) -> tuple[type[PriorBiasScore], type[PriorBiasSummary]]:
        from diagbench.benchmarks.prior_bias.records import PriorBiasScore, PriorBiasSummary

        return PriorBiasScore, PriorBiasSummary

    def report(self, run: Path, data: Dataset, scores: Mapping[str, list[PriorBiasScore]],
               summary: PriorBiasSummary) -> Path:
        from diagbench.benchmarks.prior_bias.report import write_report
        return write_report(run, summary)

    def sample_views(self, run: Path, data: Path | None = None) -> Iterator[SampleView]:
        from diagbench.benchmarks.prior_bias.view import sample_views
        return sample_views(self, run, data)

    def failures(self, summary: PriorBiasSummary) -> dict[str, Failures]:
        """Per model: the pairs whose image could not be sent, and whose calls failed."""
        from diagbench.benchmarks.failures import Failures
        return {name: Failures(m.answered + m.errors, {
            "image_error": m.image_errors, "call_error": m.errors - m.image_errors},
            m.unusable_images)
            for name, m in summary.models.items()}

    def headlines(self, summary: PriorBiasSummary) -> list[Headline]:
        from diagbench.benchmarks.intervals import clustered
        from diagbench.benchmarks.robustness import habit_headline
        return [h for name, m in summary.models.items() for h in (
            Headline(name, "Δ", m.delta, sum(c.n for c in m.conditions.values()), m.delta_ci,
                     clustered=clustered(m.intervals, "Δ")),
            *habit_headline(name, m.robustness))]

    def sample_values(self, scores: Mapping[str, list[PriorBiasScore]]) -> list[SampleValue]:
        from diagbench.benchmarks.prior_bias.scoring import sample_values
        return [v for records in scores.values() for v in sample_values(records)]

    def lines(self, summary: PriorBiasSummary, scores: Mapping[str, list[PriorBiasScore]]
              ) -> list[str]:
        """Per model: RelAcc and EM per condition, Δ with its interval, the prerequisite;
        with several models, Δ on the prerequisite-passing ones; with twins, each model's
        robustness figures."""
        from diagbench.benchmarks.robustness import robustness_lines

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
            out += robustness_lines(model.robustness)
        if len(summary.models) > 1:
            from diagbench.benchmarks.prior_bias.figures import passing_gap
            gap, passed = passing_gap(summary.models)
            out.append(f"\nΔ over the {len(passed)} prerequisite-passing models "
                       f"{_pct(gap.delta)}, over all {len(summary.models)} "
                       f"{_pct(summary.mean_delta)} (§4.3.2)")
        return out


def _table(info: dict, sizes: Mapping[str, Mapping[str, int]]) -> list[str]:
    """Base instances per condition × relation (Table 1's layout), each against its target
    where a cell fell short."""
    from diagbench.benchmarks.prior_bias.vocabulary import RELATIONS

    lines = [f"{'condition':<15}" + "".join(f"{r[:4] + '.':>12}" for r in RELATIONS)
             + f"{'base':>8}{'rendered':>10}"]
    for condition, row in info["cells"].items():
        cells = [f"{row[r]}" + (f"/{sizes[condition][r]}" if row[r] < sizes[condition][r]
                                else "") for r in RELATIONS]
        lines.append(f"{condition:<15}" + "".join(f"{c:>12}" for c in cells)
                     + f"{row['base']:>8}{row['base'] * len(info['scales']):>10}")
    return lines


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}"
