"""`diagbench run`: send a JSONL file of prompts (with images) to a model, into a run directory."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from diagbench.cli.model_options import model_options
from diagbench.console import EXIT_BAD_INPUT, EXIT_DIAGNOSTICS, EXIT_OK, progress_bar

if TYPE_CHECKING:
    from diagbench.models.settings import ModelSettings


@click.command()
@click.argument("requests_file", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Run directory (manifest.json, responses.jsonl); re-run to resume.")
@click.option("--limit", type=click.IntRange(1), help="Only the first N requests.")
@click.option("--repeats", type=click.IntRange(1), default=1, show_default=True,
              help="Ask each request N times (needs --temperature > 0; each repeat is "
                   "cached apart).")
@click.option("--max-connections", type=click.IntRange(1, 512), default=8, show_default=True)
@click.option("--fail-on-error", type=click.FloatRange(0.0, 1.0),
              help="Exit 1 when the share of failed requests is above this rate.")
@model_options
def run(requests_file: Path, out: Path, limit: int | None, repeats: int, max_connections: int,
        fail_on_error: float | None, settings: ModelSettings) -> None:
    """Send every request of REQUESTS_FILE (JSONL: {"id", "prompt", "images": [paths]}).

    Answers are appended to OUT/responses.jsonl as they arrive, each with the
    images sent (path, size, sha256); a failed request is recorded with status
    "error" and its reason. Re-running the same command resumes: only requests
    not yet answered are sent.
    """
    from diagbench.models.request import TextPart
    from diagbench.models.requests_file import RequestFileError, read_requests
    from diagbench.models.run_dir import digest, summarize, write_manifest

    if repeats > 1 and settings.config.temperature == 0:
        raise click.UsageError("--repeats needs --temperature above 0 (at 0 every repeat "
                               "is the same request)")
    try:
        ids, requests = read_requests(requests_file, settings, limit, repeats)
    except RequestFileError as exc:
        click.echo(f"diagbench: error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    spec = settings.spec
    fields = {"provider": spec.provider, "model": spec.model, **spec.served(),
              "parameters": settings.parameters() | {"repeats": repeats},
              "prompt_template_hash": digest("\n".join(sorted(
                  {p.text for r in requests for p in r.messages[0].parts[-1:]
                   if isinstance(p, TextPart)}))),
              "dataset_hash": digest(requests_file.read_text(encoding="utf-8")),
              "requests_file": str(requests_file)}
    write_manifest(out, fields)
    errors = tokens = done = 0
    start = time.monotonic()

    def shown(_):
        rate = done / max(time.monotonic() - start, 1e-9)
        return f"{rate:.1f}/s, errors {errors}, tokens {tokens:,}"

    with progress_bar(len(requests), "asking") as bar:
        bar.item_show_func = shown

        def tick(response) -> None:
            nonlocal errors, tokens, done
            done += 1
            errors += response.status == "error"
            tokens += response.usage.input_tokens + response.usage.output_tokens
            bar.update(1, response)

        records = settings.run(requests, out / "responses.jsonl", max_connections, tick,
                               ids)
    summary = summarize(records, settings.name, settings.price_table(), settings.batch)
    write_manifest(out, fields | {"ids": len(ids), "summary": summary,
                                  "prices": settings.price_table().describe()})
    used, cost = summary["tokens"], summary["estimated_cost_usd"]
    click.echo(f"{summary['ok']} answered, {summary['errors']} errors "
               f"({summary['cached']} from the cache); tokens in {used['input_tokens']:,}, "
               f"out {used['output_tokens']:,}"
               + (f"; estimated cost ${cost}" if cost is not None else "")
               + (f"; {summary['truncated']} cut by the token limit ({100 * share:.1f} %)"
                  if (share := summary["truncated_share"]) else "") + f" -> {out}")
    failing = fail_on_error is not None and summary["error_rate"] > fail_on_error
    sys.exit(EXIT_DIAGNOSTICS if failing else EXIT_OK)
