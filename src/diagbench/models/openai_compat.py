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
from openai._models import FinalRequestOptions

from diagbench.models.reasoning import joined, split_thinking
from diagbench.models.request import ImagePart, Request
from diagbench.models.response import Response, Usage
from diagbench.models.retry import CallError, sdk_errors

#: The SDK's request and response model (httpx, or its successor httpx2): its requests,
#: responses and errors, whichever client sends them.
_HTTP: Any = importlib.import_module(
    openai.DefaultAsyncHttpxClient.__mro__[1].__module__.partition(".")[0])


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
    """One SDK client per (base URL, key); `call` makes exactly one attempt.

    The SDK decides the wire format: the URL, headers (key, user agent, SDK
    headers) and time-out come once from the SDK's own request builder, errors
    are the SDK's, and each body is written with the SDK's JSON rules (a test
    checks the bytes and headers equal those of `chat.completions.create`). Two
    choices are for speed, measured by `bench/runner.py`: the SDK's per-call
    request loop — copying its options, rebuilding the same headers, its retries
    (off) — is skipped (a fifth of the runner's CPU per request), and requests
    go through the SDK's aiohttp client (`openai[aiohttp]`,
    `DefaultAioHttpClient`), whose C parser and single write per request take
    about half the CPU per request of its default httpx pool.
    """

    def __init__(self, api_key: str, base_url: str | None = None, timeout: float = 120.0) -> None:
        self.sdk = openai.AsyncOpenAI(api_key=api_key, base_url=base_url, max_retries=0,
                                      timeout=timeout, http_client=openai.DefaultAioHttpClient())
        template = self.sdk._build_request(FinalRequestOptions.construct(
            method="post", url="/chat/completions", json_data={}))
        self._url, self._extensions = template.url, template.extensions
        self._headers = [(name, value) for name, value in template.headers.raw
                         if name.lower() != b"content-length"]  # each body sets its own

    async def close(self) -> None:
        await self.sdk.close()

    async def _post(self, body: dict) -> dict:
        """POST `body` as the SDK writes it and read the answer's JSON; failures raise
        the SDK's own errors (status errors built by the SDK)."""
        request = _HTTP.Request("POST", self._url, headers=self._headers,
                                content=json.dumps(body, ensure_ascii=False,
                                                   separators=(",", ":"), allow_nan=False
                                                   ).encode(),
                                extensions=self._extensions)
        try:
            response = await self.sdk._client.send(request)
        except _HTTP.TimeoutException:
            raise openai.APITimeoutError(request=request) from None
        except _HTTP.TransportError as exc:
            raise openai.APIConnectionError(request=request) from exc
        if response.status_code >= 400:
            raise self.sdk._make_status_error_from_response(response)
        return json.loads(response.content)

    async def call(self, request: Request) -> Response:
        start = time.perf_counter()
        with sdk_errors(openai):
            completion = await self._post(chat_body(request))
        return read_completion(completion, time.perf_counter() - start)


def chat_body(request: Request) -> dict[str, Any]:
    """The chat completions body of `request`: the fields by their wire names, in the
    order the SDK's `chat.completions.create` writes them (also a batch line's body)."""
    config = request.config
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
    if config.top_p is not None:
        params["top_p"] = config.top_p
    return params


def read_completion(completion: dict, latency: float) -> Response:
    """The `Response` of a chat completion's JSON (online, or a batch result's body);
    `CallError` when it has no choice."""
    choices = completion.get("choices")
    if not choices:
        raise CallError("response has no choices", False)
    choice, usage = choices[0], completion.get("usage")
    details = usage.get("completion_tokens_details") if usage else None
    message = choice.get("message") or {}
    text, thinking = split_thinking(message.get("content") or "")
    return Response(
        "ok", text=text,
        reasoning=joined(message.get("reasoning_content"), message.get("reasoning"),
                         thinking),
        finish_reason=choice.get("finish_reason"),
        usage=Usage(usage.get("prompt_tokens") if usage else 0,
                    usage.get("completion_tokens") if usage else 0,
                    (details or {}).get("reasoning_tokens") or 0),
        latency=latency, served_model=completion.get("model"))
