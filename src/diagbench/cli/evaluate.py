"""`diagbench eval …`: run a benchmark end to end into a run directory."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from diagbench.benchmarks.conversion.evaluate import evaluate
from diagbench.benchmarks.prior_bias.evaluate import ManifestError
from diagbench.benchmarks.prior_bias.evaluate import evaluate as evaluate_prior_bias
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


@evaluate_group.command(name="prior-bias")
@click.option("--data", required=True, type=click.Path(exists=True, file_okay=False,
                                                       path_type=Path),
              help="A directory written by diagbench build prior-bias.")
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Run directory; re-run the same command to resume.")
@click.option("--scale", "scales", multiple=True,
              help="Only these image scales (e.g. 1x; repeatable). Default: all built.")
@click.option("--limit", type=click.IntRange(1), help="Only the first N instances.")
@click.option("--max-connections", type=click.IntRange(1, 512), default=8, show_default=True)
@model_options(multiple=True)
def prior_bias(data: Path, out: Path, scales: tuple[str, ...], limit: int | None,
               max_connections: int, settings: list[ModelSettings]) -> None:
    """Prior bias in UML class diagrams (paper 002): the two-stage protocol (class names,
    then relation direction) for each model; prints RelAcc and EM per condition, the
    conflict gap Δ and the prerequisite check, and writes OUT/report.html.
    Reference models that run offline: baseline:prior and baseline:vision-uml.

    Exit 0, or 3 when the benchmark directory cannot be used.
    """
    try:
        result = evaluate_prior_bias(data, settings, out, scales, limit, max_connections,
                                     progress_bar)
    except ManifestError as exc:
        click.echo(f"diagbench: error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    for name, model in result.summary["models"].items():
        click.echo(f"\n== {name}: {model['answered']} answered, {model['errors']} failed calls")
        click.echo(f"{'condition':<15}{'RelAcc':>8}{'EM':>8}{'n':>7}")
        for condition, cell in model["conditions"].items():
            click.echo(f"{condition:<15}{_pct(cell['rel_acc']):>8}{_pct(cell['em']):>8}"
                       f"{cell['n']:>7}")
        ci = model["delta_ci"]
        click.echo(f"Δ = {_pct(model['delta'])}"
                   + (f" (95% CI {ci[0]:.1f} to {ci[1]:.1f})" if ci else "")
                   + "; " + ", ".join(f"Δ {c} {_pct(v)}"
                                      for c, v in model["delta_by_condition"].items()))
        check = model["prerequisite"]
        click.echo(f"prerequisite (EM ≥ 95, prior-free RelAcc ≥ 50): "
                   f"{'passed' if check['passed'] else 'failed'}")
    click.echo(f"\nreport: {result.report}")
    sys.exit(EXIT_OK)


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}"
