"""`diagbench ask`: one model call, with images, through the cache."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from diagbench.cli.model_options import model_options
from diagbench.console import EXIT_BAD_INPUT, EXIT_DIAGNOSTICS, EXIT_OK

if TYPE_CHECKING:
    from diagbench.models.settings import ModelSettings


@click.command()
@click.argument("prompt")
@click.option("--image", "images", multiple=True, type=click.Path(dir_okay=False, exists=True,
                                                                  path_type=Path),
              help="Image sent before the prompt, as it is unless a --max-image-* option "
                   "applies (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print the whole response record as JSON.")
@model_options
def ask(prompt: str, images: tuple[Path, ...], as_json: bool, settings: ModelSettings) -> None:
    """Send PROMPT (after any --image) to one model and print its answer.

    Exit 0 with the answer; 1 when the call failed (the reason on stderr); 3 when
    the model name, its key or an image is unusable.
    """
    from diagbench.models.image_policy import ImagePolicyError

    if settings.batch:
        raise click.UsageError("--batch records its batch in a run directory: use "
                               "diagbench run or eval")
    try:
        parts = tuple(settings.image(p) for p in images)
    except ImagePolicyError as exc:
        click.echo(f"diagbench: error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    [record] = settings.run([settings.request(prompt, parts)])
    response = record.response
    if as_json:
        click.echo(json.dumps(record.to_json(), indent=1, ensure_ascii=False))
    elif response.status == "ok":
        click.echo(response.text)
    if response.status != "ok":
        click.echo(f"diagbench: error: {settings.name}: {response.error}", err=True)
        sys.exit(EXIT_DIAGNOSTICS)
    sys.exit(EXIT_OK)
