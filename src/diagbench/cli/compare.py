"""`diagbench compare`: score predicted sequence diagrams against the ground truth."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from diagbench.cli.common import write_output
from diagbench.compare.methods import METHODS, Method
from diagbench.console import EXIT_BAD_INPUT, EXIT_OK, progress_bar
from diagbench.formats.source import DEFAULT_MAX_BYTES

if TYPE_CHECKING:
    from diagbench.compare.graph import GraphFile
    from diagbench.compare.inputs import Pair

#: (name, gold path, pred path, language, gold text, pred text): what `run_graph` compares.
GraphItem = tuple[str, str | None, str | None, str, str, str]


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
    from diagbench.compare.inputs import InputError, pairs_from_git, pairs_from_paths
    from diagbench.compare.report import csv_text, report, run, table
    from diagbench.languages import has_suffix

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
    pairs, graph_items, graph_errors = _split_graphs(pairs)
    with progress_bar(len(pairs), "comparing") as bar:
        results = run(pairs, method, progress=lambda: bar.update(1))
    for r in results:
        if not r.ok:
            click.echo(f"diagbench: error: {r.pair.name}: {r.pair.error}", err=True)
    graphs = _compare_graphs(graph_items, graph_errors)
    if json_path is not None:
        document = report(results, method) if results or not graphs else {}
        if graphs:
            from diagbench.compare.graph import graph_summary
            files = [g.as_dict() for g in graphs]
            if document:
                document["files"] += files
                document["graph_summary"] = graph_summary(graphs)
            else:
                document = {"method": "graph", "files": files, "summary": graph_summary(graphs)}
        write_output(json_path, json.dumps(document, indent=1, ensure_ascii=False))
    if csv_path is not None:
        write_output(csv_path, csv_text(results))
    if "-" not in (str(json_path), str(csv_path)):
        if results or not graphs:
            click.echo(table(results, method))
        if graphs:
            from diagbench.compare.graph import graph_table
            click.echo(graph_table(graphs))
    ok = all(r.ok for r in results) and all(g.comparison is not None for g in graphs)
    sys.exit(EXIT_OK if ok else EXIT_BAD_INPUT)


def _split_graphs(pairs: list[Pair]) -> tuple[list[Pair], list[GraphItem], list[GraphFile]]:
    """(sequence pairs, graph items, graph pairs that failed): a pair goes to the graph
    comparison when its ground truth's first diagram is not a sequence diagram
    (the kind is detected from the parsed gold, whatever the language)."""
    from diagbench.diagram.graph import GraphDiagram
    from diagbench.formats.source import SourceError
    from diagbench.languages import detect

    sequences: list[Pair] = []
    items: list[GraphItem] = []
    errors: list[GraphFile] = []
    for pair in pairs:
        if pair.error is not None or pair.load is None:
            sequences.append(pair)
            continue
        try:
            gold_text, pred_text = pair.load()
        except SourceError:
            sequences.append(pair)  # the sequence route reports the error
            continue
        language = detect(Path(pair.gold or pair.name), gold_text)
        parsed = language.read(gold_text)
        if not parsed or not isinstance(parsed[0].diagram, GraphDiagram):
            sequences.append(pair)
        else:
            items.append((pair.name, pair.gold, pair.pred, language.name, gold_text,
                          pred_text))
    return sequences, items, errors


def _compare_graphs(items: list[GraphItem], errors: list[GraphFile]) -> list[GraphFile]:
    if not items:
        return list(errors)
    from diagbench.compare.graph import run_graph
    from diagbench.languages import named
    from diagbench.render.validity import check

    return run_graph(items, lambda language, texts: check(named(language).engine, texts),
                     lambda gold, pred, valid, language: named(language).compare(
                         gold, pred, valid)) + list(errors)
