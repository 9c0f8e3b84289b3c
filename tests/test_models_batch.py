"""`--batch` through OpenAI's Batch API, against a real HTTP server on 127.0.0.1 speaking
its batch wire format (tests/fake_providers.py: FakeOpenAIBatches): the same responses
and cache keys as the online path, faults (an expired batch, a failed line, a line with
no result), and a run killed while its batch waits, resumed without submitting again."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

from diagbench.models.batch import read_state, run_batch
from diagbench.models.cache import ResponseCache
from diagbench.models.openai_batch import OpenAIBatch
from diagbench.models.openai_compat import OpenAICompatible
from diagbench.models.request import user_request
from diagbench.models.retry import RetryPolicy
from diagbench.models.runner import read_records, run_requests
from tests.fake_providers import FakeOpenAIBatches, FakeServer

PROMPTS = [f"question {k}" for k in range(5)]


def batch(server, out, cache=None, prompts=PROMPTS):
    requests = [user_request("openai", "gpt-test", p, base_url="http://same") for p in prompts]

    async def go():
        api = OpenAIBatch("sk-test", server.base_url)
        try:
            return await run_batch(api, requests, out, cache, poll_seconds=0)
        finally:
            await api.close()
    return asyncio.run(go())


def online(server, out):
    requests = [user_request("openai", "gpt-test", p, base_url="http://same") for p in PROMPTS]

    async def go():
        adapter = OpenAICompatible("sk-test", server.base_url, timeout=5)
        try:
            return await run_requests(adapter, requests, out, None, 4, RetryPolicy(retries=0))
        finally:
            await adapter.close()
    return asyncio.run(go())


def _answer(record) -> tuple:
    r = record.response
    return (record.key, r.status, r.text, r.finish_reason, r.usage, r.served_model)


def test_batch_answers_equal_the_online_answers_and_fill_the_cache(tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    with FakeOpenAIBatches() as server:
        records = batch(server, tmp_path / "b" / "responses.jsonl", cache)
        [lines] = server.submitted
    with FakeServer() as server:
        expected = online(server, tmp_path / "o" / "responses.jsonl")
    assert [_answer(r) for r in records] == [_answer(r) for r in expected]
    assert [r.response.text for r in records] == [f"echo: {p}" for p in PROMPTS]
    # each line under the request's cache key, with the body the online call sends
    assert [line["custom_id"] for line in lines] == [r.key for r in records]
    assert lines[0]["body"]["messages"][-1]["content"] == [{"type": "text",
                                                             "text": "question 0"}]
    assert all(cache.get(r.key)["text"] == r.response.text for r in records)
    saved = read_records(tmp_path / "b" / "responses.jsonl")
    assert [r.key for r in saved] == [r.key for r in records]
    [state] = read_state(tmp_path / "b" / "batches.jsonl")
    assert state.collected and state.keys == tuple(r.key for r in records)


def test_an_expired_batch_keeps_what_it_answered_and_the_rest_is_sent_again(tmp_path):
    out = tmp_path / "responses.jsonl"
    with FakeOpenAIBatches(expire_after=3) as server:
        first = batch(server, out)
        assert [r.response.status for r in first] == ["ok"] * 3 + ["error"] * 2
        assert "batch_expired" in first[3].response.error
        server.expire_after = None
        second = batch(server, out)
        # the second batch holds only the two requests the first left unanswered
        assert [len(lines) for lines in server.submitted] == [5, 2]
    assert [r.response.status for r in second] == ["ok"] * 5
    assert [r.response.text for r in second] == [f"echo: {p}" for p in PROMPTS]


def test_a_failed_line_and_a_missing_line_are_errors_never_cached(tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    with FakeOpenAIBatches(failing=("question 1",), dropping=("question 4",)) as server:
        records = batch(server, tmp_path / "responses.jsonl", cache)
    statuses = [r.response.status for r in records]
    assert statuses == ["ok", "error", "ok", "ok", "error"]
    assert records[1].response.error == "batch line failed: HTTP 400: injected 400"
    assert records[4].response.error.startswith("batch completed: no result")
    assert cache.get(records[1].key) is None and cache.get(records[4].key) is None
    assert cache.get(records[0].key)["text"] == "echo: question 0"


def test_a_run_killed_while_its_batch_waits_resumes_without_submitting_again(tmp_path):
    requests = tmp_path / "requests.jsonl"
    requests.write_text("".join(json.dumps({"id": f"q{k}", "prompt": p}) + "\n"
                                for k, p in enumerate(PROMPTS)), encoding="utf-8")
    env = {**os.environ, "OPENAI_API_KEY": "sk-test",
           "DIAGBENCH_CACHE": str(tmp_path / "c.sqlite")}
    with FakeOpenAIBatches(hold=True) as server:
        command = [sys.executable, "-m", "diagbench", "run", str(requests), "--model",
                   f"openai:gpt-test@{server.base_url}", "--batch", "--batch-poll", "0.01",
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
    assert "--batch: vllm has no batch API diagbench speaks (these do: openai)" in done.stderr
    assert "Traceback" not in done.stderr
