"""The one protocol every model adapter speaks (API providers and offline baselines)."""

from __future__ import annotations

from typing import Protocol

from diagbench.models.request import Request
from diagbench.models.response import Response


class Model(Protocol):
    """One attempt per `call`; retries, caching and concurrency belong to the runner.

    `call` returns the answer with finish reason, usage, latency and the model
    id served, or raises `CallError` saying whether a retry can help.
    """

    async def call(self, request: Request) -> Response: ...

    async def close(self) -> None: ...


class AdapterFactory(Protocol):
    """How a provider's adapter is made: its class, called with the key and server."""

    def __call__(self, api_key: str, base_url: str | None = None,
                 timeout: float = 120.0) -> Model: ...
