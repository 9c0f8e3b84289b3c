"""The runner: concurrency, cache hits, errors kept as errors, resume after kill -9."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections import Counter

from diagbench.models.cache import ResponseCache
from diagbench.models.openai_compat import OpenAICompatible
from diagbench.models.request import user_request
from diagbench.models.retry import RetryPolicy
from diagbench.models.runner import run_requests
from tests.fake_providers import FakeServer

FAST = RetryPolicy(retries=1, base_delay=0.01, max_delay=0.02)


def run(server, requests, out, cache, max_connections=4):
    async def go():
        adapter = OpenAICompatible("sk-test", server.base_url, timeout=5)
        try:
            return await run_requests(adapter, requests, out, cache, max_connections, FAST)
        finally:
            await adapter.close()
    return asyncio.run(go())


def test_second_run_is_served_from_the_cache_and_errors_are_not_cached(tmp_path):
    requests = [user_request("vllm", "m", f"question {k}") for k in range(30)]
    cache = ResponseCache(tmp_path / "cache.sqlite")
    with FakeServer(["400"]) as server:
        first = run(server, requests, tmp_path / "a.jsonl", cache, max_connections=8)
        assert len(server.requests) == 30
        statuses = Counter(r.response.status for r in first)
        assert statuses == {"ok": 29, "error": 1}
        failed = next(r.response for r in first if r.response.status == "error")
        assert failed.text is None and failed.error.startswith("HTTP 400")
        second = run(server, requests, tmp_path / "b.jsonl", cache, max_connections=2)
        assert len(server.requests) == 31  # only the failed one is asked again
    assert [r.response.text for r in second] == [f"echo: question {k}" for k in range(30)]
    assert sum(r.cached for r in second) == 29
    lines = (tmp_path / "a.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 30 and all(json.loads(line)["key"] for line in lines)


def test_killed_run_resumes_without_losing_or_repeating_answers(tmp_path):
    out, cache_path = tmp_path / "responses.jsonl", tmp_path / "cache.sqlite"
    child_code = textwrap.dedent("""
        import asyncio, sys
        from pathlib import Path
        from diagbench.models.cache import ResponseCache
        from diagbench.models.openai_compat import OpenAICompatible
        from diagbench.models.request import user_request
        from diagbench.models.runner import run_requests
        base, out, cache = sys.argv[1], Path(sys.argv[2]), ResponseCache(sys.argv[3])
        requests = [user_request("vllm", "m", f"q{k}") for k in range(200)]
        async def go():
            adapter = OpenAICompatible("sk-test", base, timeout=10)
            await run_requests(adapter, requests, out, cache, max_connections=4)
        asyncio.run(go())
    """)
    with FakeServer(["slow"] * 400, slow_seconds=0.02) as server:  # answers take a moment
        child = subprocess.Popen([sys.executable, "-c", child_code, server.base_url, str(out),
                                  str(cache_path)])
        deadline = time.time() + 60
        while time.time() < deadline:
            if out.exists() and len(out.read_text(encoding="utf-8").splitlines()) >= 60:
                break
            time.sleep(0.02)
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        before = len(server.requests)
        assert 60 <= before < 200
        requests = [user_request("vllm", "m", f"q{k}") for k in range(200)]
        records = run(server, requests, out, ResponseCache(cache_path))
        asked = Counter(body["messages"][0]["content"][0]["text"] for body in server.requests)
    assert set(asked) == {f"q{k}" for k in range(200)}
    assert sum(n - 1 for n in asked.values()) <= 4  # only requests in flight at the kill
    assert [r.response.text for r in records] == [f"echo: q{k}" for k in range(200)]
    keys = [json.loads(line)["key"] for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(keys) == 200 == len(set(keys))
