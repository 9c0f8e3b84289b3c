"""`diagbench leaderboard` (issue 32, item 3): runs of several benchmarks in one table,
a row per model, a column per benchmark headline metric; values worked out by hand:
the SADU-shaped fixture's logs under SADU's scorer (tests/sadu_fixture.py: model-a
75 %, model-b 37.5 % of 8 questions) and prior-bias's `baseline:prior`, the fully
prior-dependent end (Δ = 100 by construction, paper 002)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from tests.cli import read_view
from tests.sadu_fixture import run_cli, write_sadu

A, B = "model-a_response_t_0", "model-b_response_t_0"




@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("board")
    sadu = write_sadu(root / "sadu")
    logs = sorted((sadu / "experiment_result" / "response_result" / "default").glob("*.log"))
    assert run_cli("import", "sadu", str(sadu / "dataset" / "SAD"), "--out", "data",
                cwd=root).returncode == 0
    out = {}
    for scorer in ("sadu", "strict"):
        done = run_cli("score", "archqa", "--data", "data", "--responses", *map(str, logs),
                    "--scorer", scorer, "--out", f"qa-{scorer}", cwd=root)
        assert done.returncode == 0, done.stderr
        out[scorer] = root / f"qa-{scorer}"
    built = run_cli("build", "prior-bias", "--out", "pb-data", "--per-cell", "2", "--scale", "1",
                 cwd=root)
    assert built.returncode == 0, built.stderr
    done = run_cli("eval", "prior-bias", "--data", "pb-data", "--model", "baseline:prior",
                "--out", "pb", cwd=root)
    assert done.returncode == 0, done.stderr
    out["prior"] = root / "pb"
    return out


def test_one_row_per_model_and_a_column_per_benchmark_metric(runs, tmp_path):
    done = run_cli("leaderboard", str(runs["sadu"]), str(runs["prior"]), "--format", "json",
                cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    board = json.loads(done.stdout)
    assert [c["title"] for c in board["columns"]] == ["archqa accuracy", "prior-bias Δ"]
    assert [c["higher_is_better"] for c in board["columns"]] == [True, False]
    rows = {r["model"]: r["cells"] for r in board["rows"]}
    assert set(rows) == {A, B, "baseline:prior"}
    assert rows[A]["archqa accuracy"]["value"] == 75.0
    assert rows[B]["archqa accuracy"]["value"] == 37.5
    assert rows[A]["archqa accuracy"]["n"] == 8
    assert rows["baseline:prior"]["prior-bias Δ"]["value"] == 100.0
    assert rows["baseline:prior"]["prior-bias Δ"]["interval"] == [100.0, 100.0]
    assert "prior-bias Δ" not in rows[A]


def test_two_runs_of_one_benchmark_keep_the_model_on_one_row(runs, tmp_path):
    done = run_cli("leaderboard", str(runs["sadu"]), str(runs["strict"]), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    header, rule, *rows = done.stdout.splitlines()
    assert header == (f"| model | archqa accuracy ({runs['sadu']}) ↑ | "
                      f"archqa accuracy ({runs['strict']}) ↑ |")
    assert rule == "|---|---|---|" and len(rows) == 2
    assert rows[0].startswith(f"| {A} | 75.00 [") and "(n 8)" in rows[0]


def test_csv_and_html_and_a_run_that_is_not_one(runs, tmp_path):
    (tmp_path / "broken").mkdir()
    done = run_cli("leaderboard", str(runs["prior"]), str(tmp_path / "broken"), "--format", "csv",
                cwd=tmp_path)
    assert done.returncode == 3 and "broken" in done.stderr and "Traceback" not in done.stderr
    [row] = list(csv.DictReader(io.StringIO(done.stdout)))
    assert row["model"] == "baseline:prior" and float(row["prior-bias Δ value"]) == 100.0
    assert row["prior-bias Δ low"] == row["prior-bias Δ high"] == "100.0"
    page = tmp_path / "board.html"
    done = run_cli("leaderboard", str(runs["sadu"]), "--format", "html", "--out", str(page),
                cwd=tmp_path)
    assert done.returncode == 0 and "<table" in page.read_text(encoding="utf-8")
    assert "75.00" in page.read_text(encoding="utf-8")


def test_every_benchmark_declares_its_headline_metrics_and_views():
    from diagbench.benchmarks.registry import registered
    for name, cls in registered().items():
        metrics = [m.name for m in cls.headline_metrics]
        assert metrics and len(set(metrics)) == len(metrics), name
        assert "headlines" in vars(cls), f"{name} declares metrics but gives none"
        assert "sample_views" in vars(cls), f"{name} has no per-sample view"


def test_the_view_of_a_prior_bias_run(runs, tmp_path):
    """baseline:prior answers by the prior: right exactly on the prior-conform instances."""
    done = run_cli("view", str(runs["prior"]), "--out", "page", cwd=runs["prior"].parent)
    assert done.returncode == 0, done.stderr
    view = read_view(runs["prior"].parent / "page")
    at = {name: k for k, name in enumerate(view["fields"])}
    items = [json.loads(line) for line in (runs["prior"].parent / "pb-data" / "manifest.jsonl")
             .read_text(encoding="utf-8").splitlines()]
    samples = view["samples"]
    assert len(samples) == len(items)  # one scale
    right = {s[at["id"]] for s in samples if s[at["correct"]]}
    assert right == {f"{i['id']}@1x" for i in items if i["condition"] == "prior-conform"}
    assert all(s[at["image"]] and s[at["answer"]] for s in samples)


def test_a_cell_gives_the_cost_and_the_cost_per_point():
    from diagbench.report.leaderboard import Board, BoardColumn, Headline, render

    # 8 answers at 0.18 USD for 50 % accuracy: 1.44 USD, 1.44 / 50 = 0.0288 per point
    h = Headline("m", "accuracy", 50.0, 8, cost=1.44)
    assert h.cost_per_point == pytest.approx(0.0288)
    assert Headline("m", "accuracy", 0.0, 8, cost=1.44).cost_per_point is None
    board = Board([BoardColumn("archqa", "accuracy", True, "right %")], {"m": {}})
    board.rows["m"]["archqa accuracy"] = h
    assert "50.00 (n 8, $1.4400, $0.0288/point)" in render(board, "md")
