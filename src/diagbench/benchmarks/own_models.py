"""The models a benchmark calls itself (a generator, a judge), named by the user: parsed
once, their key read once. The offline reference models (`baseline:NAME`) known are the
benchmark's own, registered with its class (`@benchmark`), and every benchmark's once the
registry has listed them (`registry.registered()`, as every command does before it runs
a benchmark): a benchmark never imports the registry that imports it."""

from __future__ import annotations

from diagbench.models.cache import ResponseCache
from diagbench.models.image_policy import ImagePolicy
from diagbench.models.providers import PROVIDERS, ModelSpec, provider_key
from diagbench.models.request import GenerationConfig
from diagbench.models.retry import RetryPolicy
from diagbench.models.settings import ModelSettings


def resolve_model(name: str) -> tuple[ModelSpec, str]:
    """The model named PROVIDER:MODEL[@URL] and its key (ModelSpecError when the name or
    key is unusable)."""
    spec = ModelSpec.parse(name)
    return spec, provider_key(spec)


def model_settings(name: str, config: GenerationConfig) -> ModelSettings:
    """The settings of a model a benchmark calls itself (a generator, a judge): its name
    parsed once and its key read once (`resolve_model`), the response cache when its
    provider is cached, images sent as they are."""
    spec, key = resolve_model(name)
    return ModelSettings(spec, config, 120.0, RetryPolicy(), ImagePolicy(None, None),
                         ResponseCache(None) if PROVIDERS[spec.provider].cached else None, key)
