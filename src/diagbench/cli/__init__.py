"""The `diagbench` command line. Thin: it parses options and calls the packages.

Exit codes: 0 success; 1 some diagram has errors (`parse`: error diagnostics;
`render`: invalid renders); 2 usage error; 3 some input could not be read or
compared (the others are still processed); 4 internal error.
"""

from __future__ import annotations

import sys

import click

from diagbench import __version__
from diagbench.cli.ask import ask
from diagbench.cli.build import build_group
from diagbench.cli.cache import cache
from diagbench.cli.common import EXIT_INTERNAL, EXIT_OK, EXIT_USAGE
from diagbench.cli.compare import compare
from diagbench.cli.convert import convert
from diagbench.cli.evaluate import evaluate_group
from diagbench.cli.parse import parse
from diagbench.cli.render import render
from diagbench.cli.run import run


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="diagbench")
def cli() -> None:
    """Measure how well vision-language models read software diagrams."""


for command in (parse, compare, render, ask, run, convert, build_group, evaluate_group,
                cache):
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
