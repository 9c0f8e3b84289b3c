"""One model served by several endpoints (replicas of a vLLM server, say): requests
spread over them, each endpoint with its own connection limit, and an endpoint whose
server keeps failing taken out for a cool-down while the others answer."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass

from diagbench.models.protocol import Model
from diagbench.models.request import Request
from diagbench.models.response import Response
from diagbench.models.retry import CallError

#: Server failures in a row (5xx, refused or dropped connections, time-outs) after which
#: an endpoint rests, and for how many seconds. After its rest one more failure sends it
#: back; one answer makes it whole.
FAILURES_TO_REST = 3
REST_SECONDS = 30.0


@dataclass(slots=True)
class Endpoint:
    """One server and what the pool knows of it."""

    url: str
    adapter: Model
    gate: asyncio.Semaphore
    waiting: int = 0  # requests holding or awaiting a connection
    failures: int = 0  # server failures since its last answer
    rests_until: float = 0.0


class EndpointPool:
    """A `Model` over adapters of one model, one per endpoint URL.

    Each call goes to the resting-free endpoint with the fewest requests waiting
    (at most `max_connections` in flight on each). A server failure is tried at
    once on another endpoint that this call has not tried; a failure of the
    request itself (4xx) or a 429 goes back to the caller's retry policy. When
    every endpoint has failed this call or is resting, the last failure is
    raised (retryable), so a run whose endpoints are all down ends in recorded
    errors once its retries run out.
    """

    def __init__(self, adapters: dict[str, Model], max_connections: int,
                 failures_to_rest: int = FAILURES_TO_REST, rest_seconds: float = REST_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.endpoints = [Endpoint(url, adapter, asyncio.Semaphore(max_connections))
                          for url, adapter in adapters.items()]
        self.failures_to_rest, self.rest_seconds, self.clock = (failures_to_rest, rest_seconds,
                                                                clock)

    async def close(self) -> None:
        for endpoint in self.endpoints:
            await endpoint.adapter.close()

    def _pick(self, tried: set[str]) -> Endpoint | None:
        now = self.clock()
        free = [e for e in self.endpoints if e.url not in tried and e.rests_until <= now]
        return min(free, key=lambda e: e.waiting) if free else None

    async def call(self, request: Request) -> Response:
        tried: set[str] = set()
        last: CallError | None = None
        while (endpoint := self._pick(tried)) is not None:
            tried.add(endpoint.url)
            endpoint.waiting += 1
            try:
                async with endpoint.gate:
                    response = await endpoint.adapter.call(request)
            except CallError as exc:
                if not exc.endpoint_fault:
                    raise
                endpoint.failures += 1
                if endpoint.failures >= self.failures_to_rest:
                    endpoint.rests_until = self.clock() + self.rest_seconds
                last = exc
                continue
            finally:
                endpoint.waiting -= 1
            endpoint.failures = 0
            return response
        if last is not None:
            raise CallError(f"{last.reason} (on every endpoint tried)"[:500], True,
                            last.retry_after, last.status, last.unreachable)
        raise CallError(f"every endpoint ({len(self.endpoints)}) is resting after repeated "
                        "failures", True)
