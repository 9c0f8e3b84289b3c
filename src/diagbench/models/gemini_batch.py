"""Gemini's batch mode through the official `google-genai` SDK (`gemini:` models with
`--batch`): the requests inlined (``models/MODEL:batchGenerateContent``, each request as
the online call builds it, with ``{"key": custom id}`` as its metadata), the job's state
(``batches/ID``) until it succeeds, fails, is cancelled or expires, then its inlined
responses (a response read as the online answer is, or an error)."""

from __future__ import annotations

from typing import Any

from google import genai
from google.genai import types

from diagbench.models.batch import BatchStatus
from diagbench.models.gemini import generate_parts, read_reply
from diagbench.models.request import Request
from diagbench.models.response import Response

#: The states in which a job has ended (the SDK's names).
ENDED = frozenset({"JOB_STATE_SUCCEEDED", "JOB_STATE_FAILED", "JOB_STATE_CANCELLED",
                   "JOB_STATE_EXPIRED", "JOB_STATE_PARTIALLY_SUCCEEDED"})


def read_inlined(item: types.InlinedResponse) -> Response:
    """One inlined response as a `Response`: the answer, or the error it reports."""
    if item.error is not None or item.response is None:
        error = item.error or types.JobError(message="no response")
        return Response.failed(f"batch line failed: {error.code}: {error.message}", 1, 0.0)
    return read_reply(item.response, 0.0)


class GeminiBatch:
    """`BatchApi` for Gemini's batch mode (one model a batch: the run's)."""

    #: Inlined requests travel in one request body, which Gemini caps at 20 MB: about a
    #: hundred diagram images.
    max_requests = 100

    def __init__(self, api_key: str, base_url: str | None = None, timeout: float = 120.0) -> None:
        options = types.HttpOptions(base_url=base_url, timeout=int(timeout * 1000))
        self.client = genai.Client(api_key=api_key, http_options=options)

    async def close(self) -> None:
        await self.client.aio.aclose()

    async def submit(self, items: list[tuple[str, Request]]) -> str:
        inlined = []
        for custom_id, request in items:
            contents, config = generate_parts(request)
            inlined.append(types.InlinedRequest(contents=contents, config=config,
                                                metadata={"key": custom_id}))
        job = await self.client.aio.batches.create(model=items[0][1].model, src=inlined)
        return str(job.name)

    async def status(self, batch: str) -> BatchStatus:
        job = await self.client.aio.batches.get(name=batch)
        state = job.state.value if job.state is not None else "JOB_STATE_UNSPECIFIED"
        return BatchStatus(state, state in ENDED)

    async def results(self, batch: str) -> dict[str, Response]:
        job = await self.client.aio.batches.get(name=batch)
        items: Any = (job.dest.inlined_responses if job.dest else None) or []
        return {item.metadata["key"]: read_inlined(item) for item in items
                if item.metadata and "key" in item.metadata}
