"""`diagbench view`: every sample of runs in the browser (`diagbench.report.view`)."""

from __future__ import annotations

import json
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import click

from diagbench.console import EXIT_BAD_INPUT, EXIT_OK


@click.command("view")
@click.argument("runs", nargs=-1, required=True,
                type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port on 127.0.0.1 to serve the page on (0: any free one).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Write a static copy of the page into this directory (it opens offline, "
                   "from file://) instead of serving it.")
@click.option("--data", "data_dir", type=click.Path(exists=True, file_okay=False,
                                                    path_type=Path),
              help="The runs' data, where they cannot find it (moved since).")
def view(runs: tuple[Path, ...], port: int, out: Path | None, data_dir: Path | None
         ) -> None:
    """Browse every sample of the runs RUN… of any benchmarks: filter by model,
    benchmark, task, category, status, right or wrong, score range and free text; open a
    sample for its image, prompt, raw answer, what was read from it, the reasoning kept
    apart, the gold, the score and its parts, the error, and for code answers the
    drawn prediction beside the image with the differences. Served on 127.0.0.1 only,
    until Ctrl-C. A run finds its data from any folder (--data where it moved). A run
    that cannot be read is named on stderr (exit 3 with --out); the others are shown;
    when none can be read, nothing is written or served (exit 3)."""
    from diagbench.benchmarks.jsonl import not_json, read_text
    from diagbench.benchmarks.protocol import DataError
    from diagbench.benchmarks.registry import get, registered
    from diagbench.report.view import SampleView, serve, write_view

    views: list[SampleView] = []
    problems = []
    for run in runs:
        try:
            name = json.loads(read_text(run / "manifest.json")).get("benchmark")
            if name not in registered():
                raise DataError(f"{run / 'manifest.json'}: not a run of a benchmark")
            views += [replace(v, run=str(run))
                      for v in get(name).sample_views(run, data_dir)]
        except DataError as exc:
            problems.append(str(exc))
        except json.JSONDecodeError as exc:
            problems.append(str(not_json(run / "manifest.json", exc)))
        except NotImplementedError as exc:
            problems.append(f"{run}: {exc}")
    for problem in problems:
        click.echo(f"diagbench: error: {problem}", err=True)
    if problems and not views:
        click.echo("diagbench: error: no run could be read: no page written", err=True)
        sys.exit(EXIT_BAD_INPUT)
    folder = out or Path(tempfile.mkdtemp(prefix="diagbench-view-"))
    count = write_view(views, folder, "diagbench view: " + ", ".join(map(str, runs)))
    if out is not None:
        click.echo(f"{count} samples -> {out / 'index.html'}")
        sys.exit(EXIT_BAD_INPUT if problems else EXIT_OK)
    server = serve(folder, port)
    click.echo(f"{count} samples: http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C stops)")
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.shutdown()
