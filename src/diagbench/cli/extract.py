"""`diagbench extract`: the figures of Word documents (3GPP specifications) as PNG files
with their captions, ready for `convert` and `eval conversion --images`."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from diagbench.console import EXIT_BAD_INPUT, EXIT_OK


@click.command()
@click.argument("documents", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Folder for NAME.png, NAME.txt (caption) and figures.jsonl.")
@click.option("--sequence-only", is_flag=True,
              help="Keep only figures that look like sequence diagrams (lifelines and arrows).")
def extract(documents: tuple[Path, ...], out: Path, sequence_only: bool) -> None:
    """Write every figure of Word DOCUMENTS (.docx; .doc through LibreOffice) as PNG.

    Pictures in EMF/WMF (drawings) are converted by LibreOffice; each figure's caption
    (the "Figure …" paragraph beside it) goes to NAME.txt, which `convert` and `eval
    conversion --images` read. OUT/figures.jsonl has one line per figure: file, index,
    paragraph, caption, source format, image, width, height. Exit 0, or 3 when some
    document or picture could not be read (the others are still written).
    """
    from diagbench.benchmarks.conversion.extract import DOCUMENT_SUFFIXES
    from diagbench.benchmarks.conversion.extract import extract as extract_figures

    unknown = [d for d in documents if d.suffix.lower() not in DOCUMENT_SUFFIXES]
    if unknown:
        click.echo(f"diagbench: error: {unknown[0]}: not a Word document "
                   f"({', '.join(DOCUMENT_SUFFIXES)})", err=True)
        sys.exit(EXIT_BAD_INPUT)
    figures, skipped = extract_figures(list(documents), out, sequence_only)
    for skip in skipped:
        where = f"{skip.file}" + (f" figure {skip.index}" if skip.index else "")
        click.echo(f"diagbench: {where}: {skip.reason}", err=True)
    click.echo(f"{len(figures)} figures written to {out} ({len(skipped)} skipped)")
    sys.exit(EXIT_BAD_INPUT if skipped else EXIT_OK)
