"""The `diagbench` command line. Thin: it parses options and calls the packages.

Exit codes (`diagbench.console`): 0 success; 1 some item has errors (`parse`: error
diagnostics; `render`: invalid renders); 2 usage error; 3 some input could not be read
or used (the others are still processed); 4 internal error.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from diagbench import __version__
from diagbench.cli.ask import ask
from diagbench.cli.benchmarks import (
    build_group,
    evaluate_group,
    list_benchmarks,
    report,
    score,
)
from diagbench.cli.cache import cache
from diagbench.cli.compare import compare
from diagbench.cli.compare_runs import compare_runs
from diagbench.cli.contributed import contributed
from diagbench.cli.convert import convert
from diagbench.cli.export import export, import_group
from diagbench.cli.extract import extract
from diagbench.cli.languages import languages
from diagbench.cli.leaderboard import leaderboard
from diagbench.cli.parse import parse
from diagbench.cli.render import render
from diagbench.cli.run import run
from diagbench.cli.view import view
from diagbench.console import EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, QUIET


class Diagbench(click.Group):
    """The top-level group: its own commands, then those the benchmarks contribute
    (`Benchmark.commands`; their importers join `diagbench import`, see `ImportGroup`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *contributed("commands")})

    def get_command(self, ctx: click.Context, cmd_name: str) -> Any:
        return super().get_command(ctx, cmd_name) or contributed("commands").get(cmd_name)


@click.group(cls=Diagbench, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="diagbench")
@click.option("-q", "--quiet", is_flag=True,
              help="Show no progress (bars on a terminal, lines elsewhere).")
@click.pass_context
def cli(ctx: click.Context, quiet: bool) -> None:
    """Measure how well vision-language models read diagrams."""
    ctx.meta[QUIET] = quiet


for command in (parse, compare, compare_runs, convert, extract, render, ask, run, build_group,
                evaluate_group, score, report, list_benchmarks, languages, leaderboard, view,
                cache, export, import_group):
    cli.add_command(command)


def main() -> None:
    """Entry point: run the CLI, turning any unexpected exception into exit code 4."""
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("diagbench: aborted", err=True)
        sys.exit(EXIT_INTERNAL)
    except click.ClickException as exc:
        exc.show()
        sys.exit(EXIT_USAGE)
    except SystemExit:
        raise
    except BrokenPipeError:
        sys.exit(EXIT_OK)
    except Exception as exc:
        click.echo(f"diagbench: internal error: {type(exc).__name__}: {exc}", err=True)
        sys.exit(EXIT_INTERNAL)
