"""`diagbench parse`: read diagrams of every supported language and summarise them."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path

import click

from diagbench.console import EXIT_BAD_INPUT, EXIT_DIAGNOSTICS, EXIT_OK
from diagbench.formats.source import DEFAULT_MAX_BYTES, SourceError, read_source


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list, one object per diagram.")
@click.option("--max-bytes", default=DEFAULT_MAX_BYTES, show_default=True, type=click.IntRange(1),
              help="Refuse files larger than this.")
@click.option("--strict", is_flag=True, help="Exit 1 on warnings too, not only on errors.")
def parse(files: tuple[Path, ...], as_json: bool, max_bytes: int, strict: bool) -> None:
    """Parse diagrams and summarise each one.

    The language comes from the file's suffix, else from its first statement
    (PlantUML, Mermaid, Graphviz DOT, DBML); every @startuml block of a
    PlantUML file is one diagram. A directory stands for the files under it with
    a diagram suffix. Files that cannot be read are reported on stderr and
    skipped; the others are still parsed.
    """
    from diagbench.languages import detect, diagram_files

    records, worst = [], EXIT_OK
    paths: list[Path] = []
    for given in files:
        if given.is_dir():
            found = diagram_files(given)
            if not found:
                click.echo(f"diagbench: error: {given}: no diagram files in this directory",
                           err=True)
                worst = EXIT_BAD_INPUT
            paths += found
        else:
            paths.append(given)
    for path in paths:
        try:
            text = read_source(path, max_bytes)
        except SourceError as exc:
            click.echo(f"diagbench: error: {exc}", err=True)
            worst = EXIT_BAD_INPUT
            continue
        for parsed in detect(path, text).read(text):
            failing = parsed.diagnostics if strict else parsed.errors
            if failing and worst == EXIT_OK:
                worst = EXIT_DIAGNOSTICS
            record = {
                "file": str(path),
                "index": parsed.index,
                "language": parsed.language,
                "kind": parsed.kind,
                "counts": parsed.counts(),
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


def _print_summary(record: dict) -> None:
    counts = ", ".join(f"{n} {k}" for k, n in record["counts"].items())
    click.echo(f"{record['file']} [{record['index']}] {record['kind']}: {counts}")
    for d in record["diagnostics"]:
        click.echo(f"  line {d['line']}: {d['severity']}: {d['reason']}: {d['text'].strip()[:100]}")
