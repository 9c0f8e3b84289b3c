"""The worker processes of the drawing libraries (`render.worker`): a job that hangs or
crashes fails alone, each worker's memory is capped, and no secret reaches it."""

from __future__ import annotations

import resource

from diagbench.render.worker import MEMORY_BYTES, run_jobs


def test_worker_survives_a_hang_and_a_crash():
    outcomes = run_jobs("time:sleep", [30, 0], workers=1, timeout=1.0)
    assert outcomes[0] == (False, "timed out after 1 s") and outcomes[1] == (True, None)
    crashed, after = run_jobs("os:_exit", [3], workers=1, timeout=10.0) + run_jobs(
        "math:sqrt", [-1.0], workers=1, timeout=10.0)
    assert not crashed[0] and "died" in crashed[1]
    assert after == (False, "math domain error")


def test_a_worker_has_its_address_space_capped():
    [(ok, limits)] = run_jobs("resource:getrlimit", [resource.RLIMIT_AS], workers=1,
                              timeout=30.0)
    assert ok and tuple(limits) == (MEMORY_BYTES, MEMORY_BYTES)


def test_no_api_key_reaches_a_worker(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-never-in-a-worker")
    monkeypatch.setenv("LANG", "C.UTF-8")
    outcomes = run_jobs("os:getenv", ["OPENAI_API_KEY", "LANG"], workers=1, timeout=30.0)
    assert outcomes == [(True, None), (True, "C.UTF-8")]
