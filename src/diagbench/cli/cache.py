"""`diagbench cache`: look into and clear the model response cache."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from diagbench.console import EXIT_BAD_INPUT

_PATH = click.option("--cache", "path", type=click.Path(dir_okay=False, path_type=Path),
                     help="Cache file (default: $DIAGBENCH_CACHE or "
                          "~/.cache/diagbench/responses.sqlite).")


@click.group()
def cache() -> None:
    """The SQLite cache of model responses, keyed by the canonical request."""


@cache.command()
@_PATH
def stats(path: Path | None) -> None:
    """Entries per model, and the file's size."""
    from diagbench.models.cache import ResponseCache

    click.echo(json.dumps(ResponseCache(path).stats(), indent=1))


@cache.command()
@click.argument("key")
@_PATH
def explain(key: str, path: Path | None) -> None:
    """Print the canonical request stored under KEY (a unique prefix is enough):
    provider, base URL, model, messages with image hashes, parameters, repeat."""
    from diagbench.models.cache import ResponseCache

    found = ResponseCache(path).explain(key)
    if found is None:
        click.echo(f"diagbench: error: no single cache entry with key {key!r}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    click.echo(json.dumps(found, indent=1, ensure_ascii=False))


@cache.command()
@_PATH
@click.confirmation_option(prompt="Delete every cached response?")
def clear(path: Path | None) -> None:
    """Delete every cached response."""
    from diagbench.models.cache import ResponseCache

    click.echo(f"deleted {ResponseCache(path).clear()} responses")
