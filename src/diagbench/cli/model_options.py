"""The options every model-calling command shares, bundled into `ModelSettings`: the
model's name is parsed once (with its `--endpoint`s), its key read once, both carried
whole to the runner."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from diagbench.console import EXIT_BAD_INPUT

if TYPE_CHECKING:
    from diagbench.models.settings import ModelSettings

BUDGET_PROVIDERS = ("anthropic", "gemini")  # their reasoning option is a token budget
THINKING_LEVELS = ("minimal", "low", "medium", "high")  # gemini's other option (Gemini 3)


def _settings(model_name: str, temperature: float, top_p: float | None, max_tokens: int,
              seed: int | None, reasoning: str | None, timeout: float, retries: int,
              no_cache: bool, cache_path: Path | None, max_image_side: int | None,
              max_image_bytes: int | None, endpoints: tuple[str, ...], batch: bool = False,
              batch_poll: float = 30.0, prices: Path | None = None,
              max_cost: float | None = None) -> ModelSettings:
    from diagbench.benchmarks.registry import registered
    from diagbench.models.cache import ResponseCache
    from diagbench.models.image_policy import ImagePolicy
    from diagbench.models.prices import PriceTableError, load_prices
    from diagbench.models.providers import (
        PROVIDERS,
        ModelSpec,
        ModelSpecError,
        check_batch,
        provider_key,
    )
    from diagbench.models.request import GenerationConfig
    from diagbench.models.retry import RetryPolicy
    from diagbench.models.settings import ModelSettings

    registered()  # the benchmarks register their offline reference models (baseline:NAME)
    spec = ModelSpec.parse(model_name, endpoints)
    if reasoning and spec.provider in BUDGET_PROVIDERS and not reasoning.isdigit() and \
            not (spec.provider == "gemini" and reasoning in THINKING_LEVELS):
        raise ModelSpecError(f"--reasoning for {spec.provider} is a token budget" + (
            f" or a thinking level ({'|'.join(THINKING_LEVELS)})"
            if spec.provider == "gemini" else "") + f", not {reasoning!r}")
    key = provider_key(spec)  # a missing key is reported before any work
    if batch:
        check_batch(spec)
    try:
        table = load_prices(prices)
    except PriceTableError as exc:
        raise ModelSpecError(f"--prices: {exc}") from None
    if max_cost is not None and spec.name not in table.prices:
        raise ModelSpecError(f"--max-cost needs the price of {spec.name} (none in "
                             f"{prices or 'the bundled price table'}; give one with --prices)")
    if max_cost is not None and batch:
        raise ModelSpecError("--max-cost caps online calls; a batch's cost is known only "
                             "when it ends (leave out --batch or --max-cost)")
    return ModelSettings(
        spec, GenerationConfig(temperature=temperature, max_tokens=max_tokens, seed=seed,
                               reasoning=reasoning, top_p=top_p),
        timeout, RetryPolicy(retries=retries), ImagePolicy(max_image_side, max_image_bytes),
        None if no_cache or not PROVIDERS[spec.provider].cached else ResponseCache(cache_path),
        key, batch, batch_poll, table, max_cost)


MODEL_HELP = ("PROVIDER:MODEL[@BASE_URL], e.g. openai:gpt-4o, baseline:ocr (offline) or "
              "vllm:Qwen/Qwen2.5-VL-7B-Instruct@http://127.0.0.1:8000/v1")
OPTIONS = (
    click.option("--max-tokens", type=click.IntRange(1), default=2048, show_default=True),
    click.option("--seed", type=int, help="Sampling seed, where the provider takes one."),
    click.option("--reasoning", help="Reasoning effort (openai: low|medium|high), "
                                     "thinking budget in tokens (anthropic, gemini) or "
                                     "thinking level (gemini 3: minimal|low|medium|high)."),
    click.option("--timeout", type=click.FloatRange(1.0), default=120.0, show_default=True,
                 help="Seconds per attempt."),
    click.option("--retries", type=click.IntRange(0, 20), default=4, show_default=True,
                 help="Retries of 429, 5xx, time-outs and dropped connections."),
    click.option("--no-cache", is_flag=True, help="Neither read nor write the response cache."),
    click.option("--cache", "cache_path", type=click.Path(dir_okay=False, path_type=Path),
                 help="Cache file (default: $DIAGBENCH_CACHE or "
                      "~/.cache/diagbench/responses.sqlite)."),
    click.option("--max-image-bytes", type=click.IntRange(1024),
                 help="Shrink images until their PNG is at most this many bytes."),
    click.option("--batch", is_flag=True,
                 help="Send the requests through the provider's batch API (openai, "
                      "anthropic, gemini), at its batch price; the run waits for the batch, "
                      "and a re-run picks up the batch it recorded instead of submitting it "
                      "again."),
    click.option("--batch-poll", type=click.FloatRange(0.0), default=30.0,
                 show_default=True, help="Seconds between two looks at a batch."),
    click.option("--prices", type=click.Path(dir_okay=False, path_type=Path),
                 help="Price table (JSON, as the bundled prices.json) for the run's cost."),
    click.option("--max-cost", type=click.FloatRange(0.0), metavar="USD",
                 help="Stop sending requests once the run has cost this much (by the price "
                      "table); the rest are recorded as not sent, and a re-run with a "
                      "higher cap resumes."),
    click.option("--endpoint", "endpoints", multiple=True, metavar="URL",
                 help="Another server of the --model (repeatable): requests are spread over "
                      "all, --max-connections on each; one that keeps failing rests."),
)


def _sampling(temperature: float, top_p: float | None, why: str | None
              ) -> tuple[Callable, Callable]:
    """--temperature and --top-p with their defaults (`why`: where the defaults come
    from, said in the help)."""
    because = f" Default: {why}." if why else ""
    return (click.option("--temperature", type=click.FloatRange(0.0, 2.0),
                         default=temperature, show_default=True,
                         help=f"Sampling temperature.{because}"),
            click.option("--top-p", type=click.FloatRange(0.0, 1.0, min_open=True),
                         default=top_p, show_default=top_p is not None,
                         help="Nucleus sampling, sent where the provider takes it (openai "
                              "and compatible servers, anthropic, gemini) and then part of "
                              f"the cache key; none: not sent.{because}"))


def _image_side(default: int | None) -> Callable:
    return click.option("--max-image-side", type=click.IntRange(16), default=default,
                        show_default=default is not None,
                        help="Shrink images whose longer side is above this many pixels.")


def model_options(command: Callable | None = None, *, multiple: bool = False,
                  max_image_side: int | None = None, temperature: float = 0.0,
                  top_p: float | None = None, defaults_from: str | None = None
                  ) -> Callable:
    """Add the shared options to `command`, which receives them as `settings` — a list
    of `ModelSettings`, one per `--model`, when `multiple`. `max_image_side` is the
    default of `--max-image-side` (None: images are sent as they are), `temperature` and
    `top_p` those of `--temperature` and `--top-p` (None: not sent), `defaults_from`
    where these defaults come from (said in their help).

    An unknown provider, a missing key or an unusable option exits with code 3.
    """
    def decorate(command: Callable) -> Callable:
        @functools.wraps(command)
        def wrapper(*args, model_name, temperature, top_p, max_tokens, seed, reasoning, timeout,
                    retries, no_cache, cache_path, max_image_side, max_image_bytes, endpoints,
                    batch, batch_poll, prices, max_cost, **kwargs):
            from diagbench.models.providers import ModelSpecError

            names = tuple(dict.fromkeys(model_name if multiple else (model_name,)))
            try:
                if endpoints and len(names) > 1:
                    raise ModelSpecError("--endpoint serves one --model, not several")
                settings = [_settings(name, temperature, top_p, max_tokens, seed, reasoning,
                                      timeout, retries, no_cache, cache_path, max_image_side,
                                      max_image_bytes, endpoints, batch, batch_poll,
                                      prices, max_cost)
                            for name in names]
            except ModelSpecError as exc:
                click.echo(f"diagbench: error: {exc}", err=True)
                sys.exit(EXIT_BAD_INPUT)
            return command(*args, settings=settings if multiple else settings[0], **kwargs)

        for option in reversed((*_sampling(temperature, top_p, defaults_from), *OPTIONS,
                                _image_side(max_image_side))):
            wrapper = option(wrapper)
        help_text = MODEL_HELP + ("; repeat for several models" if multiple else "")
        return click.option("--model", "model_name", required=True, multiple=multiple,
                            help=help_text)(wrapper)

    return decorate(command) if command is not None else decorate
