"""Exit codes and output helpers shared by the commands."""

from __future__ import annotations

import sys
from pathlib import Path

import click

EXIT_OK, EXIT_DIAGNOSTICS, EXIT_USAGE, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3, 4


def write_output(path: Path, text: str) -> None:
    """Write `text` to `path`, or to stdout when `path` is '-'."""
    if str(path) == "-":
        click.echo(text)
    else:
        path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")


def progress_bar(length: int, label: str):
    """A progress bar on stderr, shown only on a terminal and for more than a few items."""
    return click.progressbar(length=length, label=label, file=sys.stderr,
                             hidden=not (sys.stderr.isatty() and length > 20))
