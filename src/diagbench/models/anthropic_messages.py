"""Anthropic's Messages API through the official `anthropic` SDK (one attempt per call)."""

from __future__ import annotations

import base64
import time
from typing import Any

import anthropic

from diagbench.models.reasoning import joined
from diagbench.models.request import ImagePart, Request
from diagbench.models.response import Response, Usage
from diagbench.models.retry import sdk_errors


def _content(parts) -> list[dict]:
    return [{"type": "image", "source": {"type": "base64", "media_type": p.media_type,
                                         "data": base64.b64encode(p.data).decode("ascii")}}
            if isinstance(p, ImagePart) else {"type": "text", "text": p.text} for p in parts]


class AnthropicMessages:
    """`call` makes exactly one attempt; the SDK's own retries are off."""

    def __init__(self, api_key: str, base_url: str | None = None, timeout: float = 120.0) -> None:
        self.client = anthropic.AsyncAnthropic(api_key=api_key, base_url=base_url,
                                               max_retries=0, timeout=timeout)

    async def close(self) -> None:
        await self.client.close()

    async def call(self, request: Request) -> Response:
        params = message_params(request)
        # sampling parameters travel in the body: not every model takes them
        params["extra_body"] = {k: params.pop(k) for k in ("temperature", "top_p")
                                if k in params}
        start = time.perf_counter()
        with sdk_errors(anthropic):
            message = await self.client.messages.create(**params)
        return read_message(message, time.perf_counter() - start)


def message_params(request: Request) -> dict[str, Any]:
    """The Messages API fields of `request` (also a batch request's `params`)."""
    config = request.config
    params: dict[str, Any] = {"model": request.model, "max_tokens": config.max_tokens,
                              "messages": [{"role": m.role, "content": _content(m.parts)}
                                           for m in request.turns],
                              "temperature": config.temperature}
    if config.top_p is not None:
        params["top_p"] = config.top_p
    if request.system:
        params["system"] = request.system
    if config.stop:
        params["stop_sequences"] = list(config.stop)
    if config.reasoning:
        params["thinking"] = {"type": "enabled", "budget_tokens": int(config.reasoning)}
    return params


def read_message(message: Any, latency: float) -> Response:
    """The `Response` of a Message (the SDK's object, online or a batch result's)."""
    text = "".join(block.text for block in message.content if block.type == "text")
    thinking = joined(*(block.thinking for block in message.content
                        if block.type == "thinking"))
    return Response("ok", text=text, reasoning=thinking, finish_reason=message.stop_reason,
                    usage=Usage(message.usage.input_tokens, message.usage.output_tokens),
                    latency=latency, served_model=message.model)
