"""`diagbench build …`: generate a benchmark's data set."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from diagbench.benchmarks.prior_bias.build import SCALES, build_benchmark
from diagbench.benchmarks.prior_bias.vocabulary import load_vocabulary
from diagbench.benchmarks.prior_bias.wordnet import WORDNET_DIR, WordNetError, wordnet_chains
from diagbench.cli.common import EXIT_BAD_INPUT, progress_bar
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
@click.option("--wordnet", "wordnet_dir", type=click.Path(path_type=Path), is_flag=False,
              flag_value=WORDNET_DIR, help="Widen the vocabulary from WordNet (Debian's "
              f"wordnet-base; default folder {WORDNET_DIR}).")
@click.option("--wordnet-min-count", type=click.IntRange(1), default=2, show_default=True,
              help="With --wordnet: only words whose first sense is tagged this often.")
def prior_bias(out: Path, per_cell: int, seed: int, scales: tuple[float, ...], jobs: int,
               wordnet_dir: Path | None, wordnet_min_count: int) -> None:
    """The prior-bias benchmark of paper 002: class diagrams whose arrow agrees or
    conflicts with what the class names suggest, in five conditions × four relations.
    The same seed (and vocabulary) gives byte-identical files. Exit 3 when --wordnet
    finds no WordNet."""
    try:
        extra = wordnet_chains(wordnet_dir, wordnet_min_count) if wordnet_dir else None
    except (WordNetError, OSError) as exc:
        click.echo(f"diagbench: error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    vocabulary = load_vocabulary(extra=extra)
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
