"""`diagbench run`: send a JSONL file of prompts (with images) to a model, into a run directory."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import click

from diagbench.cli.common import EXIT_BAD_INPUT, EXIT_DIAGNOSTICS, EXIT_OK, progress_bar
from diagbench.models.cache import ResponseCache
from diagbench.models.providers import ModelSpec, ModelSpecError, make_adapter
from diagbench.models.request import GenerationConfig, ImagePart, Request, user_request
from diagbench.models.retry import RetryPolicy
from diagbench.models.run_dir import digest, summarize, write_manifest
from diagbench.models.runner import run_requests


class RequestFileError(ValueError):
    """A line of the requests file that cannot be sent; str() names file and line."""


def read_requests(path: Path, spec: ModelSpec, config: GenerationConfig,
                  limit: int | None) -> tuple[list[str], list[Request]]:
    """(ids, requests) of a JSONL file of {"id", "prompt", "images": [paths]}."""
    ids, requests = [], []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        if limit is not None and len(requests) >= limit:
            break
        try:
            item = json.loads(line)
            prompt, images = item["prompt"], item.get("images", [])
            parts = tuple(ImagePart.from_file(path.parent / image) for image in images)
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise RequestFileError(f"{path}:{number}: not a request object ({exc})") from None
        except OSError as exc:
            raise RequestFileError(f"{path}:{number}: image not readable: {exc}") from None
        ids.append(str(item.get("id", number)))
        requests.append(user_request(spec.provider, spec.model, prompt, parts, config,
                                     spec.base_url))
    return ids, requests


@click.command()
@click.argument("requests_file", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.option("--model", "model_name", required=True, help="PROVIDER:MODEL[@BASE_URL]")
@click.option("--out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Run directory (manifest.json, responses.jsonl); re-run to resume.")
@click.option("--limit", type=click.IntRange(1), help="Only the first N requests.")
@click.option("--max-connections", type=click.IntRange(1, 512), default=8, show_default=True)
@click.option("--timeout", type=click.FloatRange(1.0), default=120.0, show_default=True,
              help="Seconds per attempt.")
@click.option("--retries", type=click.IntRange(0, 20), default=4, show_default=True)
@click.option("--temperature", type=click.FloatRange(0.0, 2.0), default=0.0, show_default=True)
@click.option("--max-tokens", type=click.IntRange(1), default=2048, show_default=True)
@click.option("--no-cache", is_flag=True, help="Neither read nor write the response cache.")
@click.option("--fail-on-error", type=click.FloatRange(0.0, 1.0),
              help="Exit 1 when the share of failed requests is above this rate.")
def run(requests_file: Path, model_name: str, out: Path, limit: int | None,
        max_connections: int, timeout: float, retries: int, temperature: float,
        max_tokens: int, no_cache: bool, fail_on_error: float | None) -> None:
    """Send every request of REQUESTS_FILE (JSONL: {"id", "prompt", "images": [paths]}).

    Answers are appended to OUT/responses.jsonl as they arrive; a failed
    request is recorded with status "error" and its reason. Re-running the
    same command resumes: only requests not yet answered are sent.
    """
    try:
        spec = ModelSpec.parse(model_name)
        config = GenerationConfig(temperature=temperature, max_tokens=max_tokens)
        ids, requests = read_requests(requests_file, spec, config, limit)
        adapter = make_adapter(spec, timeout)
    except (ModelSpecError, RequestFileError) as exc:
        click.echo(f"diagbench: error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    fields = {"provider": spec.provider, "model": spec.model, "base_url": spec.base_url,
              "parameters": {"temperature": temperature, "max_tokens": max_tokens},
              "prompt_template_hash": digest("\n".join(sorted(
                  {r.messages[0].parts[-1].text for r in requests}))),
              "dataset_hash": digest(requests_file.read_text(encoding="utf-8")),
              "requests_file": str(requests_file)}
    write_manifest(out, fields)
    cache = None if no_cache else ResponseCache()
    errors = tokens = 0

    def shown(_):
        return f"errors {errors}, tokens {tokens:,}"

    with progress_bar(len(requests), "asking") as bar:
        bar.item_show_func = shown

        def tick(response) -> None:
            nonlocal errors, tokens
            errors += response.status == "error"
            tokens += response.usage.input_tokens + response.usage.output_tokens
            bar.update(1, response)

        async def go() -> list[dict]:
            try:
                return await run_requests(adapter, requests, out / "responses.jsonl", cache,
                                          max_connections, RetryPolicy(retries=retries), tick)
            finally:
                await adapter.close()

        records = asyncio.run(go())
    summary = summarize(records, f"{spec.provider}:{spec.model}")
    write_manifest(out, fields | {"ids": len(ids), "summary": summary})
    used, cost = summary["tokens"], summary["estimated_cost_usd"]
    click.echo(f"{summary['ok']} answered, {summary['errors']} errors "
               f"({summary['cached']} from the cache); tokens in {used['input_tokens']:,}, "
               f"out {used['output_tokens']:,}"
               + (f"; estimated cost ${cost}" if cost is not None else "") + f" -> {out}")
    failing = fail_on_error is not None and summary["error_rate"] > fail_on_error
    sys.exit(EXIT_DIAGNOSTICS if failing else EXIT_OK)
