"""The `diagbench` command line. Thin: it parses options and calls the packages.

Exit codes: 0 success; 1 some diagram has error diagnostics (`parse`);
2 usage error; 3 some input could not be read or compared (the others are
still processed); 4 internal error.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path

import click

from diagbench import __version__
from diagbench.compare import METHODS
from diagbench.compare.inputs import InputError, pairs_from_git, pairs_from_paths
from diagbench.compare.report import csv_text, report, run, table
from diagbench.formats.plantuml import parse_sequence
from diagbench.formats.source import DEFAULT_MAX_BYTES, SourceError, read_source

EXIT_OK, EXIT_DIAGNOSTICS, EXIT_USAGE, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3, 4


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="diagbench")
def cli() -> None:
    """Measure how well vision-language models read software diagrams."""


@cli.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list, one object per diagram.")
@click.option("--max-bytes", default=DEFAULT_MAX_BYTES, show_default=True, type=click.IntRange(1),
              help="Refuse files larger than this.")
@click.option("--strict", is_flag=True, help="Exit 1 on warnings too, not only on errors.")
def parse(files: tuple[Path, ...], as_json: bool, max_bytes: int, strict: bool) -> None:
    """Parse PlantUML sequence diagrams and summarise each one.

    Every @startuml block of every FILE is one diagram. Files that cannot be
    read are reported on stderr and skipped; the others are still parsed.
    """
    records, worst = [], EXIT_OK
    for path in files:
        try:
            text = read_source(path, max_bytes)
        except SourceError as exc:
            click.echo(f"diagbench: error: {exc}", err=True)
            worst = EXIT_BAD_INPUT
            continue
        for parsed in parse_sequence(text):
            failing = parsed.diagnostics if strict else parsed.errors
            if failing and worst == EXIT_OK:
                worst = EXIT_DIAGNOSTICS
            record = {
                "file": str(path),
                "index": parsed.index,
                "kind": parsed.kind,
                "counts": parsed.diagram.counts(),
                "diagnostics": [asdict(d) for d in parsed.diagnostics],
                "diagram": asdict(parsed.diagram),
            }
            if as_json:
                records.append(record)
            else:
                _print_summary(record)
    if as_json:
        click.echo(json.dumps(records, indent=1, ensure_ascii=False))
    sys.exit(worst)


@cli.command()
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
def compare(gold: Path | None, pred: Path | None, method: str, repo: Path | None,
            gold_ref: str | None, pred_ref: str | None, json_path: Path | None,
            csv_path: Path | None, max_bytes: int) -> None:
    """Compare predicted PlantUML sequence diagrams with the ground truth.

    GOLD and PRED are two files, or two directories whose scripts are paired by
    relative path. With --repo, --gold-ref and --pred-ref, the scripts of two
    refs of one git repository are paired instead. Prints the pooled error
    rates per component (the paper's Table 2) and a line per file.
    """
    if repo is not None:
        if gold or pred or not (gold_ref and pred_ref):
            raise click.UsageError("--repo takes --gold-ref and --pred-ref, and no GOLD/PRED")
    elif gold is None or pred is None or gold_ref or pred_ref:
        raise click.UsageError("give GOLD and PRED, or --repo with --gold-ref and --pred-ref")
    try:
        pairs = (pairs_from_git(repo, gold_ref, pred_ref, max_bytes) if repo is not None
                 else pairs_from_paths(gold, pred, max_bytes))
    except InputError as exc:
        click.echo(f"diagbench: error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    show = sys.stderr.isatty() and len(pairs) > 20
    with click.progressbar(length=len(pairs), label="comparing", file=sys.stderr,
                           hidden=not show) as bar:
        results = run(pairs, method, progress=lambda: bar.update(1))
    for r in results:
        if not r.ok:
            click.echo(f"diagbench: error: {r.pair.name}: {r.pair.error}", err=True)
    if json_path is not None:
        _write(json_path, json.dumps(report(results, method), indent=1, ensure_ascii=False))
    if csv_path is not None:
        _write(csv_path, csv_text(results))
    if "-" not in (str(json_path), str(csv_path)):
        click.echo(table(results, method))
    sys.exit(EXIT_OK if all(r.ok for r in results) else EXIT_BAD_INPUT)


def _write(path: Path, text: str) -> None:
    if str(path) == "-":
        click.echo(text)
    else:
        path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")


def _print_summary(record: dict) -> None:
    counts = ", ".join(f"{n} {k}" for k, n in record["counts"].items())
    click.echo(f"{record['file']} [{record['index']}] {record['kind']}: {counts}")
    for d in record["diagnostics"]:
        click.echo(f"  line {d['line']}: {d['severity']}: {d['reason']}: {d['text'].strip()[:100]}")


def main() -> None:
    """Entry point: run the CLI, turning any unexpected exception into exit code 4."""
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("diagbench: aborted", err=True)
        sys.exit(EXIT_INTERNAL)
    except click.ClickException as exc:
        exc.show()
        sys.exit(EXIT_USAGE)
    except SystemExit:
        raise
    except BrokenPipeError:
        sys.exit(EXIT_OK)
    except Exception as exc:
        click.echo(f"diagbench: internal error: {type(exc).__name__}: {exc}", err=True)
        sys.exit(EXIT_INTERNAL)
