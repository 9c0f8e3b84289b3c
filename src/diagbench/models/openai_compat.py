"""OpenAI-compatible chat completions through the official `openai` SDK.

Serves `openai:`, `vllm:` and `ollama:` models (and any server speaking the
same API through a base URL). The SDK's own retries are off: the caller's
RetryPolicy decides, so every attempt is counted.
"""

from __future__ import annotations

import base64
import importlib
import json
import time
from typing import Any

import openai

from diagbench.models.request import ImagePart, Request
from diagbench.models.response import Response, Usage
from diagbench.models.retry import CallError, sdk_errors

#: The SDK transport's (httpx's) response class: `post` hands such a response back as it is.
_HTTP_RESPONSE: Any = importlib.import_module(
    openai.DefaultAsyncHttpxClient.__mro__[1].__module__.partition(".")[0]).Response


def _content(parts) -> list[dict]:
    out = []
    for part in parts:
        if isinstance(part, ImagePart):
            data = base64.b64encode(part.data).decode("ascii")
            out.append({"type": "image_url", "image_url": {
                "url": f"data:{part.media_type};base64,{data}", "detail": "high"}})
        else:
            out.append({"type": "text", "text": part.text})
    return out


#: Requests in flight per SDK client before another client (its own connection pool) is
#: opened: the transport's pool checks every one of its connections for each request,
#: so many connections in one pool cost CPU per request that grows with their number.
SHARD_REQUESTS = 8


class OpenAICompatible:
    """One set of clients per (base URL, key); `call` makes exactly one attempt."""

    def __init__(self, api_key: str, base_url: str | None = None, timeout: float = 120.0) -> None:
        self._settings: dict[str, Any] = {"api_key": api_key, "base_url": base_url,
                                          "max_retries": 0, "timeout": timeout}
        self.client = openai.AsyncOpenAI(**self._settings)
        self._clients = [self.client]
        self._busy = [0]  # requests in flight per client

    async def close(self) -> None:
        for client in self._clients:
            await client.close()

    def _take(self) -> int:
        """The client with the fewest requests in flight, a new one when all have many."""
        k = min(range(len(self._busy)), key=self._busy.__getitem__)
        if self._busy[k] >= SHARD_REQUESTS:
            self._clients.append(openai.AsyncOpenAI(**self._settings))
            self._busy.append(0)
            k = len(self._busy) - 1
        self._busy[k] += 1
        return k

    async def call(self, request: Request) -> Response:
        config = request.config
        # the request body's fields by their wire names, as the SDK passes them on
        # the request body's fields by their wire names, in the order the SDK's
        # `chat.completions.create` writes them
        params: dict[str, Any] = {
            "model": request.model,
            "messages": ([{"role": "system", "content": request.system}] if request.system else [])
            + [{"role": m.role, "content": _content(m.parts)} for m in request.turns],
            "max_tokens": config.max_tokens}
        if config.reasoning:
            params["reasoning_effort"] = config.reasoning
        if config.seed is not None:
            params["seed"] = config.seed
        if config.stop:
            params["stop"] = list(config.stop)
        params["temperature"] = config.temperature
        start = time.perf_counter()
        k = self._take()
        try:
            with sdk_errors(openai):
                # the SDK's own request path (auth, errors, time-out), without its per-call
                # transformation of the body and without building a pydantic model of the
                # answer: the JSON is read as it comes
                raw = await self._clients[k].post("/chat/completions", cast_to=_HTTP_RESPONSE,
                                                  body=params)
                completion = json.loads(raw.content)
        finally:
            self._busy[k] -= 1
        choices = completion.get("choices")
        if not choices:
            raise CallError("response has no choices", False)
        choice, usage = choices[0], completion.get("usage")
        details = usage.get("completion_tokens_details") if usage else None
        return Response(
            "ok", text=(choice.get("message") or {}).get("content") or "",
            finish_reason=choice.get("finish_reason"),
            usage=Usage(usage.get("prompt_tokens") if usage else 0,
                        usage.get("completion_tokens") if usage else 0,
                        (details or {}).get("reasoning_tokens") or 0),
            latency=time.perf_counter() - start, served_model=completion.get("model"))
