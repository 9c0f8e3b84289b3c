"""`diagbench import strudel SOURCE --out DATA` (contributed to the `import` group through
`StructureBenchmark.importers`) and the evaluation settings STRUDEL uses that `eval
structure` offers: its system prompt and its matching. Light: the reading is in
`strudel`, imported when the command runs."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from diagbench.console import EXIT_BAD_INPUT, EXIT_OK

#: The system prompt STRUDEL's evaluation sends with every question.
SYSTEM_PROMPT = ("You are an AI assistant expert specialized in understanding and "
                 "interpreting visualizations. Your task is to analyze the provided "
                 "structured image and respond to queries with correct answers.")

MATCHING_OPTION = click.option(
    "--matching", type=click.Choice(["strict", "strudel"]), default="strict",
    show_default=True,
    help="strict: diagbench's reading (the answer must state the gold); strudel: "
         "STRUDEL's (the gold a substring of a window of the answer's start, end or what "
         "follows \"answer:\"/\"answer is\": \"A\" matches \"Answer: (B)\", \"3\" matches "
         "\"13\"; image-to-code (renders + node-type F1)/2). Both are computed, and their "
         "disagreements counted, for a STRUDEL import or with strudel; the scores follow "
         "this one.")
SYSTEM_OPTION = click.option(
    "--system-prompt", default=SYSTEM_PROMPT, show_default="STRUDEL's",
    help="The system prompt sent with every task (\"\": none).")


@click.command(name="strudel")
@click.argument("source", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Directory for the data set.")
@click.option("--gold-statistics", type=click.Path(exists=True, dir_okay=False,
                                                   path_type=Path),
              help="STRUDEL's node-type counts by sample id (default: "
                   "SOURCE/gold_statistics.json when there is one).")
def import_strudel_command(source: Path, out: Path, gold_statistics: Path | None) -> None:
    """Read STRUDEL's released test split (SOURCE/data/test-*.parquet, as the Hugging
    Face `datasets` library saves danielsteinigen/STRUDEL) into OUT, a data set that
    `eval structure --data OUT` runs: samples.jsonl, tasks.jsonl, images/, sources/ and
    build.json. Score it with diagbench's strict reading (default) and STRUDEL's own
    matching side by side (`eval structure --matching strudel` scores by STRUDEL's).
    Exit 3 when SOURCE or some row cannot be read (the others are imported)."""
    from diagbench.benchmarks.protocol import DataError
    from diagbench.benchmarks.structure.strudel import import_strudel

    try:
        info = import_strudel(source, out, gold_statistics)
    except DataError as exc:
        click.echo(f"diagbench: error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    click.echo(f"{sum(info.tasks.values())} tasks about {info.samples} images from "
               f"{info.rows} rows ({', '.join(f'{k} {v}' for k, v in info.tasks.items())})")
    for key in info.unknown_categories:
        click.echo(f"warning: category key {key!r} is not one of diagbench's categories: "
                   "kept as it is", err=True)
    for lang, n in info.unscorable_code.items():
        click.echo(f"warning: {n} image-to-code task(s) in {lang!r} left out: diagbench "
                   "does not read that language", err=True)
    click.echo(f"-> {out} (details in {out / 'build.json'})")
    for problem in info.skipped:
        click.echo(f"diagbench: error: {problem}", err=True)
    sys.exit(EXIT_BAD_INPUT if info.skipped else EXIT_OK)
