"""The archqa benchmark (paper 003_26afdd344a01d15b.txt, SADU): questions about software
architecture diagrams answered in the strict format of Fig. 2.

    DATA/ (import sadu)  annotations.jsonl, questions.jsonl, import.json
    RUN/  (eval)         models/MODEL/responses.jsonl; scores.jsonl; summary.json
    RUN/  (score --responses LOG…)  scores.jsonl, summary.json for SADU-format logs
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import click

from diagbench.benchmarks.archqa.command import (
    DATA_OPTION,
    GOLD_OPTION,
    JUDGE_OPTION,
    SCORER_OPTION,
    import_sadu_command,
)
from diagbench.benchmarks.archqa.export import COLUMNS, ROW_METRIC
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
from diagbench.benchmarks.twins import first_with_twins, twins_option
from diagbench.report.leaderboard import Headline

if TYPE_CHECKING:
    from collections.abc import Iterator

    from diagbench.benchmarks.archqa.records import Annotation, ArchQAScore, ArchQASummary
    from diagbench.benchmarks.asking import Answer, Ask
    from diagbench.benchmarks.failures import Failures
    from diagbench.executors.protocol import Executor
    from diagbench.report.view import SampleView


@benchmark("archqa")
class ArchQABenchmark(Benchmark["ArchQAScore", "ArchQASummary"]):
    description = ("Architecture-diagram question answering: entities, relations and "
                   "clusters of behavioural, structural and ER diagrams (paper 003, SADU)")
    baselines: ClassVar[Mapping[str, str]] = {
        "blind": "diagbench.benchmarks.archqa.baselines:answer_blind",
        "judge": "diagbench.benchmarks.archqa.judging:answer_judge"}
    build_options = (
        click.option("--from", "sources", multiple=True, required=True,
                     type=click.Path(exists=True, path_type=Path),
                     help="A diagram file, or a folder of them (repeatable): PlantUML, "
                          "Mermaid, DOT, DBML."),
        click.option("--per-subtype", type=click.IntRange(0), default=1, show_default=True,
                     help="Well-defined questions kept per subtype and diagram, the first "
                          "ones (0: all; SADU keeps one)."),
        click.option("--jobs", type=click.IntRange(1, 64), default=2, show_default=True,
                     help="Processes per rendering engine."),
        twins_option("its source changed by one edit that changes an answer",
                     "drawn in another style of its language"),
        click.option("--seed", type=int, default=0, show_default=True,
                     help="Seed of the twins' choices (edits, styles, captures)."),
    )
    eval_options = (
        DATA_OPTION,
        click.option("--prompt", type=click.Choice(["full", "without-definitions",
                                                    "without-rules", "only-question"]),
                     default="full", show_default=True,
                     help="The prompt of Fig. 2, or one of its ablations (§4.3)."),
        SCORER_OPTION, GOLD_OPTION,
        click.option("--limit", type=click.IntRange(1),
                     help="Only the first N questions (and their twins')."),
        JUDGE_OPTION,
    )
    score_options = (
        click.option("--data", type=click.Path(exists=True, file_okay=False, path_type=Path),
                     help="With --responses: the data set the logs answer (without it, "
                          "each log line's own question and gold answer); without: the "
                          "run's data, where the run cannot find it."),
        click.option("--responses", multiple=True,
                     type=click.Path(exists=True, dir_okay=False, path_type=Path),
                     help="A response log in SADU's format (repeatable; the model is named "
                          "after the file)."),
        SCORER_OPTION, GOLD_OPTION,
        JUDGE_OPTION,
        click.option("--out", type=click.Path(file_okay=False, path_type=Path),
                     help="With --responses: the run directory to write."),
    )
    importers = (import_sadu_command,)
    columns = COLUMNS
    row_metric = ROW_METRIC
    headline_metrics = (RowMetric("accuracy", True, "% of questions answered right (by "
                                  "the run's scorer), with its 95 % bootstrap interval",
                                  scale=100), HABIT_METRIC)

    def __init__(self) -> None:
        self.scorer = "strict"
        self.gold = "published"
        self.variant = "full"
        self.images: dict[str, str] = {}
        self.twins: dict[str, Annotation] = {}  # the data set's twin diagrams, by id
        self.scorer_override: str | None = None
        self.gold_override: str | None = None
        self.judge: str | None = None
        self.judge_override: str | None = None

    def is_data(self, data: Path) -> bool:
        return (data / "annotations.jsonl").is_file() and (data / "questions.jsonl").is_file()

    def build(self, out: Path, bars: Bars, *, sources: tuple[Path, ...] = (),
              per_subtype: int = 1, jobs: int = 2, executor: Executor | None = None,
              twins: Sequence[str] = (), seed: int = 0, **_: Any) -> list[str]:
        """Diagrams as code → rendered images, annotations and the 24 question subtypes
        (`build.build_archqa`), rendered by `executor`'s engines (local by default); with
        `twins`, the twins of those families (`twins.make_twins`, seeded by `seed`)."""
        from functools import partial

        from diagbench.benchmarks.archqa.build import build_archqa
        from diagbench.benchmarks.archqa.twins import make_twins
        from diagbench.executors.local import LocalExecutor

        engines = (executor or LocalExecutor()).engine
        info = build_archqa(list(sources), out, per_subtype, jobs,
                            lambda name, texts, folder, fmt:
                            engines(name, jobs, 60.0).render(texts, folder, fmt),
                            twins=partial(make_twins, families=twins, seed=seed)
                            if twins else None).to_json()
        families = ", ".join(f"{k} {v['questions']}" for k, v in info["by_family"].items())
        lines = [f"{info['diagrams']} diagrams, {info['questions']} questions ({families})",
                 f"engine check: {info['engine_check_equal']}/{len(info['engine_check'])} "
                 "diagrams drawn with the counts read"]
        lines += [f"  {n:>4}  {s}" for s, n in info["by_subtype"].items()]
        rejected = sum(info["rejected"].values())
        lines.append(f"{rejected} candidate questions rejected, "
                     f"{len(info['diagrams_rejected'])} diagrams rejected:")
        lines += [f"  {n:>4}  {r}" for r, n in info["rejected"].items()]
        lines += [f"{family} twins: {made['made']} made, {made['questions']} questions"
                  + "".join(f", {reason} {n}" for reason, n in made["dropped"].items())
                  for family, made in info.get("twins", {}).items()]
        lines.append(f"-> {out} (reasons in {out / 'build.json'})")
        return lines

    def samples(self, run: Path, bars: Bars, *, data: str, prompt: str = "full",
                scorer: str = "strict", gold: str = "published", limit: int | None = None,
                judge: str | None = None,
                **_: Any) -> Dataset:
        from diagbench.benchmarks.archqa.data import load_data, load_twins
        from diagbench.benchmarks.archqa.prompts import template_hash

        self.variant = prompt
        self.scorer = self.scorer_override or scorer
        self.gold = self.gold_override or gold
        self.judge = self.judge_override or judge
        if self.judge:
            _check_judge(self.judge)
        questions, self.images, digest = load_data(Path(data))
        self.twins = load_twins(Path(data))
        if limit:  # a twin's question whose original was not asked goes with none
            questions = first_with_twins(
                questions, limit, lambda q: q.id,
                lambda q: (q.twin_of or "") if q.diagram in self.twins else None)
        return Dataset(questions, (), {"data": str(data), "dataset_hash": digest,
                                       "questions": len(questions), "prompt": prompt,
                                       "scorer": self.scorer, "gold": self.gold,
                                       "prompt_template_hash": template_hash(prompt),
                                       "judge": self.judge})

    def prompts(self, data: Dataset) -> list[Ask]:
        from diagbench.benchmarks.archqa.prompts import prompt
        from diagbench.benchmarks.asking import Ask

        return [Ask(q.id, prompt(q.text, self.variant), Path(self.images[q.diagram]))
                for q in data.samples]

    def score(self, data: Dataset, model: str, answers: Mapping[str, Answer],
              out: Path) -> list[ArchQAScore]:
        from diagbench.benchmarks.archqa.summary import score_model
        scores = score_model(model, list(data.samples), answers,
                             self.scorer, self.gold, self.twins)  # type: ignore[arg-type]
        if self.judge:
            from diagbench.benchmarks.archqa.judging import judge_scores
            judged = {s.id for s in scores if s.twin is None}  # its figures: the originals'
            texts = {i: a.text if a.status == "ok" else None for i, a in answers.items()
                     if i in judged}
            scores = judge_scores(scores, list(data.samples), texts, self.images, self.judge,
                                  out)
        return scores

    def summarize(self, data: Dataset, scores: Mapping[str, list[ArchQAScore]]
                  ) -> ArchQASummary:
        from diagbench.benchmarks.archqa.summary import summarize
        return summarize(self.scorer, scores, data.samples)

    def records(self) -> tuple[type[ArchQAScore], type[ArchQASummary]]:
        from diagbench.benchmarks.archqa.records import ArchQAScore, ArchQASummary

        return ArchQAScore, ArchQASummary

    def report(self, run: Path, data: Dataset, scores: Mapping[str, list[ArchQAScore]],
               summary: ArchQASummary) -> Path:
        from diagbench.benchmarks.archqa.data import load_annotations
        from diagbench.benchmarks.archqa.report import write_report

        complexity: dict[str, int] = {}
        source = data.manifest.get("data")
        if source and (Path(source) / "annotations.jsonl").exists():
            complexity = {a.id: len(a.entities) + len(a.relations)
                          for a in load_annotations(Path(source))}
        manifest = {}
        if (run / "manifest.json").exists():
            manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
        return write_report(run, summary, scores, complexity, manifest)

    def lines(self, summary: ArchQASummary, scores: Mapping[str, list[ArchQAScore]]
              ) -> list[str]:
        """The accuracy table (percent), format violations and failures per model."""
        width = max([len(n) for n in summary.models] + [5])
        out = [f"scorer: {summary.scorer}",
               f"{'model':<{width}}  {'behav.':>7}{'struct.':>8}{'ER':>7}{'all':>7}"
               f"{'95% CI':>15}{'viol.':>7}{'unpars.':>8}{'failed':>7}"]
        for name, m in summary.models.items():
            acc = m["accuracy"]
            ci = m["accuracy_ci95"]
            out.append(f"{name:<{width}}  " + "".join(
                f"{_pct(acc[c]):>{w}}" for c, w in (("behavioral", 7), ("structural", 8),
                                                   ("er", 7), ("all", 7)))
                + f"{(f'{ci[0]:.1f}–{ci[1]:.1f}' if ci else '—'):>15}"
                + f"{m['format_violations']:>7}{m['outcomes'].get('unparsable', 0):>8}"
                + f"{m['outcomes'].get('call_error', 0) + m['outcomes'].get('missing', 0):>7}")
        from diagbench.benchmarks.archqa.hard import table11_lines
        from diagbench.benchmarks.robustness import Robustness, robustness_lines
        for name, m in summary.models.items():
            if m.get("robustness"):
                out += [name, *robustness_lines(Robustness.from_json(m["robustness"]))]
        return out + judge_lines(self.judge, summary) + table11_lines(summary.models)

    def sample_views(self, run: Path, data: Path | None = None) -> Iterator[SampleView]:
        from diagbench.benchmarks.archqa.view import sample_views
        return sample_views(self, run, data)

    def compare_runs(self, runs: list[Path]) -> list[str] | None:
        """Tables 8 and 9 over the runs, each model labelled with its recorded prompt
        and thinking setting (`tables.tables_8_9`)."""
        from diagbench.benchmarks.archqa.tables import tables_8_9
        return tables_8_9(runs)

    def failing(self, summary: ArchQASummary, rate: float | None) -> list[str]:
        """With --fail-on-error RATE: why the run fails beside its failed calls — a
        model's judge's failed calls and unreadable replies above RATE of those asked."""
        from diagbench.benchmarks.archqa.judging import failure_reasons
        return failure_reasons(summary, rate)

    def failures(self, summary: ArchQASummary) -> dict[str, Failures]:
        """Per model: unusable images, failed calls (a missing response is one) and
        unparsable answers, of every question asked (twins' too)."""
        from diagbench.benchmarks.failures import Failures
        return {name: Failures(m.get("asked", m["questions"]), {
            "image_error": m["outcomes"].get("image_error", 0),
            "call_error": m["outcomes"].get("call_error", 0) + m["outcomes"].get("missing", 0),
            "unparsed": m["outcomes"].get("unparsable", 0)},
            tuple(m.get("unusable_images", ())))
            for name, m in summary.models.items()}

    def headlines(self, summary: ArchQASummary) -> list[Headline]:
        """Per model the accuracy (the originals'), and with counterfactual twins the
        share answered from habit (`robustness.HABIT_METRIC`)."""
        from diagbench.benchmarks.intervals import clustered
        from diagbench.benchmarks.robustness import Robustness, habit_headline
        return [h for name, m in summary.models.items() for h in (
            Headline(name, "accuracy", m["accuracy"]["all"], m["questions"],
                     tuple(m["accuracy_ci95"]) if m["accuracy_ci95"] else None,
                     clustered=clustered(m.get("intervals"), "accuracy")),
            *habit_headline(name, Robustness.from_json(m["robustness"])
                            if m.get("robustness") else None))]

    def sample_values(self, scores: Mapping[str, list[ArchQAScore]]) -> list[SampleValue]:
        """Each original question's right (1) or wrong (0), clustered by its diagram
        (twins' questions count in the robustness figures only)."""
        from diagbench.benchmarks.archqa.summary import accuracy_values, originals
        return [v for records in scores.values()
                for v in accuracy_values(originals(records))]

    def score_responses(self, paths: tuple[Path, ...], bars: Bars, *,
                        data: Path | None = None, responses: tuple[Path, ...] = (),
                        scorer: str = "strict", gold: str = "published",
                        judge: str | None = None, out: Path | None = None,
                        **_: Any) -> Any:
        """`score archqa [--data DATA] --responses LOG… --out RUN`: score response logs in
        SADU's format (each a model named after its file; the files after the first
        --responses are logs too) into RUN; without --data the logs' own questions and
        gold answers (`log_questions`). Without --responses, PATHS is one run of `eval
        archqa` scored again (with --scorer and --gold; --data: its data, where the
        run cannot find it)."""
        if not responses:
            if out is not None:
                raise click.UsageError("--out goes with --responses")
            self.scorer_override = scorer
            self.gold_override = gold
            self.judge_override = judge
            return None
        if out is None:
            raise click.UsageError("--responses needs --out")
        if data is None and judge:
            raise click.UsageError("--judge needs --data: the judge sees the diagram")
        folders = [p for p in paths if p.is_dir()]
        if folders:
            raise click.UsageError(f"{folders[0]}: a directory; give either a run RUN or "
                                   "--responses LOG…")
        responses = tuple(responses) + tuple(paths)
        from diagbench.benchmarks.archqa.answers import Log, read_log
        from diagbench.benchmarks.archqa.data import load_data, load_twins
        from diagbench.benchmarks.archqa.log_questions import logs_as_data
        from diagbench.benchmarks.archqa.tables import log_labels
        from diagbench.benchmarks.asking import Answer
        from diagbench.benchmarks.protocol import Problem
        from diagbench.benchmarks.runs import score_answers
        from diagbench.models.response import Usage

        problems: list[Problem] = []
        read: list[tuple[Path, Log]] = []
        if data is not None:
            questions, self.images, digest = load_data(data)
            self.twins = load_twins(data)
            for path in responses:
                try:
                    read.append((path, read_log(path, questions)))
                except DataError as exc:  # reported; the other logs are still scored
                    problems.append(Problem(path.stem, *_where(str(exc), path)))
        else:
            questions, logged, digest = logs_as_data(responses)
            read = list(zip(responses, logged, strict=True))
        self.scorer, self.gold, self.judge = scorer, gold, judge
        answers: dict[str, dict[str, Answer]] = {}
        logs = {}
        for path, log in read:
            if log.name in answers:
                raise click.UsageError(f"two logs are named {log.name!r}")
            logs[log.name] = {"file": str(path), "answers": len(log.answers),
                              "unmatched": len(log.unmatched), "duplicates": log.duplicates,
                              "logged_gold_differs": log.gold_differs,
                              **log_labels(log.setting, log.name)}
            problems += [Problem(log.name, *_where(u, path)) for u in log.unmatched[:20]]
            answers[log.name] = {
                qid: Answer(qid, "ok" if a.response is not None else "call_error", a.response,
                            None if a.response is not None else "no response in the log",
                            Usage(a.tokens.get("prompt") or 0, a.tokens.get("completion") or 0,
                                  a.tokens.get("reasoning") or 0))
                for qid, a in log.answers.items()}
        out.mkdir(parents=True, exist_ok=True)
        source = None if data is None else str(data)
        dataset = Dataset(questions, problems, {"data": source, "dataset_hash": digest,
                                                "questions": len(questions)})
        (out / "manifest.json").write_text(json.dumps(
            {"benchmark": self.name, "source": "response logs", "data": source,
             "dataset_hash": digest, "scorer": scorer, "gold": gold, "logs": logs},
            indent=1) + "\n", encoding="utf-8")
        return score_answers(self, dataset, out, answers)


def _where(message: str, path: Path) -> tuple[str, str]:
    """(file, error) of a message "PATH:LINE: reason": ("PATH:LINE", "reason")."""
    line, _, reason = message.removeprefix(f"{path}:").partition(": ")
    return (f"{path}:{line}", reason) if line.isdigit() else (str(path), message)


def judge_lines(judge: str | None, summary: ArchQASummary) -> list[str]:
    """The judge's accuracy beside the rule-based one, its calls, and Table 10, per
    model (nothing when no judge was asked)."""
    from diagbench.benchmarks.archqa.judging import judge_report_lines
    return judge_report_lines(judge, summary)


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def _check_judge(name: str) -> None:
    """A judge whose name or key is unusable stops the run before any work (exit 3)."""
    from diagbench.benchmarks.own_models import resolve_model
    from diagbench.models.providers import ModelSpecError
    try:
        resolve_model(name)
    except ModelSpecError as exc:
        raise DataError(f"--judge: {exc}") from None
