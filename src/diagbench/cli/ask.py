"""`diagbench ask`: one model call, with images, through the cache."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import click

from diagbench.cli.common import EXIT_BAD_INPUT, EXIT_DIAGNOSTICS, EXIT_OK
from diagbench.models.cache import ResponseCache
from diagbench.models.providers import ModelSpec, ModelSpecError, make_adapter
from diagbench.models.request import GenerationConfig, ImagePart, user_request
from diagbench.models.retry import RetryPolicy
from diagbench.models.runner import run_requests


@click.command()
@click.argument("prompt")
@click.option("--model", "model_name", required=True,
              help="PROVIDER:MODEL[@BASE_URL], e.g. openai:gpt-4o or "
                   "vllm:Qwen/Qwen2.5-VL-7B-Instruct@http://127.0.0.1:8000/v1")
@click.option("--image", "images", multiple=True, type=click.Path(dir_okay=False, exists=True,
                                                                  path_type=Path),
              help="Image sent before the prompt, as it is (repeatable).")
@click.option("--temperature", type=click.FloatRange(0.0, 2.0), default=0.0, show_default=True)
@click.option("--max-tokens", type=click.IntRange(1), default=2048, show_default=True)
@click.option("--timeout", type=click.FloatRange(1.0), default=120.0, show_default=True,
              help="Seconds per attempt.")
@click.option("--retries", type=click.IntRange(0, 20), default=4, show_default=True)
@click.option("--no-cache", is_flag=True, help="Neither read nor write the response cache.")
@click.option("--cache", "cache_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Cache file (default: $DIAGBENCH_CACHE or ~/.cache/diagbench/responses.sqlite).")
@click.option("--json", "as_json", is_flag=True, help="Print the whole response record as JSON.")
def ask(prompt: str, model_name: str, images: tuple[Path, ...], temperature: float,
        max_tokens: int, timeout: float, retries: int, no_cache: bool, cache_path: Path | None,
        as_json: bool) -> None:
    """Send PROMPT (after any --image) to one model and print its answer.

    Exit 0 with the answer; 1 when the call failed (the reason on stderr); 3 when
    the model name or its key is unusable.
    """
    try:
        spec = ModelSpec.parse(model_name)
        adapter = make_adapter(spec, timeout)
    except ModelSpecError as exc:
        click.echo(f"diagbench: error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    request = user_request(spec.provider, spec.model, prompt,
                           tuple(ImagePart.from_file(p) for p in images),
                           GenerationConfig(temperature=temperature, max_tokens=max_tokens),
                           spec.base_url)
    cache = None if no_cache else ResponseCache(cache_path)

    async def go() -> dict:
        try:
            [record] = await run_requests(adapter, [request], cache=cache,
                                          policy=RetryPolicy(retries=retries))
            return record
        finally:
            await adapter.close()

    record = asyncio.run(go())
    if as_json:
        click.echo(json.dumps(record, indent=1, ensure_ascii=False))
    elif record["status"] == "ok":
        click.echo(record["text"])
    if record["status"] != "ok":
        click.echo(f"diagbench: error: {spec.provider}:{spec.model}: {record['error']}", err=True)
        sys.exit(EXIT_DIAGNOSTICS)
    sys.exit(EXIT_OK)
