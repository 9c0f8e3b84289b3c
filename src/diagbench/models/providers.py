"""Model names like `openai:gpt-4o` or `vllm:Qwen/Qwen2.5-VL-7B-Instruct@http://host:8000/v1`,
the provider each names, and where its key comes from (environment or `.env`)."""

from __future__ import annotations

import os
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from diagbench.models.offline import BASELINES
from diagbench.models.protocol import AdapterFactory, Model
from diagbench.references import load

if TYPE_CHECKING:
    from diagbench.models.batch import BatchApi


class ModelSpecError(ValueError):
    """A model name that names no known provider, or lacks what that provider needs."""


@dataclass(frozen=True, slots=True)
class Provider:
    """A provider: its adapter (`"module:Class"` speaking `Model`, imported when first
    used, so that no SDK is loaded at start-up), where its key comes from, its server."""

    adapter: str
    key_env: str | None  # None: a local server that takes any key
    default_base_url: str | None = None
    needs_base_url: bool = False
    #: The models it offers (None: any name the server knows), checked by `provider_key`.
    models: Collection[str] | None = None
    cached: bool = True
    #: Its batch API (`"module:Class"` speaking `models.batch.BatchApi`; None: none).
    batch: str | None = None


_OPENAI = "diagbench.models.openai_compat:OpenAICompatible"
PROVIDERS: dict[str, Provider] = {
    "openai": Provider(_OPENAI, "OPENAI_API_KEY",
                       batch="diagbench.models.openai_batch:OpenAIBatch"),
    "anthropic": Provider("diagbench.models.anthropic_messages:AnthropicMessages",
                          "ANTHROPIC_API_KEY",
                          batch="diagbench.models.anthropic_batch:AnthropicBatch"),
    "gemini": Provider("diagbench.models.gemini:GeminiGenerate", "GEMINI_API_KEY",
                       batch="diagbench.models.gemini_batch:GeminiBatch"),
    "vllm": Provider(_OPENAI, None, needs_base_url=True),
    "ollama": Provider(_OPENAI, None, "http://127.0.0.1:11434/v1"),
    "baseline": Provider("diagbench.models.offline:OfflineBaseline", None, models=BASELINES,
                         cached=False),
}


@dataclass(frozen=True, slots=True)
class ModelSpec:
    """Which model: its provider, its name there, and its servers (`base_url`, then
    further `endpoints` of the same model). Parsed once from `PROVIDER:MODEL[@BASE_URL]`
    and carried whole to the runner; `to_json`/`from_json` are its manifest fields."""

    provider: str
    model: str
    base_url: str | None
    endpoints: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str, endpoints: tuple[str, ...] = ()) -> ModelSpec:
        """The model `text` names, served also by `endpoints` (ModelSpecError when the
        provider is unknown or a server URL is missing or unusable). The model's name is
        checked by `provider_key`, against the provider's table as filled by then (the
        baselines: registered by the layers above), so parsing needs no import."""
        provider, sep, rest = text.partition(":")
        if not sep or provider not in PROVIDERS or not rest:
            raise ModelSpecError(f"{text!r}: expected PROVIDER:MODEL[@BASE_URL] with PROVIDER "
                                 f"one of {', '.join(PROVIDERS)}")
        model, at, base_url = rest.partition("@http")
        base = f"http{base_url}" if at else PROVIDERS[provider].default_base_url
        if PROVIDERS[provider].needs_base_url and not base:
            raise ModelSpecError(f"{text!r}: {provider} needs a server, as in "
                                 f"{provider}:{model}@http://127.0.0.1:8000/v1")
        if endpoints and not at:
            raise ModelSpecError(f"--endpoint serves a model named with its server, as in "
                                 f"{provider}:{model}@http://127.0.0.1:8000/v1")
        for url in (base, *endpoints) if base else endpoints:
            check_server_url(url)
        return cls(provider, model, base, tuple(endpoints))

    @property
    def name(self) -> str:
        """`provider:model`, as summaries, prices and progress bars name the model."""
        return f"{self.provider}:{self.model}"

    def urls(self) -> list[str]:
        """Every server: the base URL, then the other endpoints."""
        return list(dict.fromkeys((self.base_url or "", *self.endpoints)))

    def served(self) -> dict:
        """Where the model is served, as a manifest records it: `base_url`, and every
        endpoint when there are several."""
        urls = self.urls()
        return {"base_url": self.base_url} | ({"endpoints": urls} if len(urls) > 1 else {})

    def to_json(self) -> dict:
        """The model as a manifest names it: `name`, `provider`, `model`, `served()`."""
        return {"name": self.name, "provider": self.provider, "model": self.model,
                **self.served()}

    @classmethod
    def from_json(cls, data: dict) -> ModelSpec:
        base_url = data["base_url"]
        return cls(data["provider"], data["model"], base_url,
                   tuple(u for u in data.get("endpoints", ()) if u != base_url))


def check_server_url(url: str) -> None:
    """Refuse a server URL that is not http(s) or that carries a user or password (a key
    belongs in the environment: a URL is written into manifests)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ModelSpecError(f"{url!r}: expected an http:// or https:// URL")
    if parts.username is not None or parts.password is not None:
        raise ModelSpecError(f"{url!r}: no user or password in a server URL (the key comes "
                             "from the environment or .env)")


def load_env_file(path: Path = Path(".env")) -> None:
    """Set the `KEY=value` lines of `path` that the environment does not already set."""
    if not path.is_file():
        return
    for line in path.read_text(encoding="utf-8").splitlines():
        name, sep, value = line.strip().removeprefix("export ").partition("=")
        if sep and name and not name.startswith("#"):
            os.environ.setdefault(name.strip(), value.strip().strip("'\""))


def provider_key(spec: ModelSpec) -> str:
    """The key `spec`'s provider needs, from the environment (after `.env`); read once,
    when a command takes the model, and carried in its `ModelSettings`. ModelSpecError
    when it is missing, or when `spec` names a baseline that no one registered."""
    provider = PROVIDERS[spec.provider]
    if provider.models is not None and spec.model not in provider.models:
        raise ModelSpecError(f"{spec.name!r}: {spec.provider} models are "
                             f"{', '.join(provider.models)}")
    load_env_file()
    key = os.environ.get(provider.key_env) if provider.key_env else "not-needed"
    if not key:
        raise ModelSpecError(f"{spec.provider} needs {provider.key_env} in the environment "
                             "or in .env")
    return key


def make_adapter(spec: ModelSpec, key: str, timeout: float) -> Model:
    """The adapter for `spec` on its base URL, with `key`."""
    adapter: AdapterFactory = load(PROVIDERS[spec.provider].adapter)
    return adapter(key, spec.base_url, timeout=timeout)


def check_batch(spec: ModelSpec) -> None:
    """ModelSpecError when `spec`'s provider has no batch API diagbench speaks."""
    if PROVIDERS[spec.provider].batch is None:
        with_batch = ", ".join(name for name, p in PROVIDERS.items() if p.batch)
        raise ModelSpecError(f"--batch: {spec.provider} has no batch API diagbench speaks "
                             f"(these do: {with_batch})")


def make_batch(spec: ModelSpec, key: str, timeout: float) -> BatchApi:
    """The batch API of `spec`'s provider on its base URL, with `key`."""
    check_batch(spec)
    factory: Any = load(PROVIDERS[spec.provider].batch or "")
    return factory(key, spec.base_url, timeout=timeout)
