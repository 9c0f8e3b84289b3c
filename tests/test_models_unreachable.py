"""A server that cannot be reached is named by its cause with its host — a refused
connection, a name that does not resolve, a TLS failure, a proxy error — and the run
stops after a few attempts in a row instead of trying every request (attempts counted,
never timed)."""

from __future__ import annotations

import asyncio
import socket

import pytest

from diagbench.models.calling import UNREACHABLE_TO_STOP, Breaker
from diagbench.models.openai_compat import OpenAICompatible
from diagbench.models.request import user_request
from diagbench.models.retry import CallError, RetryPolicy
from diagbench.models.runner import run_requests
from tests.fake_providers import FakeServer

KEY = "sk-secret-never-shown"
QUICK = RetryPolicy(retries=4, base_delay=0.001, max_delay=0.002)


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _run(base_url: str, n: int, max_connections: int = 1):
    async def go():
        adapter = OpenAICompatible(KEY, base_url, timeout=30)
        try:
            return await run_requests(adapter, [user_request("openai", "m", f"q{k}")
                                                for k in range(n)],
                                      max_connections=max_connections, policy=QUICK)
        finally:
            await adapter.close()
    return asyncio.run(go())


def _stopped_after_three(records, cause: str) -> None:
    """The first request's three attempts reached nothing; the other requests were never
    sent; every error names the cause, none the key."""
    assert [r.response.attempts for r in records] == [UNREACHABLE_TO_STOP] + [0] * 9
    stop = f"stopped asking: 3 attempts in a row could not reach the server ({cause}"
    assert all(r.response.status == "error" and r.response.error.startswith(stop)
               for r in records), records[0].response.error
    assert records[0].response.error.endswith("(after 3 attempts)")
    assert not any(KEY in r.response.error for r in records)


def test_a_refused_port_is_named_and_stops_the_run():
    port = _closed_port()
    records = _run(f"http://127.0.0.1:{port}/v1", 10)
    _stopped_after_three(records, f"connection refused by 127.0.0.1:{port}")


def test_a_name_that_does_not_resolve_is_a_dns_failure():
    records = _run("http://nonexistent.invalid/v1", 10)
    _stopped_after_three(records, "DNS failure: the name of nonexistent.invalid does not "
                                  "resolve")


def test_tls_to_a_plain_http_server_is_a_tls_error():
    with FakeServer() as server:
        port = int(server.base_url.split(":")[-1].split("/")[0])
        records = _run(f"https://127.0.0.1:{port}/v1", 10)
    _stopped_after_three(records, f"TLS error with 127.0.0.1:{port}: ")


def test_a_proxy_that_refuses_is_a_proxy_error(monkeypatch):
    port = _closed_port()
    for name in ("HTTP_PROXY", "http_proxy"):
        monkeypatch.setenv(name, f"http://127.0.0.1:{port}")
    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    records = _run("http://nonexistent.invalid/v1", 10)
    _stopped_after_three(records, "proxy error on the way to nonexistent.invalid: ")


def test_an_answer_between_failures_keeps_the_run_going():
    down = CallError("connection refused by h:1", True, unreachable=True)
    breaker = Breaker()
    for _ in range(UNREACHABLE_TO_STOP - 1):
        breaker.failed(down)
    breaker.answered()
    for _ in range(UNREACHABLE_TO_STOP - 1):
        breaker.failed(down)
    breaker.failed(CallError("HTTP 503: busy", True, status=503))  # reached: not counted
    breaker.failed(down)
    assert breaker.reason is None
    breaker.failed(down)
    breaker.failed(down)
    assert breaker.reason == ("stopped asking: 3 attempts in a row could not reach the "
                              "server (connection refused by h:1)")


@pytest.mark.parametrize("status", ["500", "503"])
def test_server_errors_do_not_stop_the_run(status):
    """A server that answers, even with errors, is reachable: every request is tried."""
    with FakeServer([status] * 3) as server:
        records = _run(server.base_url, 6)
    assert [r.response.status for r in records] == ["ok"] * 6
    assert len(server.requests) == 9
