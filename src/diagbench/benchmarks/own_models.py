"""The models a benchmark calls itself (a generator, a judge), named by the user: parsed
once, their key read once, with the benchmarks' offline reference models registered
first (`baseline:NAME`)."""

from __future__ import annotations

from diagbench.benchmarks.registry import registered
from diagbench.models.cache import ResponseCache
from diagbench.models.image_policy import ImagePolicy
from diagbench.models.providers import PROVIDERS, ModelSpec, provider_key
from diagbench.models.request import GenerationConfig
from diagbench.models.retry import RetryPolicy
from diagbench.models.settings import ModelSettings


def resolve_model(name: str) -> tuple[ModelSpec, str]:
    """The model named PROVIDER:MODEL[@URL] and its key, the benchmarks' baselines known
    (ModelSpecError when the name or key is unusable)."""
    registered()  # the benchmarks register their offline reference models (baseline:NAME)
    spec = ModelSpec.parse(name)
    return spec, provider_key(spec)


def model_settings(name: str, config: GenerationConfig) -> ModelSettings:
    """The settings of a model a benchmark calls itself (a generator, a judge): its name
    parsed once and its key read once (`resolve_model`), the response cache when its
    provider is cached, images sent as they are."""
    spec, key = resolve_model(name)
    return ModelSettings(spec, config, 120.0, RetryPolicy(), ImagePolicy(None, None),
                         ResponseCache(None) if PROVIDERS[spec.provider].cached else None, key)
