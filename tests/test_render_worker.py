"""The worker processes of the drawing libraries (`render.worker`): a job that hangs or
crashes fails alone, each worker's memory is capped, no secret reaches it, and workers
stay warm from one batch to the next."""

from __future__ import annotations

import random
import resource
from pathlib import Path
from typing import Any

from diagbench.render.worker import MEMORY_BYTES, Outcome, Workers


def _run(function: str, jobs: list[Any], timeout: float) -> list[Outcome]:
    workers = Workers(function, (), 1)
    try:
        return workers.run(jobs, timeout)
    finally:
        workers.close()


def test_worker_survives_a_hang_and_a_crash():
    outcomes = _run("time:sleep", [30, 0], timeout=1.0)
    assert outcomes[0] == (False, "timed out after 1 s") and outcomes[1] == (True, None)
    crashed, after = _run("os:_exit", [3], timeout=10.0) + _run("math:sqrt", [-1.0], 10.0)
    assert not crashed[0] and "died" in crashed[1]
    assert after == (False, "math domain error")


def test_a_worker_has_its_address_space_capped():
    [(ok, limits)] = _run("resource:getrlimit", [resource.RLIMIT_AS], timeout=30.0)
    assert ok and tuple(limits) == (MEMORY_BYTES, MEMORY_BYTES)


def test_no_api_key_reaches_a_worker(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-never-in-a-worker")
    monkeypatch.setenv("LANG", "C.UTF-8")
    outcomes = _run("os:getenv", ["OPENAI_API_KEY", "LANG"], timeout=30.0)
    assert outcomes == [(True, None), (True, "C.UTF-8")]


def test_workers_stay_warm_from_one_batch_to_the_next():
    """Two batches of four jobs on two workers start each worker once; a crash in a
    third batch restarts only the worker it killed; closed, none runs."""
    workers = Workers("math:sqrt", (), 2)
    try:
        assert workers.run([4.0, 9.0, 16.0, 25.0], 30.0) == [(True, 2.0), (True, 3.0),
                                                           (True, 4.0), (True, 5.0)]
        assert workers.run([1.0, 0.0], 30.0) == [(True, 1.0), (True, 0.0)]
        assert [w.process.started for w in workers.workers] == [1, 1]
    finally:
        workers.close()
    assert workers.workers == []


def test_a_drawing_engine_keeps_its_workers_across_renders(tmp_path: Path):
    """A drawing library's engine (Newick trees, Bio.Phylo on matplotlib) renders two
    batches with the workers it started for the first; closed, they are ended."""
    from diagbench.languages import named

    newick = named("newick")
    engine = newick.make_engine(jobs=1)
    try:
        trees = [newick.generate(random.Random(seed), "low") for seed in range(3)]
        for sub in ("a", "b"):
            (tmp_path / sub).mkdir()
        first = engine.render(trees[:2], tmp_path / "a", "png")
        second = engine.render(trees[2:], tmp_path / "b", "png")
        assert all(r.ok for r in first + second)
        [worker] = engine._workers.workers
        assert worker.process.started == 1 and worker.process.running
    finally:
        engine.close()
    assert not worker.process.running
