"""Output helpers shared by the commands."""

from __future__ import annotations

from pathlib import Path

import click


def write_output(path: Path, text: str) -> None:
    """Write `text` to `path`, or to stdout when `path` is '-'."""
    if str(path) == "-":
        click.echo(text)
    else:
        path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
