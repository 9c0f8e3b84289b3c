"""`diagbench export DATA --format hf|lmms-eval|inspect --out DIR` and `diagbench import
hf DIR --out DATA`: a built benchmark as a Hugging Face dataset (with, for the other
formats, an lmms-eval or inspect_ai task beside it) and back (`diagbench.export`). The
libraries (`datasets`, `pyarrow`) are imported inside the commands."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from diagbench.cli.contributed import ImportGroup
from diagbench.console import EXIT_BAD_INPUT, EXIT_OK


def _fail(exc: Exception) -> None:
    click.echo(f"diagbench: error: {exc}", err=True)
    sys.exit(EXIT_BAD_INPUT)


@click.command(name="export")
@click.argument("data", type=click.Path(exists=True, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["hf", "lmms-eval", "inspect"]),
              default="hf", show_default=True,
              help="hf: a Hugging Face dataset (Parquet shards with an Image feature and a "
                   "dataset card); lmms-eval: that dataset and an lmms-eval task "
                   "(lmms_eval/*.yaml, utils.py); inspect: that dataset and an inspect_ai "
                   "task (task.py). The tasks prompt and score as `diagbench eval` does.")
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Directory for the exported dataset.")
@click.option("--benchmark", "name", metavar="NAME",
              help="The benchmark DATA belongs to (default: recognised from its files).")
@click.option("--rows-per-shard", type=click.IntRange(1), default=1000, show_default=True,
              help="Rows per Parquet shard (a shard also ends at 256 MB of images).")
def export(data: Path, fmt: str, out: Path, name: str | None, rows_per_shard: int) -> None:
    """Export the data directory DATA of a benchmark (as `build NAME` or `import`
    wrote it; for conversion, a folder of ground-truth scripts, or one with gold/ and
    images/) as a dataset: one row per question and image, every gold field a typed
    column. Exit 3 when DATA cannot be used."""
    from diagbench.benchmarks.protocol import DataError
    from diagbench.benchmarks.registry import UnknownBenchmark
    from diagbench.export import detect, exportable
    from diagbench.export.hf import export_hf
    from diagbench.export.inspect_task import write_inspect
    from diagbench.export.lmms_eval import task_name, write_lmms_eval

    try:
        if name is not None and name not in exportable():
            raise click.UsageError(f"benchmark {name!r} cannot be exported (known: "
                                   f"{', '.join(exportable())})")
        name = name or detect(data)
        result = export_hf(name, data, out, rows_per_shard)
        tasks = {"hf": lambda: [], "lmms-eval": lambda: write_lmms_eval(name, out),
                 "inspect": lambda: write_inspect(name, out)}[fmt]()
    except (DataError, UnknownBenchmark, OSError) as exc:
        _fail(exc)
        return
    rate = result.rows / result.seconds if result.seconds else 0.0
    click.echo(f"{result.benchmark}: {result.rows} rows in {len(result.shards)} shards, "
               f"{result.bytes / 1e6:.2f} MB, {result.seconds:.1f} s ({rate:.0f} rows/s)")
    click.echo(f"-> {out} (card: {out / 'README.md'})")
    for path in tasks:
        click.echo(f"-> {path}")
    if fmt == "lmms-eval":
        click.echo(f"run: lmms-eval --tasks {task_name(name)} --include_path "
                   f"{out / 'lmms_eval'} --model openai --model_args model_version=MODEL")
    elif fmt == "inspect":
        click.echo(f"run: inspect eval {out / 'task.py'} --model openai/MODEL")
    sys.exit(EXIT_OK)


@click.group(name="import", cls=ImportGroup)
def import_group() -> None:
    """Import a published data set into diagbench's format."""


@import_group.command(name="hf")
@click.argument("source", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Directory for the benchmark's data.")
def import_hf_command(source: Path, out: Path) -> None:
    """Read a dataset written by `diagbench export --format hf` (SOURCE: its folder, with
    data/*.parquet and diagbench.json) back into a data directory that `diagbench eval`
    runs unchanged. Exit 3 when SOURCE cannot be used."""
    from diagbench.benchmarks.protocol import DataError
    from diagbench.benchmarks.registry import UnknownBenchmark
    from diagbench.export.hf import import_hf

    try:
        _, lines = import_hf(source, out)
    except (DataError, UnknownBenchmark, OSError, KeyError, ValueError) as exc:
        _fail(exc)
        return
    click.echo("\n".join(lines))
    sys.exit(EXIT_OK)
