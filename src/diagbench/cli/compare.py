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
    from diagbench.compare.pair import Pair
    from diagbench.compare.report import FileResult
    from diagbench.compare.scored_files import ScoredFile


@click.command()
@click.argument("gold", required=False, type=click.Path(path_type=Path))
@click.argument("pred", required=False, type=click.Path(path_type=Path))
@click.option("--method", type=click.Choice(METHODS), default="semantic", show_default=True,
              help="semantic: match parsed elements; diff: the paper's line diff.")
@click.option("--repo", type=click.Path(file_okay=False, path_type=Path),
              help="Compare refs of this git repository instead of GOLD and PRED.")
@click.option("--gold-ref", help="With --repo: the ref holding the ground truth (e.g. main).")
@click.option("--pred-ref", "pred_refs", multiple=True,
              help="With --repo: a ref holding one model's predictions (e.g. claude); "
                   "repeat it to compare models with the paired test.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the full report as JSON to this file ('-' for stdout).")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write one row per file and component to this CSV file ('-' for stdout).")
@click.option("--patch", "patch_dir", metavar="DIR",
              type=click.Path(file_okay=False, path_type=Path),
              help="With --method diff: write each file's git patch to DIR/<path>.patch.")
@click.option("--max-bytes", default=DEFAULT_MAX_BYTES, show_default=True, type=click.IntRange(1),
              help="Refuse files larger than this.")
def compare(gold: Path | None, pred: Path | None, method: Method, repo: Path | None,
            gold_ref: str | None, pred_refs: tuple[str, ...], json_path: Path | None,
            csv_path: Path | None, patch_dir: Path | None, max_bytes: int) -> None:
    """Compare predicted diagrams with the ground truth: sequence diagrams (PlantUML)
    element by element, and every other diagram (class, component, state, ER, flow
    and other graphs in PlantUML, Mermaid, DOT, DBML; molecules, trees, alignments and
    the other science domains) by its language's image-to-code score.

    GOLD and PRED are two files, or two directories whose scripts are paired by
    relative path. With --repo, --gold-ref and --pred-ref, the scripts of two
    refs of one git repository are paired instead. For sequences, prints the
    pooled error rates per component (the paper's Table 2) and a line per file;
    for the others (detected from the parsed ground truth), the score = renders ×
    the language's own similarity (for graphs the mean of entity F1, normalised
    name and kind, and relation F1: ends, direction, type), with STRUDEL's
    counts-only score beside it.
    With --pred-ref given several times, each ref is reported in turn, then
    every two refs are compared per component by the paired test of paper
    000's footnote 3 (Wilcoxon signed-rank on per-file error rates).
    """
    from diagbench.compare.pair import InputError
    from diagbench.compare.report import combined_report, combined_table, csv_text
    from diagbench.compare.significance import (
        common_files,
        paired_document,
        paired_table,
        paired_tests,
    )
    from diagbench.languages.pairing import pairs_from_git, pairs_from_paths

    if patch_dir is not None and method != "diff":
        raise click.UsageError("--patch takes --method diff (the patch is git's diff)")
    try:
        if repo is not None:
            if gold or pred or not gold_ref or not pred_refs:
                raise click.UsageError("--repo takes --gold-ref and --pred-ref, and no GOLD/PRED")
            inputs = {ref: pairs_from_git(repo, gold_ref, ref, max_bytes)
                      for ref in dict.fromkeys(pred_refs)}
        else:
            if gold is None or pred is None or gold_ref or pred_refs:
                raise click.UsageError(
                    "give GOLD and PRED, or --repo with --gold-ref and --pred-ref")
            inputs = {"": pairs_from_paths(gold, pred, max_bytes)}
    except InputError as exc:
        click.echo(f"diagbench: error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    several = len(inputs) > 1
    outcomes = {ref: _compare_pairs(pairs, method, ref if several else "",
                                    patch_dir / ref if several and patch_dir else patch_dir)
                for ref, pairs in inputs.items()}
    if several:
        tests = paired_tests(common_files({ref: results
                                           for ref, (results, _) in outcomes.items()}))
        document = {"method": method,
                    "refs": {ref: combined_report(results, method, graphs)
                             for ref, (results, graphs) in outcomes.items()},
                    "paired_tests": paired_document(tests)}
        text = "\n\n".join([*(f"pred-ref {ref}:\n" + combined_table(results, method, graphs)
                               for ref, (results, graphs) in outcomes.items()),
                             paired_table(tests)])
    else:
        [(results, graphs)] = outcomes.values()
        document = combined_report(results, method, graphs)
        text = combined_table(results, method, graphs)
    every = [r for results, _ in outcomes.values() for r in results]
    settled = [g for _, graphs in outcomes.values() for g in graphs
               if g.error is not None or g.missing]
    if json_path is not None:
        write_output(json_path, json.dumps(document, indent=1, ensure_ascii=False))
    if csv_path is not None:
        write_output(csv_path, csv_text(every))
    if "-" not in (str(json_path), str(csv_path)):
        click.echo(text)
    sys.exit(EXIT_OK if all(r.ok for r in every) and not settled else EXIT_BAD_INPUT)


def _compare_pairs(pairs: list[Pair], method: Method, ref: str, patch_dir: Path | None
                   ) -> tuple[list[FileResult], list[ScoredFile]]:
    """Compare one set of pairs (from prediction `ref`, named in errors unless ""): the
    sequence diagrams by `method` (their patches written to `patch_dir` when given), the
    others by their language's image-to-code score."""
    from diagbench.compare.report import run, write_patches
    from diagbench.languages.comparing import compare_items, route

    pairs, items, settled = route(pairs)
    with progress_bar(len(pairs), "comparing") as bar:
        results = run(pairs, method, progress=lambda: bar.update(1))
    where = ref + ":" if ref else ""
    for r in results:
        if not r.ok:
            click.echo(f"diagbench: error: {where}{r.pair.name}: {r.pair.error}", err=True)
    if patch_dir is not None:
        write_patches(results, patch_dir)
    scored = compare_items(items)
    for f in settled:
        click.echo(f"diagbench: error: {where}{f.name}: "
                   f"{f.error or 'no prediction for this file'}", err=True)
    return results, sorted(scored + settled, key=lambda f: f.name)
