"""One model as a benchmark uses it: which model, how it generates, how it is called,
and what images it is sent."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from diagbench.models.cache import ResponseCache
from diagbench.models.endpoints import EndpointPool
from diagbench.models.image_policy import ImagePolicy
from diagbench.models.protocol import Model
from diagbench.models.providers import ModelSpec, make_adapter
from diagbench.models.request import GenerationConfig, ImagePart, Request
from diagbench.models.response import Response
from diagbench.models.retry import RetryPolicy
from diagbench.models.runner import ResponseRecord, run_requests

#: Configuration fields a manifest lists only when they are set: manifests written before
#: they were recorded carry none, and they stay byte-identical while unset.
LISTED_WHEN_SET = frozenset({"stop"})


@dataclass(frozen=True)
class ModelSettings:
    """Which model, how it generates, how it is called, and what images it is sent;
    `endpoints` are more servers of the same model beside `spec.base_url`."""

    spec: ModelSpec
    config: GenerationConfig
    timeout: float
    retry: RetryPolicy
    images: ImagePolicy
    cache: ResponseCache | None
    endpoints: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return f"{self.spec.provider}:{self.spec.model}"

    def image(self, path: Path) -> ImagePart:
        """The image at `path` as it will be sent (shrunk when the policy asks)."""
        return self.images.apply(ImagePart.from_file(path))

    def parameters(self) -> dict:
        """Generation parameters and image policy, as the manifest records them: every
        field of the configuration, those of `LISTED_WHEN_SET` only when set."""
        config = {k: v for k, v in self.config.as_dict().items() if v or k not in LISTED_WHEN_SET}
        return config | {"image_policy": self.images.as_dict()}

    def served(self) -> dict:
        """Where the model is served, as a manifest records it: `base_url`, and every
        endpoint when there are several."""
        urls = self.urls()
        return {"base_url": self.spec.base_url} | ({"endpoints": urls} if len(urls) > 1 else {})

    def describe(self) -> dict:
        """The model as a run's manifest lists it."""
        spec = self.spec
        return {"name": self.name, "provider": spec.provider, "model": spec.model,
                **self.served(), "parameters": self.parameters()}

    def urls(self) -> list[str]:
        """Every endpoint: the model's base URL, then the others."""
        return list(dict.fromkeys((self.spec.base_url or "", *self.endpoints)))

    def adapter(self, max_connections: int) -> Model:
        """The model's adapter; over several endpoints, a pool of one adapter each with
        at most `max_connections` in flight on each."""
        urls = self.urls()
        if len(urls) == 1:
            return make_adapter(self.spec, self.timeout)
        return EndpointPool({url: make_adapter(replace(self.spec, base_url=url), self.timeout)
                             for url in urls}, max_connections)

    def run(self, requests: list[Request], out: Path | None = None,
            max_connections: int = 8,
            progress: Callable[[Response], None] = lambda r: None,
            ids: list[str] | None = None) -> list[ResponseRecord]:
        """Answer `requests` through the runner (cache, retries, resumable `out`), with at
        most `max_connections` in flight on each endpoint."""
        async def go() -> list[ResponseRecord]:
            adapter = self.adapter(max_connections)
            try:
                return await run_requests(adapter, requests, out, self.cache,
                                          max_connections * len(self.urls()), self.retry,
                                          progress, ids)
            finally:
                await adapter.close()
        return asyncio.run(go())
