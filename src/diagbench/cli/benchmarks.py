"""The commands generic over the benchmark registry: `build NAME`, `eval NAME`,
`score NAME RUN`, `report NAME RUN` and `benchmarks`. Each benchmark contributes its
own options; the registry is read only when one of these commands runs or lists."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from diagbench.benchmarks.failures import FAIL_ON_ERROR
from diagbench.cli.model_options import model_options
from diagbench.console import EXIT_BAD_INPUT, EXIT_DIAGNOSTICS, EXIT_OK, progress_bar
from diagbench.executors.options import OPTIONS as EXECUTOR_OPTIONS
from diagbench.executors.options import opened

if TYPE_CHECKING:
    from diagbench.models.settings import ModelSettings

_OUT_RUN = click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path),
                        help="Run directory; re-run the same command to resume.")
_MAX_CONNECTIONS = click.option("--max-connections", type=click.IntRange(1, 512), default=8,
                                show_default=True, help="Model calls in flight at once.")
_SHOWN_IMAGES = 10  # unusable images named on stderr, per model
_DATA = click.option("--data", "data_dir",
                     type=click.Path(exists=True, file_okay=False, path_type=Path),
                     help="The run's data, where the run cannot find it (moved since).")
_RUN = click.argument("run", type=click.Path(exists=True, file_okay=False, path_type=Path))


class RegistryGroup(click.Group):
    """A group with one subcommand per registered benchmark, each made by `make`."""

    def __init__(self, make: Callable[[Any], click.Command | None], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.make = make

    def list_commands(self, ctx: click.Context) -> list[str]:
        from diagbench.benchmarks.registry import registered
        return [name for name, cls in registered().items() if self.make(cls) is not None]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        from diagbench.benchmarks.registry import registered
        cls = registered().get(cmd_name)
        return None if cls is None else self.make(cls)


def _command(name: str, help_text: str, options: tuple, callback: Callable[..., Any]
             ) -> click.Command:
    for option in reversed(options):
        callback = option(callback)
    return click.command(name, help=help_text)(callback)


def _guarded(phase: Callable[[], Any]) -> Any:
    """Run a phase; data it cannot use ends the command with exit 3 and the reason (a
    build that falls short, `IncompleteBuild`, is left to its command)."""
    from diagbench.benchmarks.protocol import DataError, IncompleteBuild
    try:
        return phase()
    except IncompleteBuild:
        raise
    except DataError as exc:
        click.echo(f"diagbench: error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)


def _finish(bench: Any, result: Any, rate: float | None) -> None:
    """Print what could not be used, the results, each model's failures and the report;
    exit 3 when some input could not be used (an unusable image, no samples at all), 1
    when the run fails `--fail-on-error` (by default: every call of a model failed),
    else 0."""
    from diagbench.benchmarks.failures import failure_reasons

    for problem in result.data.problems:
        click.echo(f"diagbench: error: {problem.file}: {problem.error}", err=True)
    if not result.data.samples:
        click.echo("diagbench: error: no usable samples: the data set is empty (or "
                   "--limit/--tasks left nothing)", err=True)
    failures = bench.failures(result.summary)
    for name, f in failures.items():
        for image in f.images[:_SHOWN_IMAGES]:
            click.echo(f"diagbench: error: {name}: image not sent: {image}", err=True)
        if len(f.images) > _SHOWN_IMAGES:
            click.echo(f"diagbench: error: {name}: … and {len(f.images) - _SHOWN_IMAGES} "
                       "more unusable images (summary.json)", err=True)
    click.echo("\n".join(bench.lines(result.summary, result.scores)))
    for name, f in failures.items():
        if f.total:
            click.echo(f"{name}: {f.words()} of {f.asked}, each counted wrong")
    if result.usage:
        from diagbench.benchmarks.usage import usage_line
        click.echo("\nusage:\n" + "\n".join(usage_line(name, usage)
                                             for name, usage in result.usage.items()))
    click.echo(f"\nreport: {result.report}")
    failing = failure_reasons(failures, rate) + bench.failing(result.summary, rate)
    for reason in failing:
        click.echo(f"diagbench: error: {reason}", err=True)
    sys.exit(EXIT_BAD_INPUT if not result.data.samples
             or bench.failed_inputs(result.data, result.summary)
             else EXIT_DIAGNOSTICS if failing else EXIT_OK)


def _build_command(cls: Any) -> click.Command | None:
    if not cls.build_options:
        return None

    def build(out: Path, executor: str, ray_address: str | None, **options: Any) -> None:
        from diagbench.benchmarks.protocol import IncompleteBuild
        try:
            with opened(executor, ray_address) as running:
                lines = _guarded(lambda: cls().build(out, progress_bar, executor=running,
                                                     **options))
        except IncompleteBuild as exc:
            click.echo("\n".join(exc.lines))
            click.echo(f"diagbench: error: {exc}", err=True)
            sys.exit(EXIT_DIAGNOSTICS)
        click.echo("\n".join(lines))

    out = click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path),
                       help="Directory for the data set.")
    return _command(cls.name, f"{cls.description}. Exit 1 when the data falls short of "
                    "what was asked (a benchmark's own check), 3 when an input cannot be "
                    "used.",
                    (out, *cls.build_options, *EXECUTOR_OPTIONS), build)


def _eval_command(cls: Any) -> click.Command:
    def evaluate(out: Path, max_connections: int, settings: list[ModelSettings],
                 executor: str, ray_address: str | None, fail_on_error: float | None,
                 **options: Any) -> None:
        from diagbench.benchmarks.runs import evaluate as run_all
        bench = cls()
        with opened(executor, ray_address) as running:
            result = _guarded(lambda: run_all(bench, settings, out, options,
                                              max_connections, progress_bar, running))
        _finish(bench, result, fail_on_error)

    help_text = (f"{cls.description}. Each model answers every sample (cached, resumable: "
                 "re-run the same command to resume); prints the results and writes "
                 "OUT/report.html. A sample whose image cannot be sent, whose call failed "
                 "or whose answer cannot be read counts as wrong and is counted by kind "
                 "beside the scores. Exit 0; 1 when the run fails --fail-on-error (by "
                 "default: every call of a model failed); 3 when some input could not be "
                 "used (an unusable image, an empty data set; the others are still scored).")
    return _command(cls.name, help_text, (*cls.eval_options, _OUT_RUN, _MAX_CONNECTIONS,
                                          FAIL_ON_ERROR,
                                          model_options(multiple=True,
                                                        max_image_side=cls.max_image_side,
                                                        temperature=cls.eval_temperature,
                                                        top_p=cls.eval_top_p,
                                                        defaults_from=cls.eval_defaults_from),
                                          *EXECUTOR_OPTIONS),
                    evaluate)


@click.group(name="build", cls=RegistryGroup, make=_build_command)
def build_group() -> None:
    """Generate a benchmark's data set (diagrams, images, manifest)."""


@click.group(name="eval", cls=RegistryGroup, make=_eval_command)
def evaluate_group() -> None:
    """Run a benchmark: samples, the models' answers, scores, summary, report."""


def _benchmark(name: str) -> Any:
    from diagbench.benchmarks.registry import UnknownBenchmark, get
    try:
        return get(name)
    except UnknownBenchmark as exc:
        raise click.UsageError(str(exc.args[0])) from None


class _ScoreGroup(RegistryGroup):
    """`score NAME …`: an unknown NAME is a usage error naming the known benchmarks."""

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        if args and not args[0].startswith("-"):
            _benchmark(args[0])
        return super().resolve_command(ctx, args)


def _score_command(cls: Any) -> click.Command:
    def rescore_run(run: Any, executor: str, ray_address: str | None,
                    fail_on_error: float | None, **options: Any) -> None:
        from diagbench.benchmarks.runs import rescore
        bench = cls()
        data_dir = options.pop("data_dir", None) or options.get("data")
        result = None
        if cls.score_options:
            result = _guarded(lambda: bench.score_responses(tuple(run), progress_bar,
                                                            **options))
            if result is None:
                if len(run) != 1 or not run[0].is_dir():
                    raise click.UsageError("give one run directory RUN")
                run = run[0]
        if result is None:
            with opened(executor, ray_address) as running:
                result = _guarded(lambda: rescore(bench, run, progress_bar, running,
                                                  data_dir))
        _finish(bench, result, fail_on_error)

    if cls.score_options:
        run = click.argument("run", nargs=-1, type=click.Path(exists=True, path_type=Path))
    else:
        run = _RUN
    help_text = (f"{cls.description}. Score the run RUN again from its saved responses (no "
                 "model is called): scores.jsonl, summary.json and the report are "
                 "rewritten. A sample whose response is not in the run counts as a failed "
                 "call (wrong, and counted). Exit codes as for eval: 1 when the run fails "
                 "--fail-on-error, 3 when some input could not be used."
                 + (" The options below are this benchmark's own." if cls.score_options
                    else ""))
    own = {getattr(p, "name", None) for p in _params(cls.score_options)}
    return _command(cls.name, help_text, (run, *cls.score_options, FAIL_ON_ERROR,
                                          *(() if "data" in own else (_DATA,)),
                                          *EXECUTOR_OPTIONS),
                    rescore_run)


def _params(options: tuple) -> list[click.Parameter]:
    """The click parameters the option decorators `options` add."""
    def bare() -> None:
        return None
    command = _command("_", "", options, bare)
    return list(command.params)


@click.group(name="score", cls=_ScoreGroup, make=_score_command)
def score() -> None:
    """Score a run of benchmark NAME again from its saved responses (no model is
    called): `score NAME RUN`; some benchmarks take options of their own."""


@click.command()
@click.argument("name")
@click.argument("runs", nargs=-1, required=True,
                type=click.Path(exists=True, file_okay=False, path_type=Path))
@_DATA
def report(name: str, runs: tuple[Path, ...], data_dir: Path | None) -> None:
    """Write the report of the run RUN of benchmark NAME again from its manifest.json,
    scores.jsonl and summary.json, and the run's data (found from any folder: its path
    is recorded relative to the run; --data where it moved); with several runs
    (archqa), print the tables comparing them by their recorded settings (archqa:
    Tables 8 and 9). Exit 3 when the run or its data cannot be read."""
    from diagbench.benchmarks.runs import rereport
    bench = _benchmark(name)
    tables = _guarded(lambda: bench.compare_runs(list(runs)))
    if len(runs) > 1:
        if tables is None:
            raise click.UsageError(f"{name} reports one run at a time")
        click.echo("\n".join(tables))
        return
    if tables is not None:
        click.echo("\n".join(tables))
        if "options" not in _manifest(runs[0]):
            return  # a run of scored logs (archqa's score --responses): no eval to report
    result = _guarded(lambda: rereport(bench, runs[0], progress_bar, data_dir))
    click.echo(f"report: {result.report}")


def _manifest(run: Path) -> dict:
    """RUN/manifest.json as JSON, or {} when it cannot be read."""
    import json
    try:
        return json.loads((run / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


@click.command(name="benchmarks")
def list_benchmarks() -> None:
    """List the benchmarks, one line each."""
    from diagbench.benchmarks.registry import registered
    table = registered()
    width = max(map(len, table), default=0)
    for name, cls in table.items():
        click.echo(f"{name:<{width}}  {cls.description}")
