"""OpenAI-compatible chat completions through the official `openai` SDK.

Serves `openai:`, `vllm:` and `ollama:` models (and any server speaking the
same API through a base URL). The SDK's own retries are off: the caller's
RetryPolicy decides, so every attempt is counted.
"""

from __future__ import annotations

import base64
import time
from typing import Any

import openai

from diagbench.models.request import ImagePart, Request
from diagbench.models.response import Response, Usage
from diagbench.models.retry import CallError, sdk_errors


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


class OpenAICompatible:
    """One client per (base URL, key); `call` makes exactly one attempt."""

    def __init__(self, api_key: str, base_url: str | None = None, timeout: float = 120.0) -> None:
        self.client = openai.AsyncOpenAI(api_key=api_key, base_url=base_url, max_retries=0,
                                         timeout=timeout)

    async def close(self) -> None:
        await self.client.close()

    async def call(self, request: Request) -> Response:
        config = request.config
        # the request body's fields by their wire names, as the SDK passes them on
        params: dict[str, Any] = {
            "model": request.model, "temperature": config.temperature,
            "max_tokens": config.max_tokens,
            "messages": ([{"role": "system", "content": request.system}] if request.system else [])
            + [{"role": m.role, "content": _content(m.parts)} for m in request.turns]}
        if config.seed is not None:
            params["seed"] = config.seed
        if config.stop:
            params["stop"] = list(config.stop)
        if config.reasoning:
            params["reasoning_effort"] = config.reasoning
        start = time.perf_counter()
        with sdk_errors(openai):
            completion = await self.client.chat.completions.create(**params)
        if not completion.choices:
            raise CallError("response has no choices", False)
        choice, usage = completion.choices[0], completion.usage
        details = getattr(usage, "completion_tokens_details", None) if usage else None
        return Response(
            "ok", text=choice.message.content or "", finish_reason=choice.finish_reason,
            usage=Usage(usage.prompt_tokens if usage else 0,
                        usage.completion_tokens if usage else 0,
                        getattr(details, "reasoning_tokens", 0) or 0),
            latency=time.perf_counter() - start, served_model=completion.model)
