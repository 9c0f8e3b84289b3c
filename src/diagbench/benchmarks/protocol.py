"""The `Benchmark` protocol: the phases every benchmark goes through, each with its own
saved artifact, so that any phase can be run again alone.

    build      → a data directory (diagrams, images, manifest)      `diagbench build NAME`
    samples    → the samples of a run, from the data               ┐
    prompts    → what each sample asks a model (`Ask`)             │ `diagbench eval NAME`
    (models answer through the runner: responses.jsonl)            │
    score      → one typed score record per sample and model       │ `diagbench score NAME RUN`
    summarize  → summary.json                                      │ (from saved responses)
    report     → report.html with plots                            ┘ `diagbench report NAME RUN`

A benchmark is one package under `diagbench.benchmarks` whose class is decorated with
`@benchmark("name")` (`diagbench.benchmarks.registering`); it contributes its own command
options, parses its own answers with `diagbench.scoring` and never imports another
benchmark.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from diagbench.benchmarks.errors import DataError as DataError
from diagbench.benchmarks.errors import IncompleteBuild as IncompleteBuild
from diagbench.benchmarks.jsonl import Record, read_scores
from diagbench.benchmarks.progress import Bars
from diagbench.report.leaderboard import Headline
from diagbench.report.view import SampleView

if TYPE_CHECKING:
    from diagbench.benchmarks.asking import Answer, Ask
    from diagbench.benchmarks.failures import Failures

#: A command option, as a click decorator (`click.option(...)`).
Option = Callable[[Callable[..., Any]], Callable[..., Any]]


@dataclass(frozen=True, slots=True)
class Problem:
    """An input that could not be used: its name, its file and why."""

    name: str
    file: str
    error: str


@dataclass(frozen=True, slots=True)
class Dataset:
    """What a run reads: its samples, the inputs that could not be used, and the facts
    the manifest records about the data (hashes, sizes, tool versions)."""

    samples: Sequence[Any]
    problems: Sequence[Problem]
    manifest: Mapping[str, Any]


#: The types of an exported column (`diagbench.export` maps them to its formats):
#: "string", "int64", "float64", "bool", "json" (a JSON text, for values whose type
#: varies from row to row), "list<string>" and "image" (PNG bytes and a relative path).
ColumnType = str


@dataclass(frozen=True, slots=True)
class Column:
    """One column of a benchmark's exported rows: its name, type and meaning."""

    name: str
    type: ColumnType
    description: str
    nullable: bool = False


@dataclass(frozen=True, slots=True)
class Export:
    """A data directory as rows (one per question and image; an "image" column holds
    ``{"bytes": PNG bytes, "path": path relative to the data directory}``), with what a
    dataset card says about it: the build parameters, the licence of the sources and
    how the data was made."""

    rows: Iterable[dict[str, Any]]
    parameters: Mapping[str, Any]
    licence: str  # the licence of the sources, in words
    method: str  # how the data was made, in words (Markdown)
    license_id: str = "other"  # the card's `license` (a Hugging Face licence identifier)
    files: Mapping[str, str] = field(default_factory=dict)  # further files: name → text


@dataclass(frozen=True, slots=True)
class RowAsk:
    """What `diagbench eval` asks about one exported row: the id of its `Ask`, the
    prompt sent after the row's image, the system prompt, and the gold answer as text
    (the target other harnesses show)."""

    id: str
    prompt: str
    target: str
    system: str | None = None


@dataclass(frozen=True, slots=True)
class RowMetric:
    """A figure: the one each exported row is scored by (`RowExport.score_row`), or one
    a run is ranked by (`Benchmark.headline_metrics`)."""

    name: str
    higher_is_better: bool
    description: str
    #: The metric's unit per sample value (`SampleValue`): 100 for a percentage of 0/1.
    scale: float = 1.0


@dataclass(frozen=True, slots=True)
class SampleValue:
    """One sample's part in a headline metric (`Benchmark.sample_values`), for intervals
    clustered by source diagram and paired comparisons of runs: the model, the metric's
    name, the sample's id, its source diagram (`cluster`), the value (right/wrong as
    1/0) and its weight (the denominator of a ratio metric such as errors over gold
    elements; 1 for a mean). The metric is Σ value / Σ weight × `RowMetric.scale`."""

    model: str
    metric: str
    id: str
    cluster: str
    value: float
    weight: float = 1.0


@dataclass(frozen=True, slots=True)
class RowScore:
    """One response to one exported row scored by the benchmark's own scorer, as `eval`
    scores it: the value of the row metric (None where eval's is undefined), what was
    read from the response, and why."""

    value: float | None
    answer: str | None
    explanation: str


S = TypeVar("S", bound=Record)  # a score record
T = TypeVar("T", bound=Record)  # the summary


class RowExport(Protocol):
    """A benchmark's data as rows (`Benchmark.rows`): `export_rows` the data directory
    as rows of `columns`; `import_rows` the directory written back from them (as
    `export_rows` gave them, in order, with what the export recorded), so that `eval`
    runs on it unchanged; `ask_row` what `eval` asks about one row (JSON columns
    decoded); `score_row` a model's answer to it, scored by the benchmark's own scorer."""

    def export_rows(self, data: Path) -> Export: ...
    def import_rows(self, rows: Iterator[dict[str, Any]], export: Mapping[str, Any],
                    out: Path) -> list[str]: ...
    def ask_row(self, row: Mapping[str, Any]) -> RowAsk: ...
    def score_row(self, row: Mapping[str, Any], response: str) -> RowScore: ...


class Benchmark(ABC, Generic[S, T]):
    """One benchmark. Options of `build` and `eval` arrive as keyword arguments named
    after the options the benchmark declares."""

    name: ClassVar[str]  # set by @benchmark
    description: ClassVar[str]  # one line, for `diagbench benchmarks`
    build_options: ClassVar[tuple[Option, ...]] = ()  # empty: nothing to build
    eval_options: ClassVar[tuple[Option, ...]] = ()
    #: The default of eval's --max-image-side (None: images are sent as they are).
    max_image_side: ClassVar[int | None] = None
    #: The defaults of eval's --temperature and --top-p (None: top-p not sent), and
    #: where they come from (said in --help; None: nothing said).
    eval_temperature: ClassVar[float] = 0.0
    eval_top_p: ClassVar[float | None] = None
    eval_defaults_from: ClassVar[str | None] = None
    score_options: ClassVar[tuple[Option, ...]] = ()  # further options of `score NAME`
    commands: ClassVar[tuple[Any, ...]] = ()  # further commands of its own (click commands)
    #: Subcommands of `diagbench import` (click commands) reading a published data set.
    importers: ClassVar[tuple[Any, ...]] = ()
    #: The columns of `export_rows`, in order (empty: the benchmark cannot be exported).
    columns: ClassVar[tuple[Column, ...]] = ()
    #: The figure `score_row` gives (None: rows cannot be scored one by one).
    row_metric: ClassVar[RowMetric | None] = None
    #: The figures a run is ranked by (`diagbench leaderboard`), in the order shown.
    headline_metrics: ClassVar[tuple[RowMetric, ...]] = ()
    #: The offline reference models this benchmark offers, as `baseline:NAME`: NAME →
    #: the function answering a request (`"module:function"`, imported when first asked).
    baselines: ClassVar[Mapping[str, str]] = {}

    def build(self, out: Path, bars: Bars, **options: Any) -> list[str]:
        """Write the data set into `out`; return the lines to print. Among the options,
        `executor` (`diagbench.executors.protocol.Executor`, from `--executor`) gives the
        engines to render with (`executor.engine(name, jobs, timeout)`), so that a build
        renders on this machine or a Ray cluster with the same outputs."""
        raise NotImplementedError(f"{self.name} has nothing to build")

    def is_data(self, data: Path) -> bool:
        """Whether `data` looks like this benchmark's data (for `export` without
        --benchmark)."""
        return False

    def rows(self) -> RowExport:
        """The benchmark's rows (`RowExport`: its data as rows, asked and scored one by
        one, and back), from its package's `export` module, imported when first needed;
        NotImplementedError when it has none."""
        import importlib

        package = type(self).__module__.rpartition(".")[0]
        try:
            return importlib.import_module(f"{package}.export")
        except ModuleNotFoundError:
            raise NotImplementedError(f"{self.name} has no rows to export") from None

    def score_responses(self, paths: tuple[Path, ...], bars: Bars, **options: Any) -> Any:
        """`score NAME PATH… OPTIONS` for a benchmark with `score_options`: the
        `RunResult` of what it scored, or None to score the run directory PATH again
        from its saved responses (the default)."""
        return None

    @abstractmethod
    def samples(self, run: Path, bars: Bars, *args: Any, **options: Any) -> Dataset:
        """The samples of a run (raises `DataError` when the data cannot be used).

        `*args: Any, **options: Any` lets each benchmark name its own options in its
        signature (type checkers accept any override of this gradual signature); the
        commands pass options by keyword only."""

    @abstractmethod
    def prompts(self, data: Dataset) -> list[Ask]:
        """What every sample asks a model, whatever the model."""

    def answers(self, data: Dataset, ask: Callable[[list[Ask]], Mapping[str, Answer]]
                ) -> Mapping[str, Answer]:
        """Every answer of one model, by `Ask.id`, given `ask` (a batch of asks → their
        answers: live through the runner, or replayed from a run's responses). One
        batch, `prompts(data)`, unless a benchmark asks in rounds whose prompts depend
        on earlier answers; each later batch then repeats the earlier asks, so that the
        run's responses keep every round (answered asks are not asked again)."""
        return ask(self.prompts(data))

    @abstractmethod
    def score(self, data: Dataset, model: str, answers: Mapping[str, Answer],
              out: Path) -> list[S]:
        """Score one model's answers (by `Ask.id`); `out` is the model's directory."""

    @abstractmethod
    def summarize(self, data: Dataset, scores: Mapping[str, list[S]]) -> T:
        """The summary (summary.json) of every model's scores."""

    @abstractmethod
    def records(self) -> tuple[type[Any], type[T]]:
        """Its score record (one line of scores.jsonl) and its summary record
        (summary.json), `diagbench.records.Record` types, imported when asked."""

    def read_summary(self, data: dict) -> T:
        """The summary from its JSON."""
        return self.records()[1].from_json(data)  # type: ignore[attr-defined]

    def load_scores(self, run: Path, models: list[str]) -> dict[str, list[S]]:
        """Every model's score records, read back from the scores.jsonl `score` wrote in
        `run` (a `DataError` naming the line of one that is not a score)."""
        return read_scores(run / "scores.jsonl", models, self.records()[0].from_json,
                           f"a {self.name} score")

    @abstractmethod
    def report(self, run: Path, data: Dataset, scores: Mapping[str, list[S]],
               summary: T) -> Path:
        """Write the report into `run`; return its path."""

    @abstractmethod
    def lines(self, summary: T, scores: Mapping[str, list[S]]) -> list[str]:
        """The results as `eval` and `score` print them."""

    def headlines(self, summary: T) -> list[Headline]:
        """Every model's values of `headline_metrics` in a run's summary."""
        return []

    def sample_values(self, scores: Mapping[str, list[S]]) -> list[SampleValue]:
        """Every sample's value of each headline metric that is a mean or ratio over
        samples (for `diagbench compare-runs` and the clustered intervals); [] where
        none is."""
        return []

    def sample_views(self, run: Path, data: Path | None = None) -> Iterator[SampleView]:
        """Every sample of the scored run `run`, one per model, as `diagbench view` shows
        it, `data` replacing the run's data (raises `DataError` when `run` is not a run
        of this benchmark or its data cannot be found)."""
        raise NotImplementedError(f"{self.name} has no per-sample view")

    def failures(self, summary: T) -> Mapping[str, Failures]:
        """Every model's failures in a run (`diagbench.benchmarks.failures`): what
        `--fail-on-error` limits and the commands print beside the scores."""
        return {}

    def failed_inputs(self, data: Dataset, summary: T) -> bool:
        """Whether some input could not be used (the command then exits 3): a problem
        of the data, or an image some model could not be sent."""
        return bool(data.problems) or any(f.counts.get("image_error")
                                          for f in self.failures(summary).values())

    def compare_runs(self, runs: list[Path]) -> list[str] | None:
        """The tables comparing the runs `runs` by their recorded settings, as `report
        NAME RUN…` prints them; None: this benchmark compares no runs."""
        return None

    def failing(self, summary: T, rate: float | None) -> list[str]:
        """Why the run fails a limit of this benchmark's own, given `--fail-on-error
        RATE` (beyond the failures every benchmark counts, `failures`): the command
        prints each reason and exits 1. None by default."""
        return []
