"""`diagbench compare`: score predicted sequence diagrams against the ground truth."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from diagbench.cli.common import write_output
from diagbench.compare.methods import METHODS, Method
from diagbench.console import EXIT_BAD_INPUT, EXIT_OK, progress_bar
from diagbench.formats.source import DEFAULT_MAX_BYTES


@click.command()
@click.argument("gold", required=False, type=click.Path(path_type=Path))
@click.argument("pred", required=False, type=click.Path(path_type=Path))
@click.option("--method", type=click.Choice(METHODS), default="semantic", show_default=True,
              help="semantic: match parsed elements; diff: the paper's line diff.")
@click.option("--repo", type=click.Path(file_okay=False, path_type=Path),
              help="Compare two refs of this git repository instead of GOLD and PRED.")
@click.option("--gold-ref", help="With --repo: the ref holding the ground truth (e.g. main).")
@click.option("--pred-ref", help="With --repo: the ref holding the predictions (e.g. claude).")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the full report as JSON to this file ('-' for stdout).")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write one row per file and component to this CSV file ('-' for stdout).")
@click.option("--max-bytes", default=DEFAULT_MAX_BYTES, show_default=True, type=click.IntRange(1),
              help="Refuse files larger than this.")
def compare(gold: Path | None, pred: Path | None, method: Method, repo: Path | None,
            gold_ref: str | None, pred_ref: str | None, json_path: Path | None,
            csv_path: Path | None, max_bytes: int) -> None:
    """Compare predicted diagrams with the ground truth: sequence diagrams (PlantUML)
    element by element, and class, component, state, ER, flow and other graph
    diagrams (PlantUML, Mermaid, DOT, DBML) by the image-to-code score.

    GOLD and PRED are two files, or two directories whose scripts are paired by
    relative path. With --repo, --gold-ref and --pred-ref, the scripts of two
    refs of one git repository are paired instead. For sequences, prints the
    pooled error rates per component (the paper's Table 2) and a line per file;
    for graph diagrams (detected from the parsed ground truth), the score =
    renders × mean of entity F1 (normalised name and kind) and relation F1
    (ends, direction, type), with STRUDEL's counts-only score beside it.
    """
    from diagbench.compare.graph import run_graph, split_graphs
    from diagbench.compare.inputs import InputError, pairs_from_git, pairs_from_paths
    from diagbench.compare.report import combined_report, combined_table, csv_text, run
    from diagbench.languages import has_suffix, named
    from diagbench.render.validity import check

    try:
        if repo is not None:
            if gold or pred or not gold_ref or not pred_ref:
                raise click.UsageError("--repo takes --gold-ref and --pred-ref, and no GOLD/PRED")
            pairs = pairs_from_git(repo, gold_ref, pred_ref, max_bytes, has_suffix)
        else:
            if gold is None or pred is None or gold_ref or pred_ref:
                raise click.UsageError(
                    "give GOLD and PRED, or --repo with --gold-ref and --pred-ref")
            pairs = pairs_from_paths(gold, pred, max_bytes, has_suffix)
    except InputError as exc:
        click.echo(f"diagbench: error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    pairs, graph_items = split_graphs(pairs, _detect)
    with progress_bar(len(pairs), "comparing") as bar:
        results = run(pairs, method, progress=lambda: bar.update(1))
    for r in results:
        if not r.ok:
            click.echo(f"diagbench: error: {r.pair.name}: {r.pair.error}", err=True)
    graphs = run_graph(graph_items,
                       lambda language, texts: check(named(language).engine, texts),
                       lambda gold, pred, valid, language: named(language).compare(
                           gold, pred, valid))
    if json_path is not None:
        document = combined_report(results, method, graphs)
        write_output(json_path, json.dumps(document, indent=1, ensure_ascii=False))
    if csv_path is not None:
        write_output(csv_path, csv_text(results))
    if "-" not in (str(json_path), str(csv_path)):
        click.echo(combined_table(results, method, graphs))
    sys.exit(EXIT_OK if all(r.ok for r in results) else EXIT_BAD_INPUT)


def _detect(path: Path, text: str) -> tuple[str, list]:
    """The language of a script (by suffix, else by content) and what its reader reads."""
    from diagbench.languages import detect

    language = detect(path, text)
    return language.name, language.read(text)
