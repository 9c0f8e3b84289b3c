"""A run directory finds its data from any folder: its manifest records the data
relative to the run (and where it was), so a run made with relative paths scores,
reports and views the same from elsewhere, and moved with its data too; a run whose
data moved away says where it looked and takes --data."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.cli import run_cli
from tests.structure_handmade import write_handmade


def _scores(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "scores.jsonl").read_text().splitlines()]


def test_a_run_made_with_relative_paths_works_from_anywhere(tmp_path):
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    write_handmade(home / "data", broken=False)
    elsewhere.mkdir()
    made = run_cli("eval", "structure", "--data", "data", "--model", "baseline:synth",
                   "--out", "runs/r", cwd=home)
    assert made.returncode == 0, made.stderr
    manifest = json.loads((home / "runs" / "r" / "manifest.json").read_text())
    assert manifest["options"]["data"] == "../../data"  # relative to the run
    assert manifest["option_paths"] == {"data": str((home / "data").resolve())}
    first = _scores(home / "runs" / "r")
    assert sum(s["correct"] for s in first) == 3  # golds 3, 3, 5, 3; answered 3
    run = str(home / "runs" / "r")
    assert run_cli("score", "structure", run, cwd=elsewhere).returncode == 0
    assert _scores(home / "runs" / "r") == first
    assert run_cli("report", "structure", run, cwd=elsewhere).returncode == 0
    shown = run_cli("view", run, "--out", "page", cwd=elsewhere)
    assert shown.returncode == 0 and "4 samples" in shown.stdout
    # the run and its data moved together: the same
    shutil.move(home, tmp_path / "moved")
    again = run_cli("score", "structure", str(tmp_path / "moved" / "runs" / "r"), cwd=elsewhere)
    assert again.returncode == 0, again.stderr
    assert _scores(tmp_path / "moved" / "runs" / "r") == first


def test_a_run_whose_data_moved_names_where_it_looked_and_takes_data(tmp_path):
    write_handmade(tmp_path / "data", broken=False)
    assert run_cli("eval", "structure", "--data", "data", "--model", "baseline:synth",
                   "--out", "run", cwd=tmp_path).returncode == 0
    first = _scores(tmp_path / "run")
    (tmp_path / "far").mkdir()
    shutil.move(tmp_path / "run", tmp_path / "far" / "away")
    away = "far/away"
    found = run_cli("score", "structure", away, cwd=tmp_path)  # where it was: still there
    assert found.returncode == 0, found.stderr
    shutil.move(tmp_path / "data", tmp_path / "moved-data")
    lost = run_cli("score", "structure", away, cwd=tmp_path)
    assert lost.returncode == 3
    assert f"far/away/manifest.json: the run's data '../data' is neither at far/data nor " \
           f"at {tmp_path.resolve() / 'data'}: moved or deleted (use --data DIR)" \
           in lost.stderr
    page = run_cli("view", away, "--out", "page", cwd=tmp_path)
    assert page.returncode == 3 and not (tmp_path / "page").exists()  # no empty page
    assert "no run could be read: no page written" in page.stderr
    for command in (("score", "structure"), ("report", "structure")):
        pointed = run_cli(*command, away, "--data", "moved-data", cwd=tmp_path)
        assert pointed.returncode == 0, pointed.stderr
    assert _scores(tmp_path / "far" / "away") == first
    shown = run_cli("view", away, "--data", "moved-data", "--out", "page", cwd=tmp_path)
    assert shown.returncode == 0 and "4 samples" in shown.stdout
