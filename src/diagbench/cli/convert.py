"""`diagbench convert`: sequence-diagram images to PlantUML scripts with one model (the
conversion benchmark's pipeline, without a ground truth)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from diagbench.benchmarks.conversion.options import PROMPT_OPTION, RENDER_OPTIONS
from diagbench.cli.model_options import model_options
from diagbench.console import EXIT_BAD_INPUT, EXIT_DIAGNOSTICS, EXIT_OK, progress_bar

if TYPE_CHECKING:
    from diagbench.models.settings import ModelSettings


@click.command()
@click.argument("images", nargs=-1, required=True,
                type=click.Path(exists=True, path_type=Path))
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Output directory; re-run the same command to resume.")
@PROMPT_OPTION
@click.option("--caption", help="Caption for images without a sidecar NAME.txt.")
@RENDER_OPTIONS[0]
@RENDER_OPTIONS[1]
@click.option("--max-connections", type=click.IntRange(1, 512), default=8, show_default=True,
              help="Model calls in flight at once.")
@model_options
def convert(images: tuple[Path, ...], out: Path, prompt: str, caption: str | None,
            jobs: int, render_timeout: float, max_connections: int,
            settings: ModelSettings) -> None:
    """Convert sequence-diagram IMAGES (files or folders) to PlantUML.

    For each image: OUT/pred/NAME.puml (the script taken from the answer and
    normalised), OUT/pred/NAME.png when it renders, and a line of
    OUT/conversions.jsonl (status, why, normalisations, tokens, latency).
    Exit 0 when every image gave a script that renders, 1 when some did not,
    3 when some image could not be used (the others are still converted).
    """
    from diagbench.benchmarks.conversion.convert import convert as convert_images
    from diagbench.benchmarks.conversion.prompts import PromptError, load_prompt
    from diagbench.benchmarks.conversion.samples import find_images
    from diagbench.benchmarks.conversion.scoring import status_counts
    from diagbench.models.run_dir import write_manifest
    from diagbench.render.plantuml_pipe import PlantUMLEngine

    try:
        template = load_prompt(prompt)
        samples = find_images(list(images), caption)
    except (PromptError, ValueError) as exc:
        click.echo(f"diagbench: error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    fields = {"benchmark": "conversion", "model": settings.name, **settings.spec.served(),
              "parameters": settings.parameters(),
              "prompt": template.name, "prompt_template_hash": template.sha256,
              "images": len(samples)}
    write_manifest(out, fields)
    engine = PlantUMLEngine(jobs, render_timeout)
    records = convert_images(samples, settings, template, out, engine, max_connections,
                             progress_bar)
    for record in records:
        if record.status != "converted":
            click.echo(f"diagbench: {record.name}: {record.status}: {record.error}", err=True)
        elif not record.valid:
            click.echo(f"diagbench: {record.name}: script does not render: "
                       f"{record.render_error}", err=True)
    counts = status_counts(records)
    write_manifest(out, fields | {"statuses": counts})
    click.echo(", ".join(f"{n} {s.replace('_', ' ')}" for s, n in counts.items())
               + f" -> {out}")
    if counts["image_error"]:
        sys.exit(EXIT_BAD_INPUT)
    sys.exit(EXIT_OK if counts["valid"] == len(records) else EXIT_DIAGNOSTICS)

