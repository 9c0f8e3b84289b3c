"""Every benchmark's summary keeps its headline metric's naive and diagram-clustered
intervals: the hand-built case of 3 diagrams × 5 questions (D1 4 right, D2 1, D3 3; see
tests/test_scoring_intervals.py) through archqa's, structure's and codegen's summaries,
conversion's pooled error rate as a ratio clustered by file, prior-bias's Δ."""

from __future__ import annotations

import pytest

RIGHT = [1, 1, 1, 1, 0, 1, 0, 0, 0, 0, 1, 1, 1, 0, 0]
#: mean 8/15; naive SE 2/15; clustered SE √7/15; cluster bootstrap [0.2, 0.8] (percent ×100)
HAND = {"n": 15, "clusters": 3, "estimate": pytest.approx(100 * 8 / 15, abs=1e-3),
        "se": pytest.approx(100 * 2 / 15, abs=1e-3),
        "se_clustered": pytest.approx(100 * 7 ** 0.5 / 15, abs=1e-3),
        "ci95_clustered": [20.0, 80.0]}


def _check(intervals: dict) -> None:
    assert {k: intervals[k] for k in HAND} == HAND
    low, high = intervals["ci95"]
    assert 20.0 < low < 100 * 8 / 15 < high <= 80.0  # the naive interval is narrower


def test_archqa_summary():
    from diagbench.benchmarks.archqa.records import ArchQAScore
    from diagbench.benchmarks.archqa.summary import summarize_model

    scores = [ArchQAScore("m", f"er/diagram{k // 5}/{k % 5}", "er", "count", "counting",
                          None, "strict", "ok", bool(r)) for k, r in enumerate(RIGHT)]
    _check(summarize_model(scores)["intervals"]["accuracy"])


def test_structure_summary():
    from diagbench.benchmarks.structure.records import StructureScore
    from diagbench.benchmarks.structure.scoring import summarize

    scores = [StructureScore("m", f"sample-{k // 5}/structural/{k % 5}", "structural", "c",
                             "dot", 1, "ok", "parsed", 1, bool(r))
              for k, r in enumerate(RIGHT)]
    _check(summarize({"m": scores}).models["m"].intervals["accuracy"])
    # a failed call counts wrong, as the accuracy counts it: a 4th diagram, 0 of 1 right.
    # mean 8/16; s² = (16/15)(1/2)(1/2) = 4/15, naive SE √(4/15/16) = 0.129099; residual
    # sums per diagram 4 − 2.5, 1 − 2.5, 3 − 2.5, 0 − 0.5: squares 2.25 + 2.25 + 0.25 +
    # 0.25 = 5, clustered SE² = (4/3)(5)/16² → SE 0.161374
    scores.append(StructureScore("m", "sample-9/structural/0", "structural", "c", "dot", 1,
                                 "call_error"))
    failed = summarize({"m": scores}).models["m"].intervals["accuracy"]
    assert (failed["n"], failed["clusters"], failed["estimate"]) == (16, 4, 50.0)
    assert failed["se"] == pytest.approx(12.9099, abs=1e-3)
    assert failed["se_clustered"] == pytest.approx(16.1374, abs=1e-3)


def test_codegen_summary():
    from diagbench.benchmarks.codegen.records import CodegenScore
    from diagbench.benchmarks.codegen.scoring import summarize

    scores = [CodegenScore("m", f"s{k}", f"group-{k // 5}", "c", "dot", "low", "zero-shot",
                           "ok", bool(r)) for k, r in enumerate(RIGHT)]
    _check(summarize({"m": scores}).models["m"]["intervals"]["validity zero-shot"])


def test_prior_bias_delta_clustered_by_diagram():
    from diagbench.benchmarks.prior_bias.records import PriorBiasScore
    from diagbench.benchmarks.prior_bias.scoring import summarize

    def score(ident: str, condition: str, correct: bool) -> PriorBiasScore:
        return PriorBiasScore("m", ident, condition, "inheritance", "1x", "True", "ok", None,
                              "True", "parsed", correct, None, False)

    # two diagrams, each asked under both conditions: d1 right on both, d2 right on the
    # conform one only → Δ = 100 − 50 = 50; resampling diagrams: (d1, d1) Δ* 0,
    # (d2, d2) 100, mixed 50 → the interval [0, 100]
    records = [score("d1-q0", "prior-conform", True), score("d1-q1", "2-reverse", True),
               score("d2-q0", "prior-conform", True), score("d2-q1", "2-reverse", False)]
    delta = summarize(records).intervals["Δ"]
    assert (delta["n"], delta["clusters"], delta["estimate"]) == (4, 2, 50.0)
    assert delta["ci95_clustered"] == [0.0, 100.0]
