"""`diagbench build …`: generate a benchmark's data set."""

from __future__ import annotations

from pathlib import Path

import click

from diagbench.benchmarks.prior_bias.build import SCALES, build_benchmark
from diagbench.benchmarks.prior_bias.vocabulary import load_vocabulary
from diagbench.cli.common import progress_bar
from diagbench.render.plantuml_pipe import PlantUMLEngine


@click.group(name="build")
def build_group() -> None:
    """Generate a benchmark's data set (diagrams, images, manifest)."""


@build_group.command(name="prior-bias")
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Directory for diagrams/, images/, manifest.jsonl and build.json.")
@click.option("--per-cell", type=click.IntRange(1), default=100, show_default=True,
              help="Instances per relation × condition (fewer where the vocabulary runs out).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--scale", "scales", type=click.FloatRange(0.25, 4.0), multiple=True,
              help="Image scale (repeatable). Default: 1, 1.5 and 2.")
@click.option("--jobs", type=click.IntRange(1, 64), default=2, show_default=True,
              help="PlantUML processes rendering in parallel.")
def prior_bias(out: Path, per_cell: int, seed: int, scales: tuple[float, ...],
               jobs: int) -> None:
    """The prior-bias benchmark of paper 002: class diagrams whose arrow agrees or
    conflicts with what the class names suggest, in five conditions × four relations.
    The same seed gives byte-identical files."""
    vocabulary = load_vocabulary()
    info = build_benchmark(out, vocabulary, per_cell, seed, PlantUMLEngine(jobs),
                           tuple(sorted(set(scales))) or SCALES, progress_bar)
    click.echo(f"{'condition':<15}" + "".join(f"{r[:4] + '.':>8}" for r in
                                              ("aggregation", "composition", "dependency",
                                               "inheritance")) + f"{'base':>8}{'rendered':>10}")
    for condition, row in info["cells"].items():
        click.echo(f"{condition:<15}" + "".join(f"{n:>8}" for n in row.values())
                   + f"{row['base'] * len(info['scales']):>10}")
    rejected = sum(info["rejected"].values())
    click.echo(f"{info['instances']} instances, {info['diagrams']} diagrams, {rejected} "
               f"candidates rejected (reasons in build.json) -> {out}")
