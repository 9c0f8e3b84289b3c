"""One model as a benchmark uses it: which model, how it generates, how it is called,
and what images it is sent."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from diagbench.models.batch import POLL_SECONDS, run_batch
from diagbench.models.budget import Budget, Budgeted
from diagbench.models.cache import ResponseCache
from diagbench.models.endpoints import EndpointPool
from diagbench.models.image_policy import ImagePolicy
from diagbench.models.prices import PriceTable, load_prices
from diagbench.models.protocol import Model
from diagbench.models.providers import ModelSpec, make_adapter, make_batch, provider_key
from diagbench.models.request import GenerationConfig, ImagePart, Request, user_request
from diagbench.models.response import Response, Usage
from diagbench.models.retry import RetryPolicy
from diagbench.models.runner import ResponseRecord, read_records, run_requests

#: Configuration fields a manifest lists only when they are set: manifests written before
#: they were recorded carry none, and they stay byte-identical while unset.
LISTED_WHEN_SET = frozenset({"stop", "top_p"})


@dataclass(frozen=True)
class ModelSettings:
    """Which model (`spec`, with its servers), how it generates, how it is called, and
    what images it is sent; `key` is the provider's key, read once when the model was
    taken (None: read from the environment when the adapter is made). The manifest
    record of a model is `to_json`, read back by `from_json`; it never holds the key."""

    spec: ModelSpec
    config: GenerationConfig
    timeout: float
    retry: RetryPolicy
    images: ImagePolicy
    cache: ResponseCache | None
    key: str | None = field(default=None, repr=False, compare=False)
    #: Send through the provider's batch API (`diagbench.models.batch`), looking at a
    #: batch every `batch_poll` seconds until it ends.
    batch: bool = False
    batch_poll: float = field(default=POLL_SECONDS, compare=False)
    #: The price table (None: the bundled one) and the run's cap in USD (`--max-cost`).
    prices: PriceTable | None = field(default=None, compare=False)
    max_cost: float | None = None

    def price_table(self) -> PriceTable:
        return self.prices or load_prices()

    def cost(self, usage: Usage) -> float | None:
        """USD of one answer's usage (at the batch price with `batch`)."""
        return self.price_table().cost(self.name, usage, self.batch)

    @property
    def name(self) -> str:
        return self.spec.name

    def image(self, path: Path) -> ImagePart:
        """The image at `path` as it will be sent (shrunk when the policy asks)."""
        return self.images.apply(ImagePart.from_file(path))

    def request(self, prompt: str, images: tuple[ImagePart, ...] = (), repeat: int = 0,
                system: str | None = None) -> Request:
        """A one-turn request to this model: the images, then the prompt."""
        spec = self.spec
        return user_request(spec.provider, spec.model, prompt, images, self.config,
                            spec.base_url, repeat, system)

    def parameters(self) -> dict:
        """Generation parameters and image policy, as the manifest records them: every
        field of the configuration, those of `LISTED_WHEN_SET` only when set; `batch`
        when the requests go through the provider's batch API."""
        config = {k: v for k, v in self.config.as_dict().items()
                  if k not in LISTED_WHEN_SET or v not in (None, [])}
        return config | {"image_policy": self.images.as_dict()} | (
            {"batch": True} if self.batch else {})

    def to_json(self) -> dict:
        """The model as a run's manifest lists it."""
        return self.spec.to_json() | {"parameters": self.parameters()}

    @classmethod
    def from_json(cls, data: dict) -> ModelSettings:
        """The settings of a model as a run's manifest lists it (`to_json`), enough to
        rebuild its requests; no key, no cache: it calls nothing."""
        parameters = dict(data["parameters"])
        policy = ImagePolicy(**parameters.pop("image_policy"))
        known = {f.name for f in fields(GenerationConfig)}
        values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v  # as JSON held
                                  for k, v in parameters.items() if k in known}
        return cls(ModelSpec.from_json(data), GenerationConfig(**values), 0.0, RetryPolicy(),
                   policy, None, batch=bool(parameters.get("batch")))

    def adapter(self, max_connections: int) -> Model:
        """The model's adapter; over several endpoints, a pool of one adapter each with
        at most `max_connections` in flight on each."""
        key = provider_key(self.spec) if self.key is None else self.key
        urls = self.spec.urls()
        if len(urls) == 1:
            return make_adapter(self.spec, key, self.timeout)
        return EndpointPool({url: make_adapter(replace(self.spec, base_url=url, endpoints=()),
                                               key, self.timeout)
                             for url in urls}, max_connections)

    def run(self, requests: list[Request], out: Path | None = None,
            max_connections: int = 8,
            progress: Callable[[Response], None] = lambda r: None,
            ids: list[str] | None = None) -> list[ResponseRecord]:
        """Answer `requests` through the runner (cache, retries, resumable `out`), with at
        most `max_connections` in flight on each endpoint."""
        if self.batch:
            return asyncio.run(self._run_batch(requests, out, progress, ids))

        async def go() -> list[ResponseRecord]:
            adapter = self.adapter(max_connections)
            if self.max_cost is not None:
                earlier = [r for r in read_records(out) if not r.cached] if out else []
                adapter = Budgeted(adapter, Budget(self.max_cost, sum(
                    self.cost(r.response.usage) or 0.0 for r in earlier
                    if r.response.status == "ok")), lambda usage: self.cost(usage) or 0.0)
            try:
                return await run_requests(adapter, requests, out, self.cache,
                                          max_connections * len(self.spec.urls()), self.retry,
                                          progress, ids)
            finally:
                await adapter.close()
        return asyncio.run(go())

    async def _run_batch(self, requests: list[Request], out: Path | None,
                         progress: Callable[[Response], None],
                         ids: list[str] | None) -> list[ResponseRecord]:
        """`run` through the provider's batch API (its state beside `out`)."""
        if out is None:
            raise ValueError("a batch run needs a run directory to record its batches in")
        api = make_batch(self.spec, provider_key(self.spec) if self.key is None else self.key,
                         self.timeout)
        try:
            return await run_batch(api, requests, out, self.cache, progress, ids,
                                   self.batch_poll)
        finally:
            await api.close()
