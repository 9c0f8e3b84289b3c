"""The `diagbench` command line. Thin: it parses options and calls the packages.

Exit codes: 0 success; 1 some diagram has error diagnostics; 2 usage error;
3 some input file could not be read (the others are still processed);
4 internal error.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path

import click

from diagbench import __version__
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
