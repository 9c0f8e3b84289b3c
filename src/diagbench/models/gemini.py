"""Gemini's generateContent through the official `google-genai` SDK (one attempt per call)."""

from __future__ import annotations

import time
from urllib.parse import urlsplit

from google import genai
from google.genai import errors, types

from diagbench.models.reasoning import joined
from diagbench.models.request import ImagePart, Request
from diagbench.models.response import Response, Usage
from diagbench.models.retry import (
    CallError,
    parse_retry_after,
    retryable_status,
    unreachable,
)

#: Transport failures by exception class name: the SDK raises those of its transport,
#: aiohttp's when it is installed (it is, for the openai adapter), else httpx's.
_TIMEOUTS = ("Timeout",)
_DROPS = ("ConnectError", "RemoteProtocolError", "ReadError", "WriteError", "NetworkError",
          "ServerDisconnectedError", "ClientConnectorError", "ClientOSError",
          "ClientPayloadError")


def _part(part) -> types.Part:
    if isinstance(part, ImagePart):
        return types.Part.from_bytes(data=part.data, mime_type=part.media_type)
    return types.Part.from_text(text=part.text)


def thinking(reasoning: str | None) -> types.ThinkingConfig | None:
    """The thinking setting `--reasoning` asks for: a number is a thinking budget in
    tokens (Gemini 2.5), a word a thinking level (Gemini 3: minimal, low, medium, high);
    None leaves the model's default."""
    if not reasoning:
        return None
    if reasoning.isdigit():
        return types.ThinkingConfig(thinking_budget=int(reasoning))
    return types.ThinkingConfig(thinking_level=types.ThinkingLevel(reasoning.upper()))


class GeminiGenerate:
    """`call` makes exactly one attempt; the SDK's own retries are off."""

    def __init__(self, api_key: str, base_url: str | None = None, timeout: float = 120.0) -> None:
        options = types.HttpOptions(base_url=base_url, timeout=int(timeout * 1000),
                                    retry_options=types.HttpRetryOptions(attempts=1))
        self.client = genai.Client(api_key=api_key, http_options=options)
        url = urlsplit(base_url or "https://generativelanguage.googleapis.com")
        self.host = url.netloc.rpartition("@")[2] or "Gemini's server"  # never a user:key

    async def close(self) -> None:
        await self.client.aio.aclose()

    async def call(self, request: Request) -> Response:
        contents, settings = generate_parts(request)
        start = time.perf_counter()
        try:
            reply = await self.client.aio.models.generate_content(
                model=request.model, contents=contents, config=settings)
        except errors.APIError as exc:
            headers = getattr(exc.response, "headers", None) or {}
            raise CallError(f"HTTP {exc.code}: {exc.message}"[:500], retryable_status(exc.code),
                            parse_retry_after(headers.get("retry-after")), exc.code) from None
        except ValueError as exc:
            raise CallError(f"malformed response: {exc}"[:300], True) from None
        except Exception as exc:
            name = type(exc).__name__
            reason = unreachable(exc, self.host)
            if reason is not None:
                raise CallError(reason, True, unreachable=True) from None
            if any(t in name for t in _TIMEOUTS):
                raise CallError("timed out", True) from None
            if any(d in name for d in _DROPS):
                raise CallError(f"connection failed: {name}", True) from None
            raise
        return read_reply(reply, time.perf_counter() - start)


def generate_parts(request: Request) -> tuple[list[types.Content],
                                              types.GenerateContentConfig]:
    """The contents and configuration of `request` as generateContent takes them (also
    a batch's inlined request)."""
    config = request.config
    settings = types.GenerateContentConfig(
        temperature=config.temperature, top_p=config.top_p,
        max_output_tokens=config.max_tokens,
        seed=config.seed, stop_sequences=list(config.stop) or None,
        system_instruction=request.system,
        thinking_config=thinking(config.reasoning))
    contents = [types.Content(role="model" if m.role == "assistant" else "user",
                              parts=[_part(p) for p in m.parts]) for m in request.turns]
    return contents, settings


def read_reply(reply: types.GenerateContentResponse, latency: float) -> Response:
    """The `Response` of a generateContent reply (online, or a batch's inlined one)."""
    usage = reply.usage_metadata
    candidate = reply.candidates[0] if reply.candidates else None
    parts = (candidate.content.parts or []) if candidate and candidate.content else []
    return Response(
        "ok", text=reply.text or "",
        reasoning=joined(*(p.text for p in parts if p.thought)),
        finish_reason=str(candidate.finish_reason.value) if candidate and
        candidate.finish_reason else None,
        usage=Usage(usage.prompt_token_count or 0,
                    (usage.candidates_token_count or 0) + (usage.thoughts_token_count or 0),
                    usage.thoughts_token_count or 0) if usage else Usage(),
        latency=latency, served_model=reply.model_version)
