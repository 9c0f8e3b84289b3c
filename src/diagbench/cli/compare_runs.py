"""`diagbench compare-runs RUN_A RUN_B`: two runs of one benchmark, paired on the samples
both scored."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from diagbench.console import EXIT_BAD_INPUT, EXIT_OK


@click.command("compare-runs")
@click.argument("run_a", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.argument("run_b", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the comparisons as JSON.")
def compare_runs(run_a: Path, run_b: Path, as_json: bool) -> None:
    """Compare two scored runs of one benchmark on the samples both scored: per metric
    and pair of models (each model with itself when both runs have the same models,
    else every model of A with every model of B), the paired difference A − B with its
    95 % intervals (clustered by source diagram, and naive), the exact McNemar test for
    right/wrong answers or a sign-flip permutation test over diagrams for scores, and
    Holm-adjusted p-values over all comparisons. A run that cannot be read, or runs of
    two benchmarks: exit 3."""
    from diagbench.benchmarks.paired_runs import compare, lines, read_values
    from diagbench.benchmarks.protocol import DataError

    try:
        first, second = read_values(run_a), read_values(run_b)
        compared = compare(first, second)
    except DataError as exc:
        click.echo(f"diagbench: error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    if as_json:
        click.echo(json.dumps({"a": str(run_a), "b": str(run_b),
                               "benchmark": first.benchmark,
                               "comparisons": [c.to_json() for c in compared]},
                              indent=1, ensure_ascii=False))
    else:
        click.echo("\n".join(lines(first, second, compared)))
    sys.exit(EXIT_OK)
