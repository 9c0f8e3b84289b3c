"""`--batch` through OpenAI's Batch API and Anthropic's Message Batches, against a real
HTTP server on 127.0.0.1 speaking their batch wire formats (tests/fake_providers.py:
FakeBatches): the same responses and cache keys as the online path, faults (an expired
batch, a failed line, a line with no result), and a run killed while its batch waits,
resumed without submitting again."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pytest

from diagbench.models.anthropic_batch import AnthropicBatch
from diagbench.models.anthropic_messages import AnthropicMessages
from diagbench.models.batch import read_state, run_batch
from diagbench.models.cache import ResponseCache
from diagbench.models.gemini import GeminiGenerate
from diagbench.models.gemini_batch import GeminiBatch
from diagbench.models.openai_batch import OpenAIBatch
from diagbench.models.openai_compat import OpenAICompatible
from diagbench.models.request import user_request
from diagbench.models.retry import RetryPolicy
from diagbench.models.runner import read_records, run_requests
from tests.fake_providers import FakeBatches, FakeServer

PROMPTS = [f"question {k}" for k in range(5)]
#: provider → (its batch API, its online adapter, the fake's URL attribute, key variable)
PROVIDERS = {"openai": (OpenAIBatch, OpenAICompatible, "base_url", "OPENAI_API_KEY"),
             "anthropic": (AnthropicBatch, AnthropicMessages, "url", "ANTHROPIC_API_KEY"),
             "gemini": (GeminiBatch, GeminiGenerate, "url", "GEMINI_API_KEY")}


def _requests(provider, prompts=PROMPTS):
    return [user_request(provider, "model-test", p, base_url="http://same") for p in prompts]


def batch(server, out, cache=None, provider="openai", max_requests=None):
    api_class, _, url, _ = PROVIDERS[provider]

    async def go():
        api = api_class("sk-test", getattr(server, url))
        if max_requests:
            api.max_requests = max_requests
        try:
            return await run_batch(api, _requests(provider), out, cache, poll_seconds=0)
        finally:
            await api.close()
    return asyncio.run(go())


def online(server, out, provider="openai"):
    _, adapter_class, url, _ = PROVIDERS[provider]

    async def go():
        adapter = adapter_class("sk-test", getattr(server, url), timeout=5)
        try:
            return await run_requests(adapter, _requests(provider), out, None, 4,
                                      RetryPolicy(retries=0))
        finally:
            await adapter.close()
    return asyncio.run(go())


def _answer(record) -> tuple:
    r = record.response
    return (record.key, r.status, r.text, r.finish_reason, r.usage, r.served_model)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_batch_answers_equal_the_online_answers_and_fill_the_cache(tmp_path, provider):
    cache = ResponseCache(tmp_path / "c.sqlite")
    with FakeBatches() as server:
        records = batch(server, tmp_path / "b" / "responses.jsonl", cache, provider)
        [lines] = server.submitted
    with FakeServer() as server:
        expected = online(server, tmp_path / "o" / "responses.jsonl", provider)
        sent = server.requests
    assert [_answer(r) for r in records] == [_answer(r) for r in expected]
    assert [r.response.text for r in records] == [f"echo: {p}" for p in PROMPTS]
    # each line under the request's cache key, with the body the online call sends
    assert [custom_id for custom_id, _ in lines] == [r.key for r in records]
    assert sorted(json.dumps(body, sort_keys=True) for _, body in lines) == \
        sorted(json.dumps(body, sort_keys=True) for body in sent)
    assert all(cache.get(r.key)["text"] == r.response.text for r in records)
    saved = read_records(tmp_path / "b" / "responses.jsonl")
    assert [r.key for r in saved] == [r.key for r in records]
    [state] = read_state(tmp_path / "b" / "batches.jsonl")
    assert state.collected and state.keys == tuple(r.key for r in records)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_an_expired_batch_keeps_what_it_answered_and_the_rest_is_sent_again(tmp_path,
                                                                            provider):
    out = tmp_path / "responses.jsonl"
    with FakeBatches(expire_after=3) as server:
        first = batch(server, out, provider=provider)
        assert [r.response.status for r in first] == ["ok"] * 3 + ["error"] * 2
        assert "expired" in first[3].response.error.lower()
        server.expire_after = None
        second = batch(server, out, provider=provider)
        # the second batch holds only the two requests the first left unanswered
        assert [len(lines) for lines in server.submitted] == [5, 2]
    assert [r.response.status for r in second] == ["ok"] * 5
    assert [r.response.text for r in second] == [f"echo: {p}" for p in PROMPTS]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_more_requests_than_a_batch_takes_go_in_several(tmp_path, provider):
    with FakeBatches() as server:
        records = batch(server, tmp_path / "responses.jsonl", provider=provider,
                        max_requests=2)
        assert [len(lines) for lines in server.submitted] == [2, 2, 1]
    assert [r.response.text for r in records] == [f"echo: {p}" for p in PROMPTS]
    assert [b.collected for b in read_state(tmp_path / "batches.jsonl")] == [True] * 3


@pytest.mark.parametrize(("provider", "failed", "ended"), [
    ("openai", "batch line failed: HTTP 400: injected 400", "batch completed"),
    ("anthropic", "batch line failed: invalid_request_error: injected 400", "batch ended"),
    ("gemini", "batch line failed: 400: injected 400", "batch JOB_STATE_SUCCEEDED")])
def test_a_failed_line_and_a_missing_line_are_errors_never_cached(tmp_path, provider, failed,
                                                                   ended):
    cache = ResponseCache(tmp_path / "c.sqlite")
    with FakeBatches(failing=("question 1",), dropping=("question 4",)) as server:
        records = batch(server, tmp_path / "responses.jsonl", cache, provider)
    statuses = [r.response.status for r in records]
    assert statuses == ["ok", "error", "ok", "ok", "error"]
    assert records[1].response.error == failed
    assert records[4].response.error.startswith(f"{ended}: no result")
    assert cache.get(records[1].key) is None and cache.get(records[4].key) is None
    assert cache.get(records[0].key)["text"] == "echo: question 0"


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_run_killed_while_its_batch_waits_resumes_without_submitting_again(tmp_path,
                                                                             provider):
    requests = tmp_path / "requests.jsonl"
    requests.write_text("".join(json.dumps({"id": f"q{k}", "prompt": p}) + "\n"
                                for k, p in enumerate(PROMPTS)), encoding="utf-8")
    env = {**os.environ, PROVIDERS[provider][3]: "sk-test",
           "DIAGBENCH_CACHE": str(tmp_path / "c.sqlite")}
    with FakeBatches(hold=True) as server:
        command = [sys.executable, "-m", "diagbench", "run", str(requests), "--model",
                   f"{provider}:model-test@{getattr(server, PROVIDERS[provider][2])}",
                   "--batch", "--batch-poll", "0.01",
                   "--out", str(tmp_path / "run")]
        first = subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE)
        # polled: the batch was submitted and recorded, and is being waited for
        assert server.polled.wait(timeout=120), first.communicate(timeout=60)
        first.kill()  # mid-batch: not yet collected
        first.wait(timeout=60)
        [state] = read_state(tmp_path / "run" / "batches.jsonl")
        assert not state.collected
        server.release()
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300,
                              check=False)
        assert done.returncode == 0, done.stderr
        assert len(server.submitted) == 1  # picked up again, not paid for twice
    saved = read_records(tmp_path / "run" / "responses.jsonl")
    assert sorted(r.response.text for r in saved) == sorted(f"echo: {p}" for p in PROMPTS)
    assert read_state(tmp_path / "run" / "batches.jsonl")[0].collected
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["parameters"]["batch"] is True


def test_batch_refused_for_a_provider_without_a_batch_api(tmp_path):
    (tmp_path / "r.jsonl").write_text('{"id": "q", "prompt": "p"}\n', encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "diagbench", "run", "r.jsonl", "--model",
                           "vllm:m@http://127.0.0.1:9/v1", "--batch", "--out", "x"],
                          capture_output=True, text=True, timeout=120, check=False,
                          cwd=tmp_path)
    assert done.returncode == 3
    assert "--batch: vllm has no batch API diagbench speaks (these do: openai, anthropic, gemini)" \
        in done.stderr
    assert "Traceback" not in done.stderr
