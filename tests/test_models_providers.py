"""Anthropic and Gemini adapters against a real local server speaking their wire formats."""

from __future__ import annotations

import asyncio

import pytest

from diagbench.models.anthropic_messages import AnthropicMessages
from diagbench.models.calling import call_with_retries
from diagbench.models.gemini import GeminiGenerate
from diagbench.models.openai_compat import OpenAICompatible
from diagbench.models.request import GenerationConfig, ImagePart, user_request
from diagbench.models.retry import RetryPolicy
from tests.fake_providers import FakeServer, gemini_thinking

PNG = b"\x89PNG\r\n\x1a\n" + bytes(32)
FAST = RetryPolicy(retries=2, base_delay=0.01, max_delay=0.05)


def ask(adapter_type, base_url: str, provider: str, timeout: float = 5.0):
    async def go():
        adapter = adapter_type("test-key", base_url, timeout=timeout)
        try:
            return await call_with_retries(
                adapter, user_request(provider, "model-x", "Read this.", (ImagePart(PNG),)), FAST)
        finally:
            await adapter.close()
    return asyncio.run(go())


def test_anthropic_answer_usage_and_image():
    with FakeServer() as server:
        response = ask(AnthropicMessages, server.url, "anthropic")
    assert (response.status, response.text, response.finish_reason) == (
        "ok", "echo: Read this.", "end_turn")
    assert (response.usage.input_tokens, response.usage.output_tokens) == (11, 7)
    assert response.served_model == "model-x-served"
    [sent] = server.requests
    assert sent["messages"][0]["content"][0]["source"]["media_type"] == "image/png"
    assert sent["temperature"] == 0.0


@pytest.mark.parametrize(("script", "status", "asked"), [
    (["429-retry-after"], "ok", 2), (["529"], "ok", 2), (["drop"], "ok", 2),
    (["400"], "error", 1), (["503", "503", "503"], "error", 3)])
def test_anthropic_retries_only_where_they_help(script, status, asked):
    with FakeServer(script) as server:
        response = ask(AnthropicMessages, server.url, "anthropic")
    assert response.status == status and len(server.requests) == asked
    assert (response.text is None) == (status == "error")


def test_gemini_answer_usage_and_image():
    with FakeServer() as server:
        response = ask(GeminiGenerate, server.url, "gemini")
    assert (response.status, response.text, response.finish_reason) == (
        "ok", "echo: Read this.", "STOP")
    assert (response.usage.input_tokens, response.usage.output_tokens) == (11, 7)
    assert response.served_model == "model-x-served"
    [sent] = server.requests
    assert sent["contents"][0]["parts"][0]["inlineData"]["mime_type"] == "image/png"
    assert sent["generationConfig"]["temperature"] == 0.0


@pytest.mark.parametrize(("reasoning", "sent"), [
    ("low", {"thinkingLevel": "LOW"}), ("high", {"thinkingLevel": "HIGH"}),
    ("512", {"thinkingBudget": 512}), (None, None)])
def test_gemini_thinking_level_or_budget_and_thinking_tokens(reasoning, sent):
    """A thinking level (Gemini 3) or budget goes on the wire as Gemini reads it; the
    thinking tokens Gemini reports apart are counted in the completion tokens."""
    async def go(base_url):
        adapter = GeminiGenerate("test-key", base_url, timeout=5.0)
        try:
            request = user_request("gemini", "model-x", "Read this.",
                                   config=GenerationConfig(reasoning=reasoning))
            return await call_with_retries(adapter, request, FAST)
        finally:
            await adapter.close()

    with FakeServer(thoughts=300) as server:
        response = asyncio.run(go(server.url))
    assert response.status == "ok", response.error
    [body] = server.requests
    assert gemini_thinking(body) == sent
    assert (response.usage.output_tokens, response.usage.reasoning_tokens) == (307, 300)


@pytest.mark.parametrize(("script", "status", "asked"), [
    (["429-retry-after"], "ok", 2), (["500"], "ok", 2), (["drop"], "ok", 2),
    (["400"], "error", 1), (["503", "503", "503"], "error", 3)])
def test_gemini_retries_only_where_they_help(script, status, asked):
    with FakeServer(script) as server:
        response = ask(GeminiGenerate, server.url, "gemini")
    assert response.status == status and len(server.requests) == asked
    assert (response.text is None) == (status == "error")


@pytest.mark.parametrize(("adapter_type", "provider", "suffix"), [
    (OpenAICompatible, "openai", "/v1"), (AnthropicMessages, "anthropic", ""),
    (GeminiGenerate, "gemini", "")])
def test_system_prompt_in_each_wire_format(adapter_type, provider, suffix):
    async def go(base_url):
        adapter = adapter_type("test-key", base_url, timeout=5)
        try:
            return await call_with_retries(adapter, user_request(
                provider, "model-x", "Question?", system="Be exact."), FAST)
        finally:
            await adapter.close()

    with FakeServer() as server:
        response = asyncio.run(go(server.url + suffix))
    assert response.text == "echo: Question?"
    [sent] = server.requests
    if provider == "openai":
        assert sent["messages"][0] == {"role": "system", "content": "Be exact."}
        assert [m["role"] for m in sent["messages"]] == ["system", "user"]
    elif provider == "anthropic":
        assert sent["system"] == "Be exact." and len(sent["messages"]) == 1
    else:
        assert sent["systemInstruction"]["parts"] == [{"text": "Be exact."}]
        assert len(sent["contents"]) == 1
