"""`diagbench eval …`: run a benchmark end to end into a run directory."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from diagbench.benchmarks.conversion.evaluate import evaluate
from diagbench.cli.common import EXIT_BAD_INPUT, EXIT_OK, progress_bar
from diagbench.cli.convert import PROMPT_HELP, prompt_or_exit, render_options
from diagbench.cli.model_options import model_options
from diagbench.compare.pair import METHODS
from diagbench.compare.report import pooled, table2
from diagbench.models.settings import ModelSettings
from diagbench.render.plantuml_pipe import PlantUMLEngine


@click.group(name="eval")
def evaluate_group() -> None:
    """Run a benchmark: build its samples, ask the models, score, report."""


@evaluate_group.command()
@click.option("--gold", required=True, type=click.Path(exists=True, path_type=Path),
              help="Ground-truth PlantUML scripts (a folder, searched recursively, or a file).")
@click.option("--images", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="Take NAME.png (or .jpg, …) from here instead of rendering the ground truth.")
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Run directory; re-run the same command to resume.")
@click.option("--prompt", "prompt_name", default="paper", show_default=True, help=PROMPT_HELP)
@render_options
@model_options(multiple=True)
def conversion(gold: Path, images: Path | None, out: Path, prompt_name: str, jobs: int,
               render_timeout: float, max_connections: int,
               settings: list[ModelSettings]) -> None:
    """Image → PlantUML conversion (paper 000): each model converts the images of the
    ground-truth scripts; each script is compared with its ground truth by both
    methods. Prints Table 2 per model and writes OUT/report.html.

    Exit 0 when every ground-truth file and image could be used, 3 when some
    could not (the others are still scored). Failed model calls are counted in
    the report, not in the exit code.
    """
    prompt = prompt_or_exit(prompt_name)
    engine = PlantUMLEngine(jobs, render_timeout)
    result = evaluate(gold, settings, out, prompt, engine, images, max_connections,
                      bars=progress_bar)
    if not result.gold.samples:
        click.echo(f"diagbench: error: no usable ground truth in {gold}", err=True)
    for problem in result.gold.problems:
        click.echo(f"diagbench: error: {problem['gold']}: {problem['error']}", err=True)
    image_errors = 0
    for name, outcome in result.models.items():
        statuses = result.summary["models"][name]["conversion"]["statuses"]
        image_errors += statuses["image_error"]
        click.echo(f"\n== {name}: " + ", ".join(f"{n} {s.replace('_', ' ')}"
                                               for s, n in statuses.items()))
        for method in METHODS:
            click.echo("\n".join(table2(pooled(outcome.results[method]), method)))
    click.echo(f"\nreport: {result.report}")
    bad = result.gold.problems or image_errors or not result.gold.samples
    sys.exit(EXIT_BAD_INPUT if bad else EXIT_OK)
