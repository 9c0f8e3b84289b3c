"""`diagbench render`: turn diagram code into validated images with the real engines."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import click

from diagbench.cli.common import write_output
from diagbench.console import EXIT_BAD_INPUT, EXIT_DIAGNOSTICS, EXIT_OK, progress_bar
from diagbench.executors.options import OPTIONS as EXECUTOR_OPTIONS
from diagbench.executors.options import opened
from diagbench.formats.source import DEFAULT_MAX_BYTES


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Directory for the images (mirrors the input folders).")
@click.option("--format", "fmt", type=click.Choice(["png", "svg"]), default="png",
              show_default=True)
@click.option("--scale", "scales", type=click.FloatRange(0.1, 8.0), multiple=True,
              help="PNG scale factor; repeat for several (e.g. 1 1.5 2). Default 1.")
@click.option("--max-side", type=click.IntRange(16), help="Shrink PNGs so no side exceeds N.")
@click.option("--jobs", type=click.IntRange(1, 64), default=2, show_default=True,
              help="Diagrams drawn in parallel, at most (PlantUML: channels of one "
                   "warm JVM).")
@click.option("--timeout", type=click.FloatRange(1.0), default=20.0, show_default=True,
              help="Seconds allowed per diagram.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write one result per diagram as JSON to this file ('-' for stdout).")
@click.option("--max-bytes", default=DEFAULT_MAX_BYTES, show_default=True, type=click.IntRange(1),
              help="Refuse files larger than this.")
@EXECUTOR_OPTIONS[0]
@EXECUTOR_OPTIONS[1]
def render(paths: tuple[Path, ...], out: Path, fmt: str, scales: tuple[float, ...],
           max_side: int | None, jobs: int, timeout: float, json_path: Path | None,
           max_bytes: int, executor: str, ray_address: str | None) -> None:
    """Render diagram files of any language (or folders of them) into OUT.

    The engine is the language's (`diagbench languages`), found by the suffix
    (.puml → PlantUML, .dot/.gv → Graphviz, .mmd → Mermaid, .smi → RDKit, …) or the
    content. Each PlantUML block, each SMILES or FEN line, each ABC tune, each
    dot-bracket record and Newick tree is one image. Each record carries what the
    engine drew, read by its language (its statistics), off the SVG (for PNG, off an
    SVG drawn beside it); PlantUML's SVG carries the markers those statistics need
    (note, group and box borders of widths no diagram uses). Files under a folder
    without a diagram suffix are skipped and listed.
    A render is valid when the engine reports no error and the image decodes
    and is not blank; invalid ones are listed with the engine's message and line.
    """
    from diagbench.languages import source_files, unclaimed_files
    from diagbench.languages.rendering import collect, render_files

    if fmt == "svg" and (scales or max_side):
        raise click.UsageError("--scale and --max-side apply to PNG images only")
    items = collect(source_files(list(paths)), max_bytes)
    skipped = unclaimed_files(list(paths))
    if skipped:
        shown = ", ".join(str(p) for p in skipped[:5]) + (", …" if len(skipped) > 5 else "")
        click.echo(f"diagbench: skipped {len(skipped)} file(s) without a diagram suffix "
                   f"(`diagbench languages` lists them): {shown}", err=True)
    with opened(executor, ray_address) as running, progress_bar(len(items), "rendering") as bar:
        records = render_files(items, out, fmt, scales or (1.0,), max_side, jobs, timeout,
                               progress=lambda: bar.update(1), engines=running.engine)
    if json_path is not None:
        write_output(json_path, json.dumps([r.as_dict() for r in records], indent=1))
    bad = [r for r in records if not r.ok]
    if str(json_path) != "-":
        engines = Counter(r.engine for r in records if r.ok)
        click.echo(f"rendered {len(records) - len(bad)} of {len(records)} diagrams into {out}"
                   + (f" ({', '.join(f'{n} {e}' for e, n in sorted(engines.items()))})"
                      if engines else ""))
        for r in bad:
            where = f" line {r.result.error_line}" if r.result and r.result.error_line else ""
            click.echo(f"  invalid: {r.file}[{r.block}]{where}: {r.reason}")
    unreadable = any(r.result is None for r in bad)
    sys.exit(EXIT_BAD_INPUT if unreadable else EXIT_DIAGNOSTICS if bad else EXIT_OK)
