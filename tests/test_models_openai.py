"""The OpenAI-compatible adapter against a real local server with injected faults."""

from __future__ import annotations

import asyncio
import base64

import pytest

from diagbench.models.calling import call_with_retries
from diagbench.models.openai_compat import OpenAICompatible
from diagbench.models.request import GenerationConfig, ImagePart, user_request
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


def test_wire_bytes_and_headers_are_those_of_the_sdks_create():
    """The adapter posts what `chat.completions.create` posts, byte for byte."""
    import openai

    request = user_request("vllm", "qwen-vl", "Lis ceci: é → ü", (ImagePart(PNG),),
                           GenerationConfig(temperature=0.3, max_tokens=77, seed=5,
                                            stop=("@enduml",), reasoning="low"),
                           system="You read diagrams.")

    async def both(base_url: str) -> None:
        adapter = OpenAICompatible("sk-test-not-a-secret", base_url, timeout=7)
        sdk = openai.AsyncOpenAI(api_key="sk-test-not-a-secret", base_url=base_url,
                                 max_retries=0, timeout=7)
        try:
            await adapter.call(request)
            await sdk.chat.completions.create(
                model="qwen-vl", max_tokens=77, seed=5, stop=["@enduml"], temperature=0.3,
                reasoning_effort="low", messages=[
                    {"role": "system", "content": "You read diagrams."},
                    {"role": "user", "content": [
                        {"type": "image_url", "image_url": {
                            "url": "data:image/png;base64," + base64.b64encode(PNG).decode(),
                            "detail": "high"}},
                        {"type": "text", "text": "Lis ceci: é → ü"}]}])
        finally:
            await adapter.close()
            await sdk.close()

    with FakeServer() as server:
        asyncio.run(both(server.base_url))
    (ours, our_body), (theirs, their_body) = server.wire
    assert our_body == their_body
    assert {k.lower(): v for k, v in ours.items()} == {k.lower(): v for k, v in theirs.items()}
