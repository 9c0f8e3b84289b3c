"""Several endpoints of one model: requests spread over real local servers, at most
--max-connections on each, failover when one is killed mid-run, recorded errors (not a
hang) when all are down, and the same responses as a one-endpoint run."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
from collections import Counter

from diagbench.models.endpoints import EndpointPool
from diagbench.models.image_policy import ImagePolicy
from diagbench.models.providers import ModelSpec
from diagbench.models.request import GenerationConfig, user_request
from diagbench.models.response import Response
from diagbench.models.retry import CallError, RetryPolicy
from diagbench.models.settings import ModelSettings
from tests.fake_providers import FakeServer

FAST = RetryPolicy(retries=2, base_delay=0.01, max_delay=0.02)


def settings(base_url: str, *endpoints: str) -> ModelSettings:
    return ModelSettings(ModelSpec("vllm", "m", base_url, endpoints), GenerationConfig(), 5.0,
                         FAST, ImagePolicy(), None)


def ask(model: ModelSettings, n: int, max_connections: int, tmp_path=None):
    requests = [user_request("vllm", "m", f"q{k}", base_url=model.spec.base_url)
                for k in range(n)]
    out = tmp_path / "responses.jsonl" if tmp_path else None
    return model.run(requests, out, max_connections, ids=[f"id{k}" for k in range(n)])


def by_id(records) -> dict:
    """What a run answered, per id: everything but timing."""
    return {r.id: (r.key, r.response.status, r.response.text, r.response.served_model,
                   r.response.finish_reason, r.response.usage) for r in records}


def closed_port_url() -> str:
    """A URL on 127.0.0.1 where nothing listens: connections are refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def test_requests_spread_over_three_endpoints_within_each_ones_limit(tmp_path):
    servers = [FakeServer(["slow"] * 90, slow_seconds=0.02) for _ in range(3)]
    for server in servers:
        server.__enter__()
    try:
        model = settings(*(s.base_url for s in servers))
        records = ask(model, 90, max_connections=2, tmp_path=tmp_path)
    finally:
        for server in servers:
            server.__exit__()
    assert [r.response.text for r in records] == [f"echo: q{k}" for k in range(90)]
    counts = [len(s.requests) for s in servers]
    assert sum(counts) == 90 and min(counts) >= 20, counts
    assert max(s.peak_in_flight for s in servers) == 2  # each one's limit, reached


def test_one_endpoint_killed_mid_run_gives_the_one_endpoint_run_answers(tmp_path):
    with FakeServer() as alone:
        single = ask(settings(alone.base_url), 120, max_connections=4)
    with FakeServer(["slow"] * 400, slow_seconds=0.01) as first, \
            FakeServer(["slow"] * 400, slow_seconds=0.01) as second:
        def kill_at_30th(body: dict) -> None:
            if len(second.requests) == 30:
                threading.Thread(target=second.kill).start()
        second.on_body = kill_at_30th
        several = ask(settings(first.base_url, second.base_url), 120, max_connections=4)
    assert all(r.response.status == "ok" for r in several)
    assert 30 <= len(second.requests) < 60 and len(first.requests) >= 60
    texts = {k: v[1:] for k, v in by_id(single).items()}
    assert {k: v[1:] for k, v in by_id(several).items()} == texts


def test_cache_key_names_the_model_url_not_the_endpoint_that_answered():
    with FakeServer() as a, FakeServer() as b:
        one = ask(settings(a.base_url), 20, max_connections=2)
        spread = ask(settings(a.base_url, b.base_url), 20, max_connections=1)
        assert b.requests  # the second endpoint did answer some
    assert by_id(one) == by_id(spread)


def test_every_endpoint_down_ends_in_recorded_errors(tmp_path):
    model = settings(closed_port_url(), closed_port_url(), closed_port_url())
    records = ask(model, 12, max_connections=2, tmp_path=tmp_path)
    assert [r.response.status for r in records] == ["error"] * 12
    reasons = Counter(r.response.error.split(" (")[0] for r in records)
    assert all(r.startswith(("connection refused by 127.0.0.1:", "every endpoint",
                             "stopped asking: 3 attempts in a row could not reach"))
               for r in reasons), reasons
    # the run stops after 3 calls in a row that reached no endpoint: the rest are unsent
    assert reasons["stopped asking: 3 attempts in a row could not reach the server"] >= 9
    lines = (tmp_path / "responses.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["status"] for line in lines] == ["error"] * 12


def test_a_failing_endpoint_rests_and_comes_back_after_its_rest():
    clock = [0.0]

    class Adapter:
        def __init__(self, fails: bool) -> None:
            self.fails, self.calls = fails, 0

        async def call(self, request):
            self.calls += 1
            if self.fails:
                raise CallError("HTTP 503: down", True, status=503)
            return Response("ok", text="fine")

        async def close(self) -> None:
            pass

    bad, good = Adapter(True), Adapter(False)
    pool = EndpointPool({"http://bad/v1": bad, "http://good/v1": good}, 4,
                        failures_to_rest=2, rest_seconds=10.0, clock=lambda: clock[0])
    request = user_request("vllm", "m", "q")

    async def calls(n: int) -> list[str]:
        return [(await pool.call(request)).text for _ in range(n)]

    assert asyncio.run(calls(6)) == ["fine"] * 6
    assert bad.calls == 2  # two failures in a row: resting, no more tries
    clock[0] = 10.5  # rest over: tried again, fails once, rests again
    assert asyncio.run(calls(4)) == ["fine"] * 4
    assert bad.calls == 3


def test_manifest_lists_every_endpoint(tmp_path):
    lines = [json.dumps({"id": f"r{k}", "prompt": f"q{k}"}) for k in range(10)]
    (tmp_path / "requests.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with FakeServer() as a, FakeServer() as b:
        done = subprocess.run(
            [sys.executable, "-m", "diagbench", "run", "requests.jsonl", "--out", "run",
             "--model", f"vllm:m@{a.base_url}", "--endpoint", b.base_url, "--max-connections", "1",
             "--no-cache"], cwd=tmp_path, capture_output=True, text=True, timeout=120,
            env=os.environ | {"DIAGBENCH_CACHE": str(tmp_path / "c.sqlite")})
        assert done.returncode == 0, done.stderr
        assert a.requests and b.requests
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["endpoints"] == [a.base_url, b.base_url]
    assert manifest["base_url"] == a.base_url


def test_endpoint_needs_a_served_model_and_an_http_url(tmp_path):
    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "diagbench", "run", "requests.jsonl",
                               "--out", "run", *args], cwd=tmp_path, capture_output=True,
                              text=True, timeout=60)
    (tmp_path / "requests.jsonl").write_text('{"id": "a", "prompt": "q"}\n', encoding="utf-8")
    bad_url = run("--model", "vllm:m@http://127.0.0.1:9/v1", "--endpoint", "127.0.0.1:10")
    assert bad_url.returncode == 3 and "expected an http:// or https:// URL" in bad_url.stderr
    secret = run("--model", "vllm:m@http://127.0.0.1:9/v1", "--endpoint",
                 "http://me:hunter2@127.0.0.1:10/v1")
    assert secret.returncode == 3 and "no user or password in a server URL" in secret.stderr
    assert not (tmp_path / "run").exists()
    (tmp_path / "gold").mkdir()
    several = subprocess.run(
        [sys.executable, "-m", "diagbench", "eval", "conversion", "--gold", "gold", "--out",
         "run", "--model", "vllm:a@http://127.0.0.1:9/v1", "--model",
         "vllm:b@http://127.0.0.1:9/v1", "--endpoint", "http://127.0.0.1:10/v1"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert several.returncode == 3 and "--endpoint serves one --model" in several.stderr
    offline = run("--model", "baseline:ocr", "--endpoint", "http://127.0.0.1:10/v1")
    assert offline.returncode == 3 and "--endpoint serves a model named with its server" \
        in offline.stderr
