"""The structure benchmark (paper 004_34f8485b6a3a0424.txt, STRUDEL) for software
diagrams.

    DATA/ (build, or import strudel)  samples.jsonl, tasks.jsonl, images/, sources/,
                   build.json,
                   generation/responses.jsonl (the generating model's answers),
                   generation/judge_responses.jsonl (--judge),
                   generation/question_responses.jsonl (Fig. 10), timings.json
    RUN/  (eval)   models/MODEL/responses.jsonl; scores.jsonl; summary.json; report.html
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import click

from diagbench.benchmarks.options import comma_list
from diagbench.benchmarks.progress import Bars
from diagbench.benchmarks.protocol import Benchmark, Dataset, RowMetric, SampleValue
from diagbench.benchmarks.registering import benchmark
from diagbench.benchmarks.robustness import HABIT_METRIC
from diagbench.benchmarks.structure.export import COLUMNS, ROW_METRIC
from diagbench.benchmarks.structure.strudel_options import (
    MATCHING_OPTION,
    SYSTEM_OPTION,
    import_strudel_command,
)
from diagbench.benchmarks.structure.table3 import columns as table3_columns
from diagbench.benchmarks.synthesis import COMPLEXITIES, PROMPTINGS
from diagbench.benchmarks.twins import first_with_twins, twins_option
from diagbench.languages import category_names, names
from diagbench.report.leaderboard import Headline

if TYPE_CHECKING:
    from collections.abc import Iterator

    from diagbench.benchmarks.asking import Answer, Ask
    from diagbench.benchmarks.failures import Failures
    from diagbench.benchmarks.structure.records import (
        StructureScore,
        StructureSummary,
        TwinFamily,
    )
    from diagbench.benchmarks.synthesis import Prompting
    from diagbench.executors.protocol import Executor
    from diagbench.report.view import SampleView

#: The generating model's sampling, paper 004 §A.1.
GENERATION_TEMPERATURE, GENERATION_TOP_P = 0.6, 0.95

#: Every task a build derives: the facts (identification, quantification — the counting
#: questions —, structural), the association, matching and caption tasks, the
#: model-written question and image-to-code.
_TASKS = ("structural", "association", "problem_match", "description_match",
          "model_question", "identification", "quantification", "image_to_code",
          "caption_match")


def _check_pairs(categories: list[str], languages: list[str],
                 cells: Mapping[str, tuple[str, ...]] | None = None) -> None:
    """Refuse categories and FRLs of which no pair can be built: a category given with
    none of its FRLs (unless every category was meant), an FRL drawing none of the
    categories (unless every FRL was meant); with `cells`, a category's FRLs are those
    there."""
    from diagbench.languages import languages_of

    def frls(category: str) -> tuple[str, ...]:
        return languages_of(category) if cells is None else tuple(
            lang for lang in languages_of(category) if lang in cells.get(category, ()))

    every_category = set(categories) == set(category_names())
    every_language = set(languages) == set(names())
    lonely = [c for c in categories if not set(frls(c)) & set(languages)]
    if lonely and (not every_category or len(lonely) == len(categories)):
        raise click.UsageError("; ".join(
            f"--categories {c}: none of --languages {','.join(languages)} draws it "
            f"(its FRLs: {', '.join(frls(c))})" for c in lonely))
    unused = [lang for lang in languages if not any(lang in frls(c) for c in categories)]
    if unused and not every_language:
        raise click.UsageError("; ".join(
            f"--languages {lang}: draws none of --categories {','.join(categories)}"
            for lang in unused))


@benchmark("structure")
class StructureBenchmark(Benchmark["StructureScore", "StructureSummary"]):
    description = ("Structured diagrams of every domain from code (paper 004, STRUDEL): "
                   "synthesis, rendering, filters, LLM judge; counting, association, "
                   "matching, model-written and image-to-code tasks")
    baselines: ClassVar[Mapping[str, str]] = {
        "synth": "diagbench.benchmarks.structure.synth:answer_synth",
        "judge": "diagbench.benchmarks.structure.judging:answer_judge"}
    build_options = (
        click.option("--model", "generator", required=True,
                     help="The model that writes the diagrams (PROVIDER:MODEL[@URL]); "
                          "baseline:synth writes them offline."),
        click.option("--categories", default=",".join(category_names()), show_default=True,
                     callback=comma_list(category_names()), help="Comma-separated categories."),
        click.option("--languages", default=",".join(names()), show_default=True,
                     callback=comma_list(names()), help="Comma-separated FRLs."),
        click.option("--per-category", type=click.IntRange(1), default=5, show_default=True,
                     help="Samples per category and FRL."),
        click.option("--paper-cells", is_flag=True,
                     help="Only STRUDEL's own category × FRL pairs (paper 004, Table 1): "
                          "class and sequence diagrams in PlantUML, ER in DBML, Gantt "
                          "and mind maps in Mermaid, every other category in its one "
                          "FRL; categories STRUDEL has not are left out."),
        click.option("--complexity", "complexities", default=",".join(COMPLEXITIES),
                     show_default=True, callback=comma_list(COMPLEXITIES),
                     help="Complexity levels, cycled through."),
        click.option("--personas", "persona_folder", type=click.Path(path_type=Path),
                     help="A folder of persona files, <domain>.txt (one persona a line) for "
                          "the categories' domains. Default: diagbench's bundled set."),
        click.option("--prompting", type=click.Choice(PROMPTINGS),
                     default="all-in-one", show_default=True,
                     help="One call per sample (Fig. 7), or the problem statement first and "
                          "then the description and code given it (§3.1)."),
        click.option("--seed", type=int, default=0, show_default=True),
        click.option("--temperature", type=click.FloatRange(0.0, 2.0),
                     default=GENERATION_TEMPERATURE, show_default=True,
                     help="Of the generating model (the paper's, §A.1)."),
        click.option("--top-p", type=click.FloatRange(0.0, 1.0, min_open=True),
                     default=GENERATION_TOP_P, show_default=True,
                     help="Of the generating model (the paper's, §A.1); sent where the "
                          "provider takes it."),
        click.option("--max-tokens", type=click.IntRange(1), default=4096, show_default=True),
        click.option("--jobs", type=click.IntRange(1, 64),
                     help="Processes per rendering engine. Default: this machine's cores "
                          "shared by the three engines drawing at once (one each on two "
                          "cores); with --executor ray, one renderer per CPU of the "
                          "cluster."),
        click.option("--max-connections", type=click.IntRange(1), default=8,
                     show_default=True),
        click.option("--judge", help="The LLM-as-judge of §3.3 (Fig. 9), PROVIDER:MODEL[@URL]; "
                                     "baseline:judge checks offline. Not given: not run."),
        click.option("--judge-threshold", type=click.FloatRange(0.0, 1.0), default=0.5,
                     show_default=True, help="Samples the judge scores below this are "
                     "removed (true 1, null 0.5, false 0)."),
        twins_option("its source changed by one edit that changes an answer",
                     "drawn in another style of its language"),
        click.option("--allow-empty", is_flag=True,
                     help="Finish with exit 0 even when the filters leave a category × FRL "
                          "asked for without a sample (by default: exit 1)."),
    )
    eval_options = (
        click.option("--data", required=True,
                     type=click.Path(exists=True, file_okay=False, path_type=Path),
                     help="A data set of `build structure`."),
        click.option("--tasks", "task_types", default=",".join(_TASKS), show_default=True,
                     callback=comma_list(_TASKS)),
        click.option("--limit", type=click.IntRange(1),
                     help="Only the first N tasks (and their twins')."),
        MATCHING_OPTION,
        SYSTEM_OPTION,
    )
    importers = (import_strudel_command,)

    #: Paper 004 §5.1: images resized to at most 1024 × 1024 px for the evaluation,
    #: temperature 0.2 and top-p 0.95.
    max_image_side = 1024
    eval_temperature = 0.2
    eval_top_p = 0.95
    eval_defaults_from = "the paper's evaluation settings (§5.1)"
    columns = COLUMNS
    row_metric = ROW_METRIC
    headline_metrics = (
        RowMetric("accuracy", True, "% of question tasks answered right, every task type",
                  scale=100),
        RowMetric("image-to-code", True, "mean image-to-code score, 0 to 1: each "
                                         "language's own similarity (software diagrams: "
                                         "renders × mean of entity and relation F1; "
                                         "molecules: Tanimoto; trees: Robinson–Foulds; …)"),
        *(RowMetric(f"Table 3: {column}", True, "STRUDEL's Table 3 column (paper 004 §5.2), "
                    "%: a right answer 100, image-to-code its score × 100, averaged",
                    scale=100) for column in table3_columns()),
        HABIT_METRIC)

    def __init__(self) -> None:
        self.data_dir = Path(".")
        self.matching = "strict"
        self.system: str | None = None
        self.both_ways = False  # both matchings computed (a STRUDEL import, or strudel)

    def is_data(self, data: Path) -> bool:
        return (data / "samples.jsonl").is_file() and (data / "tasks.jsonl").is_file()

    def build(self, out: Path, bars: Bars, *, generator: str = "baseline:synth",
              categories: list[str] | None = None, languages: list[str] | None = None,
              per_category: int = 5, complexities: list[str] | None = None, seed: int = 0,
              temperature: float = GENERATION_TEMPERATURE,
              top_p: float | None = GENERATION_TOP_P,
              max_tokens: int = 4096, jobs: int | None = None,
              max_connections: int = 8, prompting: Prompting = "all-in-one",
              judge: str | None = None, judge_threshold: float = 0.5,
              allow_empty: bool = False, executor: Executor | None = None,
              persona_folder: Path | None = None, paper_cells: bool = False,
              twins: Sequence[TwinFamily] = (), **_: Any) -> list[str]:
        from diagbench.benchmarks.personas import PersonaError, bundled, read_folder
        from diagbench.benchmarks.protocol import IncompleteBuild
        from diagbench.benchmarks.structure.build import build_structure
        from diagbench.benchmarks.structure.judging import DEFAULT_THRESHOLD
        from diagbench.benchmarks.structure.records import generator_settings
        from diagbench.benchmarks.structure.taxonomy import PAPER_CELLS
        from diagbench.languages import category_named

        categories = categories or list(category_names())
        cells = PAPER_CELLS if paper_cells else None
        if cells is not None:
            categories = [c for c in categories if c in cells]
            if not categories:
                raise click.UsageError("--paper-cells: none of --categories is one of "
                                       f"STRUDEL's ({', '.join(PAPER_CELLS)})")
        _check_pairs(categories, languages or list(names()), cells)
        settings = generator_settings(generator, temperature, max_tokens, seed, top_p=top_p)
        if judge is None and judge_threshold != DEFAULT_THRESHOLD:
            raise click.UsageError("--judge-threshold is for --judge: give the judge model")
        judging = generator_settings(judge, 0.0, 1024, seed, "--judge") if judge else None
        try:
            chosen = read_folder(persona_folder) if persona_folder else bundled()
            for category in categories:
                chosen.of(category_named(category).domain)
        except PersonaError as e:
            raise click.BadParameter(str(e), param_hint="--personas") from None
        info = build_structure(out, settings, categories,
                               languages or list(names()), per_category,
                               complexities or list(COMPLEXITIES), seed, jobs,
                               max_connections, prompting=prompting, judge=judging,
                               judge_threshold=judge_threshold, executor=executor,
                               personas=chosen, twins=tuple(twins), cells=cells,
                               bars=bars)
        judged, asked = info.judge, info.questions
        if not isinstance(judged, str):
            judged = (f"{judged.model}: " + ", ".join(
                f"{k} {v}" for k, v in judged.verdicts.items())
                + f"; removed {judged.removed} (threshold {judged.threshold:g})")
        lines = ["stages: " + ", ".join(f"{k} {v}" for k, v in info.stages.items()),
                 "removed: " + (", ".join(f"{k} {v}" for k, v in info.removed.items())
                                or "none"),
                 f"engine check: {info.engine_check['equal']}/"
                 f"{info.engine_check['checked']} drawn with the counts read",
                 "tasks: " + ", ".join(f"{k} {v}" for k, v in info.tasks.items()),
                 f"judge: {judged}",
                 f"model-written questions: {asked.kept}/{asked.asked} kept"
                 + "".join(f", {k} {v}" for k, v in asked.dropped.items()),
                 *([f"captions: {info.captions.kept}/{info.captions.asked} kept" + "".join(
                     f", {k} {v}" for k, v in info.captions.dropped.items())]
                   if info.captions else []),
                 "filters (§3.3), samples removed: " + ", ".join(
                     f"{k} {v}" for k, v in info.filters.items()),
                 "templated questions not asked (no single answer): " + (", ".join(
                     f"{k} {v}" for k, v in info.ambiguous_questions.items()) or "none"),
                 f"duplicate tasks dropped (same image, prompt and gold): "
                 f"{info.duplicate_tasks}",
                 *(f"{family} twins: {made.made} made" + "".join(
                     f", {reason} {n}" for reason, n in made.dropped.items())
                   for family, made in info.twins.items()),
                 f"-> {out} (details in {out / 'build.json'})"]
        short = {cell: n for cell, n in info.kept.items() if 0 < n < per_category}
        empty = [cell for cell, n in info.kept.items() if n == 0]
        lines += [f"warning: {cell.replace('|', ' × ')}: {n} of {per_category} samples kept "
                  "(the others removed: build.json)" for cell, n in short.items()]
        if empty and not allow_empty:
            raise IncompleteBuild(lines, "no sample kept for " + ", ".join(
                cell.replace("|", " × ") for cell in empty) + " (the filters removed every "
                "one: build.json 'rejected'; --allow-empty to accept it)")
        lines += [f"warning: {cell.replace('|', ' × ')}: no sample kept (--allow-empty)"
                  for cell in empty]
        return lines

    def samples(self, run: Path, bars: Bars, *, data: str, task_types: list[str] | None = None,
                limit: int | None = None, matching: str = "strict",
                system_prompt: str | None = None, **_: Any) -> Dataset:
        from diagbench.benchmarks.structure.records import load_data
        from diagbench.benchmarks.structure.strudel import is_strudel_import

        self.data_dir = Path(data)
        self.matching, self.system = matching, system_prompt or None
        self.both_ways = matching == "strudel" or is_strudel_import(self.data_dir)
        tasks, digest = load_data(self.data_dir)
        if task_types:
            tasks = [t for t in tasks if t.task in task_types]
        if limit:
            tasks = first_with_twins(tasks, limit, lambda t: t.id, lambda t: t.twin_of)
        return Dataset(tasks, (), {"data": str(data), "dataset_hash": digest,
                                   "tasks": len(tasks)})

    def prompts(self, data: Dataset) -> list[Ask]:
        from diagbench.benchmarks.asking import Ask
        return [Ask(t.id, t.question, self.data_dir / t.image, self.system)
                for t in data.samples]

    def score(self, data: Dataset, model: str, answers: Mapping[str, Answer],
              out: Path) -> list[StructureScore]:
        from diagbench.benchmarks.structure.scoring import score_model
        scores = score_model(model, list(data.samples), answers, self.data_dir, out)
        if not self.both_ways:
            return scores
        from diagbench.benchmarks.structure.matching import score_both
        from diagbench.benchmarks.structure.records import load_samples
        return score_both(scores, list(data.samples), answers, load_samples(self.data_dir),
                          self.data_dir, "strudel" if self.matching == "strudel" else "strict")

    def summarize(self, data: Dataset, scores: Mapping[str, list[StructureScore]]
                  ) -> StructureSummary:
        from diagbench.benchmarks.structure.matching import with_matching
        from diagbench.benchmarks.structure.scoring import summarize
        summary = summarize(scores)
        return with_matching(summary, scores, "strudel" if self.matching == "strudel"
                             else "strict") if self.both_ways else summary

    def records(self) -> tuple[type[StructureScore], type[StructureSummary]]:
        from diagbench.benchmarks.structure.records import StructureScore, StructureSummary

        return StructureScore, StructureSummary

    def report(self, run: Path, data: Dataset, scores: Mapping[str, list[StructureScore]],
               summary: StructureSummary) -> Path:
        from diagbench.benchmarks.structure.report import write_report
        return write_report(run, summary)

    def sample_views(self, run: Path, data: Path | None = None) -> Iterator[SampleView]:
        from diagbench.benchmarks.structure.view import sample_views
        return sample_views(self, run, data)

    def failures(self, summary: StructureSummary) -> dict[str, Failures]:
        return {name: m.failures for name, m in summary.models.items()}

    def headlines(self, summary: StructureSummary) -> list[Headline]:
        from diagbench.benchmarks.intervals import clustered
        from diagbench.benchmarks.robustness import habit_headline
        return [h for name, m in summary.models.items() for h in (
            Headline(name, "accuracy", m.accuracy.get("all"),
                     sum(cell.n for cell in m.accuracy_cells.values()),
                     clustered=clustered(m.intervals, "accuracy")),
            Headline(name, "image-to-code", m.image_to_code.score, m.image_to_code.n,
                     clustered=clustered(m.intervals, "image-to-code")),
            *(Headline(name, f"Table 3: {column}", cell["estimate"], cell["n"],
                       clustered=clustered(m.table3, column))
              for column, cell in m.table3.items()),
            *habit_headline(name, m.robustness))]

    def sample_values(self, scores: Mapping[str, list[StructureScore]]) -> list[SampleValue]:
        from diagbench.benchmarks.structure.scoring import sample_values
        return [v for rows in scores.values() for v in sample_values(rows)]

    def lines(self, summary: StructureSummary, scores: Mapping[str, list[StructureScore]]
              ) -> list[str]:
        from diagbench.benchmarks.structure.matching import matching_lines
        from diagbench.benchmarks.structure.report import table_lines
        return table_lines(summary) + matching_lines(summary)
