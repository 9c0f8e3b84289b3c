"""Anthropic's Message Batches through the official SDK (`anthropic:` models with
`--batch`): every request as ``{"custom_id", "params"}`` (the params as the online call
sends them), the batch's ``processing_status`` until "ended", then its results
(``{"custom_id", "result": {"type": "succeeded", "message"} | {"type": "errored",
"error"} | {"type": "canceled"} | {"type": "expired"}}`` a line; a message is read as
the online answer is)."""

from __future__ import annotations

from typing import Any

import anthropic

from diagbench.models.anthropic_messages import message_params, read_message
from diagbench.models.batch import BatchStatus
from diagbench.models.request import Request
from diagbench.models.response import Response


def read_result(result: Any) -> Response:
    """One result as a `Response`: the message, or why there is none."""
    if result.type == "succeeded":
        return read_message(result.message, 0.0)
    if result.type == "errored":
        error = getattr(result.error, "error", None)
        return Response.failed(f"batch line failed: {getattr(error, 'type', 'error')}: "
                               f"{getattr(error, 'message', '')}", 1, 0.0)
    return Response.failed(f"batch line {result.type}: no answer (submitted again on the "
                           "next run)", 1, 0.0)


class AnthropicBatch:
    """`BatchApi` for Anthropic's Message Batches."""

    max_requests = 100_000  # Message Batches' limit per batch

    def __init__(self, api_key: str, base_url: str | None = None, timeout: float = 120.0) -> None:
        self.client = anthropic.AsyncAnthropic(api_key=api_key, base_url=base_url,
                                               max_retries=2, timeout=timeout)

    async def close(self) -> None:
        await self.client.close()

    async def submit(self, items: list[tuple[str, Request]]) -> str:
        requests: Any = [{"custom_id": custom_id, "params": message_params(request)}
                         for custom_id, request in items]
        batch = await self.client.messages.batches.create(requests=requests)
        return batch.id

    async def status(self, batch: str) -> BatchStatus:
        found = await self.client.messages.batches.retrieve(batch)
        return BatchStatus(found.processing_status, found.processing_status == "ended")

    async def results(self, batch: str) -> dict[str, Response]:
        lines = await self.client.messages.batches.results(batch)
        return {line.custom_id: read_result(line.result) async for line in lines}
