"""`diagbench compare-runs RUN_A RUN_B` on two offline runs, hand-checked: the SADU-shaped
fixture's logs (tests/sadu_fixture.py) scored by SADU's scorer, model A in one run and
model B in the other, on 8 questions about 3 diagrams:

    login_flow (4)  shop_classes (2)  library_er (2)
    A: 1 1 1 0      1 0               1 1            6/8 = 75 %
    B: 0 0 1 1      0 1               0 0            3/8 = 37.5 %
    d: 1 1 0 −1     1 −1              1 1            Σd = 3, d̄ = 3/8

A alone right on 5 questions, B alone on 2: McNemar p = 2·(C(7,0)+C(7,1)+C(7,2))/2⁷
= 58/128. Clustered SE: per-diagram residual sums 1 − 4·3/8 = −1/2, 0 − 2·3/8 = −3/4,
2 − 2·3/8 = 5/4; squares 1/4 + 9/16 + 25/16 = 19/8; SE² = (3/2)·(19/8)/64 = 57/1024.
Naive SE: Σ(d − d̄)² = 5·(5/8)² + (3/8)² + 2·(11/8)² = 47/8; SE² = (47/8)/(8·7) = 47/448.
Cluster bootstrap: three drawn diagrams are all shop_classes (R* = 0) or all
library_er (R* = 1) each with chance 1/27 > 2.5 %: the interval is [0, 100] points."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.sadu_fixture import run_cli, write_sadu

A, B = "model-a_response_t_0", "model-b_response_t_0"




@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("pairs")
    sadu = write_sadu(root / "sadu")
    logs = sadu / "experiment_result" / "response_result" / "default"
    assert run_cli("import", "sadu", str(sadu / "dataset" / "SAD"), "--out", "data",
                cwd=root).returncode == 0
    for name, model in (("a", A), ("b", B)):
        done = run_cli("score", "archqa", "--data", "data", "--responses",
                    str(logs / f"{model}.log"), "--scorer", "sadu", "--out", f"run-{name}",
                    cwd=root)
        assert done.returncode == 0, done.stderr
    done = run_cli("score", "archqa", "--data", "data", "--responses", str(logs / f"{A}.log"),
                str(logs / f"{B}.log"), "--scorer", "sadu", "--out", "run-both", cwd=root)
    assert done.returncode == 0, done.stderr
    return root


def test_paired_difference_and_mcnemar_by_hand(runs):
    done = run_cli("compare-runs", "run-a", "run-b", "--json", cwd=runs)
    assert done.returncode == 0, done.stderr
    [c] = json.loads(done.stdout)["comparisons"]
    assert (c["metric"], c["model_a"], c["model_b"]) == ("accuracy", A, B)
    assert (c["a"], c["b"]) == (75.0, 37.5)
    d = c["difference"]
    assert (d["n"], d["clusters"], d["estimate"]) == (8, 3, 37.5)
    assert d["se_clustered"] == pytest.approx(100 * (57 / 1024) ** 0.5, abs=1e-4)
    assert d["se"] == pytest.approx(100 * (47 / 448) ** 0.5, abs=1e-4)
    assert d["ci95_clustered"] == [0.0, 100.0]
    assert (c["test"], c["a_only"], c["b_only"]) == ("mcnemar", 5, 2)
    assert c["p_value"] == 58 / 128 and c["p_holm"] == 0.453125  # one comparison


def test_text_output_and_holm_over_several_comparisons(runs):
    done = run_cli("compare-runs", "run-a", "run-b", cwd=runs)
    assert done.returncode == 0, done.stderr
    assert "A − B 37.50" in done.stdout and "McNemar exact (A only 5, B only 2)" in done.stdout
    # the same two models in both runs: each compared with itself, 2 comparisons
    done = run_cli("compare-runs", "run-both", "run-both", "--json", cwd=runs)
    compared = json.loads(done.stdout)["comparisons"]
    assert [(c["model_a"], c["model_b"]) for c in compared] == [(A, A), (B, B)]
    assert all(c["difference"]["estimate"] == 0.0 and c["p_holm"] == 1.0 for c in compared)
    # A's run against the run of both: model A against A and against B (Holm over 2)
    done = run_cli("compare-runs", "run-a", "run-both", "--json", cwd=runs)
    compared = json.loads(done.stdout)["comparisons"]
    assert [(c["model_a"], c["model_b"]) for c in compared] == [(A, A), (A, B)]
    assert [c["p_holm"] for c in compared] == [1.0, pytest.approx(min(1.0, 2 * 58 / 128))]


def test_a_folder_that_is_not_a_run_exits_3(runs):
    (runs / "empty").mkdir(exist_ok=True)
    done = run_cli("compare-runs", "run-a", "empty", cwd=runs)
    assert done.returncode == 3
    assert "empty/manifest.json: cannot be read" in done.stderr
    assert "Traceback" not in done.stderr
