"""The OpenAI-compatible adapter against a real local server with injected faults."""

from __future__ import annotations

import asyncio

import pytest

from diagbench.models.calling import call_with_retries
from diagbench.models.openai_compat import OpenAICompatible
from diagbench.models.request import ImagePart, user_request
from diagbench.models.retry import RetryPolicy
from tests.fake_providers import FakeServer

PNG = b"\x89PNG\r\n\x1a\n" + bytes(32)
FAST = RetryPolicy(retries=2, base_delay=0.01, max_delay=0.05)


def ask(server: FakeServer, timeout: float = 5.0, policy: RetryPolicy = FAST):
    async def go():
        adapter = OpenAICompatible("sk-test-not-a-secret", server.base_url, timeout=timeout)
        try:
            return await call_with_retries(
                adapter, user_request("vllm", "qwen-vl", "Read this.", (ImagePart(PNG),)), policy)
        finally:
            await adapter.close()
    return asyncio.run(go())


def test_answer_usage_image_and_served_model():
    with FakeServer() as server:
        response = ask(server)
    assert (response.status, response.text, response.finish_reason) == (
        "ok", "echo: Read this.", "stop")
    assert (response.usage.input_tokens, response.usage.output_tokens) == (11, 7)
    assert response.served_model == "qwen-vl-served" and response.attempts == 1
    [sent] = server.requests
    image = sent["messages"][0]["content"][0]["image_url"]
    assert image["detail"] == "high" and image["url"].startswith("data:image/png;base64,")
    assert sent["temperature"] == 0.0


@pytest.mark.parametrize("fault", ["429", "429-retry-after", "500", "503", "drop", "malformed"])
def test_transient_faults_are_retried(fault):
    with FakeServer([fault]) as server:
        response = ask(server)
    assert response.status == "ok" and response.attempts == 2
    assert len(server.requests) == 2


def test_slow_response_times_out_then_retries():
    with FakeServer(["slow"], slow_seconds=2.0) as server:
        response = ask(server, timeout=0.5)
    assert response.status == "ok" and response.attempts == 2


def test_400_is_not_retried_and_is_recorded_as_an_error():
    with FakeServer(["400"]) as server:
        response = ask(server)
    assert response.status == "error" and response.text is None
    assert response.error.startswith("HTTP 400") and response.attempts == 1
    assert len(server.requests) == 1


def test_retries_run_out_into_an_error():
    with FakeServer(["503"] * 10) as server:
        response = ask(server)
    assert response.status == "error" and "after 3 attempts" in response.error
    assert len(server.requests) == 3
