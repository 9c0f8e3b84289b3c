"""bench/outputs_identity.py blanks what differs between two runs of the same code, and
nothing an answer or a score is made of."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_PATH = Path(__file__).resolve().parents[1] / "bench" / "outputs_identity.py"
_SPEC = importlib.util.spec_from_file_location("bench_outputs_identity", _PATH)
assert _SPEC and _SPEC.loader
bench = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(bench)

TREE, OUT = Path("/checkouts/a"), Path("/runs/a")
OTHER_TREE, OTHER_OUT = Path("/elsewhere/b"), Path("/tmp/b")


def _same(a: bytes, b: bytes, any_order: bool = False) -> bool:
    return (bench.blank(a, TREE, OUT, any_order)
            == bench.blank(b, OTHER_TREE, OTHER_OUT, any_order))


def test_timings_dates_paths_and_arrival_order_are_blanked():
    assert _same(b'{"mean_latency_s": 15.2, "answer": "B"}',
                 b'{"mean_latency_s": 7.3, "answer": "B"}')
    assert _same(b"<!-- CreationDate: Nov 29, 2026 22:24 -->",
                 b"<!-- CreationDate: Dec 1, 2026 09:01 -->")
    assert _same(b'{"gold": "../../../../rbase/examples/gold"}',
                 b'{"gold": "../../../../../work/main/examples/gold"}')
    assert _same(b'{"image": "/runs/a/img/1.png", "code": "/checkouts/a/x"}',
                 b'{"image": "/tmp/b/img/1.png", "code": "/elsewhere/b/x"}')
    assert _same(b'{"id": 1}\n{"id": 2}', b'{"id": 2}\n{"id": 1}', any_order=True)


def test_what_answers_and_scores_are_made_of_still_differs():
    assert not _same(b'{"latency": 1.0, "answer": "B"}', b'{"latency": 1.0, "answer": "C"}')
    assert not _same(b'{"score": 0.5}', b'{"score": 0.25}')
    assert not _same(b'{"gold": "examples/gold"}', b'{"gold": "examples/other"}')
    assert not _same(b'{"id": 1}\n{"id": 2}', b'{"id": 2}\n{"id": 1}')  # order kept by default
