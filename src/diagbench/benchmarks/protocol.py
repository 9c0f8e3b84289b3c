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
`@benchmark("name")` (`diagbench.benchmarks.registry`); it contributes its own command
options, parses its own answers with `diagbench.scoring` and never imports another
benchmark.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from diagbench.benchmarks.progress import Bars

if TYPE_CHECKING:
    from diagbench.benchmarks.asking import Answer, Ask

#: A command option, as a click decorator (`click.option(...)`).
Option = Callable[[Callable[..., Any]], Callable[..., Any]]


class Record(Protocol):
    """A typed record that one line of a JSON file holds."""

    def to_json(self) -> dict: ...


class DataError(ValueError):
    """Data a benchmark cannot use; str() names the file (and line) and the reason."""


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


S = TypeVar("S", bound=Record)  # a score record
T = TypeVar("T", bound=Record)  # the summary


class Benchmark(ABC, Generic[S, T]):
    """One benchmark. Options of `build` and `eval` arrive as keyword arguments named
    after the options the benchmark declares."""

    name: ClassVar[str]  # set by @benchmark
    description: ClassVar[str]  # one line, for `diagbench benchmarks`
    build_options: ClassVar[tuple[Option, ...]] = ()  # empty: nothing to build
    eval_options: ClassVar[tuple[Option, ...]] = ()
    score_options: ClassVar[tuple[Option, ...]] = ()  # further options of `score NAME`
    commands: ClassVar[tuple[Any, ...]] = ()  # further commands of its own (click commands)

    def build(self, out: Path, bars: Bars, **options: Any) -> list[str]:
        """Write the data set into `out`; return the lines to print."""
        raise NotImplementedError(f"{self.name} has nothing to build")

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

    @abstractmethod
    def score(self, data: Dataset, model: str, answers: Mapping[str, Answer],
              out: Path) -> list[S]:
        """Score one model's answers (by `Ask.id`); `out` is the model's directory."""

    @abstractmethod
    def summarize(self, data: Dataset, scores: Mapping[str, list[S]]) -> T:
        """The summary (summary.json) of every model's scores."""

    @abstractmethod
    def read_summary(self, data: dict) -> T:
        """The summary from its JSON."""

    @abstractmethod
    def load_scores(self, run: Path, models: list[str]) -> dict[str, list[S]]:
        """Every model's score records, read back from the files `score` wrote in `run`."""

    @abstractmethod
    def report(self, run: Path, data: Dataset, scores: Mapping[str, list[S]],
               summary: T) -> Path:
        """Write the report into `run`; return its path."""

    @abstractmethod
    def lines(self, summary: T, scores: Mapping[str, list[S]]) -> list[str]:
        """The results as `eval` and `score` print them."""

    def failed_inputs(self, data: Dataset, summary: T) -> bool:
        """Whether some input could not be used (the command then exits 3)."""
        return bool(data.problems)
