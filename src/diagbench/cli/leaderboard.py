"""`diagbench leaderboard`: one table of every model's headline metrics over runs."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from diagbench.console import EXIT_BAD_INPUT, EXIT_OK


@click.command("leaderboard")
@click.argument("runs", nargs=-1, required=True,
                type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["md", "csv", "html", "json"]),
              default="md", show_default=True, help="How the table is written.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the table to this file instead of stdout.")
def leaderboard(runs: tuple[Path, ...], fmt: str, out: Path | None) -> None:
    """One table of the runs RUN… of any benchmarks: a row per model (the same model
    across runs on one row), a column per benchmark metric each benchmark declares as
    its headline (with ↑ or ↓), each cell its value, 95 % interval where the benchmark
    gives one, number of samples and failed samples (each counted wrong). A metric two
    runs give one model is split by run, every column of it titled with its run. A
    directory that is not a run is named on stderr (exit 3); the others are still shown."""
    from diagbench.benchmarks.leaderboard import leaderboard as board_of
    from diagbench.report.leaderboard import render

    board = board_of(list(runs))
    if not board.rows:  # no run could be read: no table, only why
        for problem in board.problems or [f"no model in {', '.join(map(str, runs))}"]:
            click.echo(f"diagbench: error: {problem}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    text = render(board, fmt)
    if out is None:
        click.echo(text, nl=False)
    else:
        out.write_text(text, encoding="utf-8")
        click.echo(f"leaderboard: {out}")
    for problem in board.problems:
        click.echo(f"diagbench: error: {problem}", err=True)
    sys.exit(EXIT_BAD_INPUT if board.problems else EXIT_OK)
