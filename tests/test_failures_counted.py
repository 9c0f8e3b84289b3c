"""Every failure is in the score and on the screen, through the CLI: a sample whose image
is missing or corrupt, whose call failed or whose answer is unreadable counts as wrong
in the headline accuracy, is counted by kind in summary.json, on the console and in
the report, and the run exits with its documented code (1: --fail-on-error, or every
call failed; 3: an unusable input or an empty data set)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.cli import run_cli
from tests.fake_providers import FakeServer
from tests.structure_handmade import fix_images, write_handmade


@pytest.fixture
def handmade(tmp_path) -> Path:
    """Four counting tasks made by hand (`write_handmade`): the image of the first is
    missing, the second's is not an image, the third and fourth share a real one (gold 5
    and 3)."""
    return write_handmade(tmp_path / "data")


def test_unusable_images_count_wrong_and_exit_3_naming_them(handmade, tmp_path):
    run = tmp_path / "run"
    done = run_cli("eval", "structure", "--data", str(handmade), "--model", "baseline:synth",
                   "--out", str(run))
    assert done.returncode == 3, done.stderr
    assert "missing.png: missing (no such file)" in done.stderr
    assert "corrupt.png: not a readable image" in done.stderr
    m = json.loads((run / "summary.json").read_text())["models"]["baseline:synth"]
    # baseline:synth answers 3 to every count: right on the fourth task only; the two
    # tasks never asked are wrong, not dropped: 1 of 4 (it was 1 of 2, 50 %)
    assert m["accuracy"] == {"structural": 25.0, "all": 25.0}
    assert m["accuracy_cells"]["structural|class|plantuml"] == {"n": 4, "accuracy": 25.0}
    f = m["failures"]
    assert (f["asked"], f["image_error"], f["call_error"], f["unparsed"]) == (4, 2, 0, 0)
    assert len(f["unusable_images"]) == 2
    assert "baseline:synth: 2 failed (image_error 2) of 4, each counted wrong" in done.stdout
    html = (run / "report.html").read_text(encoding="utf-8")
    assert "image_error" in html and "missing.png" in html


def test_every_call_failing_exits_1_with_the_reason(handmade, tmp_path):
    fix_images(handmade)  # every image usable: only calls fail
    env = {**os.environ, "OPENAI_API_KEY": "sk-never-shown",
           "DIAGBENCH_CACHE": str(tmp_path / "c.sqlite")}
    run = tmp_path / "run"
    with FakeServer(["400"] * 8) as server:
        done = run_cli("eval", "structure", "--data", str(handmade), "--model",
                       f"openai:vlm@{server.base_url}", "--out", str(run), env=env)
        assert len(server.requests) == 4  # a 400 is not retried
    assert done.returncode == 1, done.stderr
    assert "openai:vlm: nothing was answered: all 4 samples failed (call_error 4; first: " \
           "HTTP 400" in done.stderr
    assert "sk-never-shown" not in done.stderr + done.stdout
    m = json.loads((run / "summary.json").read_text())["models"]["openai:vlm"]
    assert m["accuracy"]["all"] == 0.0  # 0 of 4, where it was "—" (no denominator)
    assert (m["failures"]["call_error"], m["failures"]["asked"]) == (4, 4)
    # score again from the saved responses: the same, and a rate above the failures passes
    again = run_cli("score", "structure", str(run), "--fail-on-error", "1", env=env)
    assert again.returncode == 0, again.stderr
    strict = run_cli("score", "structure", str(run), "--fail-on-error", "0.5", env=env)
    assert strict.returncode == 1
    assert "4 of 4 samples failed (call_error 4; first: HTTP 400" in strict.stderr
    assert "above --fail-on-error 0.5" in strict.stderr


def test_a_rate_below_the_failures_fails_a_run_that_answered_some(handmade, tmp_path):
    """Two images unusable of four: 0.5 of the samples failed; --fail-on-error 0.25 fails
    the run (exit 3 still wins: an input could not be used), 0.5 does not."""
    run = tmp_path / "run"
    done = run_cli("eval", "structure", "--data", str(handmade), "--model", "baseline:synth",
                   "--out", str(run), "--fail-on-error", "0.25")
    assert done.returncode == 3
    assert "2 of 4 samples failed (image_error 2), above --fail-on-error 0.25" in done.stderr
    ok = run_cli("score", "structure", str(run), "--fail-on-error", "0.5")
    assert "above --fail-on-error" not in ok.stderr and ok.returncode == 3


def test_an_empty_data_set_exits_3(handmade, tmp_path):
    (handmade / "tasks.jsonl").write_text("", encoding="utf-8")
    done = run_cli("eval", "structure", "--data", str(handmade), "--model", "baseline:synth",
                   "--out", str(tmp_path / "run"))
    assert done.returncode == 3
    assert "no usable samples: the data set is empty" in done.stderr


def test_a_missing_data_set_exits_3_naming_the_file(tmp_path):
    (tmp_path / "empty").mkdir()
    done = run_cli("eval", "structure", "--data", str(tmp_path / "empty"), "--model",
                   "baseline:synth", "--out", str(tmp_path / "run"))
    assert done.returncode == 3
    assert f"{tmp_path / 'empty' / 'samples.jsonl'}: missing" in done.stderr


def test_the_leaderboard_labels_every_split_column_and_shows_the_failures(handmade, tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    run_cli("eval", "structure", "--data", str(handmade), "--model", "baseline:synth",
            "--out", str(first), "--tasks", "structural")
    fix_images(handmade)
    run_cli("eval", "structure", "--data", str(handmade), "--model", "baseline:synth",
            "--model", "baseline:judge", "--out", str(second), "--tasks", "structural")
    (tmp_path / "notarun").mkdir()
    done = run_cli("leaderboard", str(first), str(second), str(tmp_path / "notarun"))
    assert done.returncode == 3
    assert f"{tmp_path / 'notarun'}: not a run directory (no manifest.json" in done.stderr
    header, _, *rows = done.stdout.splitlines()
    # baseline:synth is in both runs: every structure column says its run, judge's too
    assert header.count("structure accuracy (") == 2 and "accuracy ↑" not in header
    titles = [t.strip("| ") for t in header.split(" | ")[1:]]
    at_first, at_second = (titles.index(f"structure accuracy ({run}) ↑")
                           for run in (first, second))
    cells = {row.split(" | ")[0].strip("| "): row.split(" | ")[1:] for row in rows}
    synth = cells["baseline:synth"][at_first]  # 1 right of 4 (intervals tested elsewhere)
    assert synth.startswith("25.00 ") and synth.endswith(" (n 4, 2 failed)")
    second = cells["baseline:synth"][at_second]  # golds 3, 3, 5, 3: 3 of 4
    assert second.startswith("75.00 ") and second.endswith(" (n 4)")
    assert cells["baseline:judge"][at_first] == "—"
    judge = cells["baseline:judge"][at_second]  # no readable number
    assert judge.startswith("0.00 ") and judge.endswith(" (n 4, 4 failed)")
    alone = run_cli("leaderboard", str(tmp_path / "notarun"))
    assert alone.returncode == 3 and alone.stdout == ""


def test_an_archqa_question_about_a_missing_image_is_counted_and_named(tmp_path):
    """SADU's fixture asks 4 of its 8 questions about login_flow (tests/sadu_fixture.py):
    without its image they are never asked, counted as unusable images, and the run
    exits 3 naming the file."""
    from tests.sadu_fixture import write_sadu

    sadu = write_sadu(tmp_path / "sadu")
    assert run_cli("import", "sadu", str(sadu / "dataset" / "SAD"), "--out",
                   str(tmp_path / "qa")).returncode == 0
    image = sadu / "dataset" / "SAD" / "behavior" / "Diagram" / "login_flow.png"
    image.unlink()
    run = tmp_path / "run"
    done = run_cli("eval", "archqa", "--data", str(tmp_path / "qa"), "--model", "baseline:blind",
                   "--out", str(run))
    assert done.returncode == 3, done.stderr
    assert f"image not sent: {image}: missing (no such file)" in done.stderr
    assert "baseline:blind: 4 failed (image_error 4) of 8, each counted wrong" in done.stdout
    m = json.loads((run / "summary.json").read_text())["models"]["baseline:blind"]
    assert m["outcomes"]["image_error"] == 4 and m["questions"] == 8
    assert m["unusable_images"] == [f"{image}: missing (no such file)"]
