"""OpenAI's Batch API through the official SDK (`openai:` models with `--batch`): the
requests as a JSONL file (``{"custom_id", "method": "POST", "url":
"/v1/chat/completions", "body"}`` a line, the body as the online call writes it) uploaded
with purpose "batch", a batch over it (24 h window), its status, and its output and
error files read back (each line ``{"custom_id", "response": {"status_code", "body"},
"error"}``; a body is read as the online answer is)."""

from __future__ import annotations

import json
from typing import Literal

import openai

from diagbench.models.batch import BatchStatus
from diagbench.models.openai_compat import chat_body, read_completion
from diagbench.models.request import Request
from diagbench.models.response import Response
from diagbench.models.retry import CallError

ENDPOINT: Literal["/v1/chat/completions"] = "/v1/chat/completions"
#: The states in which a batch has ended (its files hold whatever was answered).
ENDED = frozenset({"completed", "failed", "expired", "cancelled"})


def batch_lines(items: list[tuple[str, Request]]) -> bytes:
    """The batch input file: one request a line under its custom id."""
    return "".join(json.dumps({"custom_id": custom_id, "method": "POST", "url": ENDPOINT,
                               "body": chat_body(request)}, ensure_ascii=False) + "\n"
                   for custom_id, request in items).encode("utf-8")


def read_line(row: dict) -> Response:
    """One result line as a `Response`: the answer, or the failure the line reports."""
    response, error = row.get("response") or {}, row.get("error")
    if error:
        return Response.failed(f"batch line failed: {error.get('code')}: "
                               f"{error.get('message')}", 1, 0.0)
    body = response.get("body") or {}
    if response.get("status_code") != 200:
        message = (body.get("error") or {}).get("message") if isinstance(body, dict) else None
        return Response.failed(f"batch line failed: HTTP {response.get('status_code')}: "
                               f"{message}", 1, 0.0)
    try:
        return read_completion(body, 0.0)
    except CallError as exc:
        return Response.failed(f"batch line failed: {exc}", 1, 0.0)


class OpenAIBatch:
    """`BatchApi` for OpenAI (and servers speaking its batch endpoints)."""

    max_requests = 50_000  # the Batch API's limit per batch

    def __init__(self, api_key: str, base_url: str | None = None, timeout: float = 120.0) -> None:
        self.sdk = openai.AsyncOpenAI(api_key=api_key, base_url=base_url, max_retries=2,
                                      timeout=timeout)

    async def close(self) -> None:
        await self.sdk.close()

    async def submit(self, items: list[tuple[str, Request]]) -> str:
        upload = await self.sdk.files.create(file=("batch.jsonl", batch_lines(items)),
                                             purpose="batch")
        batch = await self.sdk.batches.create(input_file_id=upload.id, endpoint=ENDPOINT,
                                              completion_window="24h")
        return batch.id

    async def status(self, batch: str) -> BatchStatus:
        found = await self.sdk.batches.retrieve(batch)
        return BatchStatus(found.status, found.status in ENDED)

    async def results(self, batch: str) -> dict[str, Response]:
        found = await self.sdk.batches.retrieve(batch)
        out: dict[str, Response] = {}
        for file_id in (found.error_file_id, found.output_file_id):  # answers win
            if not file_id:
                continue
            content = await self.sdk.files.content(file_id)
            for line in content.text.splitlines():
                if line.strip():
                    row = json.loads(line)
                    out[row["custom_id"]] = read_line(row)
        return out
