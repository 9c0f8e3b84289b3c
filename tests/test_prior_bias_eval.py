"""Prior-bias scoring: `diagbench eval prior-bias` end to end with
the offline prior baseline and against the local fake OpenAI-compatible server."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fake_providers import FakeServer


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("pb") / "data"
    subprocess.run([sys.executable, "-m", "diagbench", "build", "prior-bias", "--out", str(out),
                    "--per-cell", "4", "--scale", "1", "--scale", "2"], check=True,
                   capture_output=True, timeout=300)
    return out


def _eval(tmp_path: Path, data: Path, model: str, *args: str, env: dict | None = None):
    return subprocess.run(
        [sys.executable, "-m", "diagbench", "eval", "prior-bias", "--data", str(data), "--model",
         model, "--out", str(tmp_path / "run"), *args], capture_output=True, text=True,
        timeout=600, env={**os.environ, "DIAGBENCH_CACHE": str(tmp_path / "c.sqlite"),
                          **(env or {})}, check=False)


def test_prior_baseline_is_the_fully_prior_dependent_end(tmp_path, data):
    done = _eval(tmp_path, data, "baseline:prior")
    assert done.returncode == 0, done.stderr
    model = json.loads((tmp_path / "run" / "summary.json").read_text())["models"][
        "baseline:prior"]
    rel = {c: v["rel_acc"] for c, v in model["conditions"].items()}
    assert rel == {"prior-free": 0.0, "prior-conform": 100.0, "2-reverse": 0.0,
                   "3-reverse": 0.0, "3-mixed": 0.0}
    assert model["delta"] == 100.0 and model["delta_ci"] == [100.0, 100.0]
    assert model["labels"]["Unknown"] == model["conditions"]["prior-free"]["n"]
    assert model["prerequisite"]["passed"] is False and model["prerequisite"]["em"] == 0.0
    assert "Δ = 100.0" in done.stdout


_QUESTION = re.compile(r"The question is: (?:Does|Is) class (\w+) .*? class (\w+)")
_WRAPS = ["{}", "**{}**", "The answer is {}.", "{{{}}}", "Answer: {}"]


def _fake_answers(data: Path):
    """A fake model: names right from the image's sha256 except at 2x; relation answered
    True when the first queried class sorts first, in varied wrappers."""
    rows = [json.loads(x) for x in (data / "manifest.jsonl").read_text().splitlines()]
    names = {img["sha256"]: (scale, r["classes"]) for r in rows
             for scale, img in r["images"].items()}
    state = {"image": None}

    def on_body(body: dict) -> None:
        url = next(p["image_url"]["url"] for p in body["messages"][-1]["content"]
                   if p["type"] == "image_url")
        state["image"] = hashlib.sha256(base64.b64decode(url.split(",", 1)[1])).hexdigest()

    def reply(prompt: str) -> str:
        if "List all class names" in prompt:
            scale, classes = names[state["image"]]
            return json.dumps(classes if scale == "1x" else classes[:1])
        a, b = _QUESTION.search(prompt).groups()
        return _WRAPS[len(a) % len(_WRAPS)].format("True" if a < b else "False")
    return rows, on_body, reply


def _right_by_relation(rows: list[dict], condition: str) -> dict[str, float]:
    """Per relation, the % of `condition`'s questions the fake answers right: it says True
    exactly when the first queried class sorts first, and the manifest holds the gold."""
    mine = [r for r in rows if r["condition"] == condition]
    out = {}
    for relation in sorted({r["relation"] for r in mine}):
        of = [r for r in mine if r["relation"] == relation]
        right = sum((r["query"][0] < r["query"][1]) == r["gold"] for r in of)
        out[relation] = 100 * right / len(of)
    return out


def test_end_to_end_against_the_local_server(tmp_path, data):
    rows, on_body, reply = _fake_answers(data)
    with FakeServer(reply=reply) as server:
        server.on_body = on_body
        done = _eval(tmp_path, data, f"openai:vlm@{server.base_url}", "--max-connections", "1",
                     env={"OPENAI_API_KEY": "sk-test"})
    assert done.returncode == 0, done.stderr
    model = json.loads((tmp_path / "run" / "summary.json").read_text())["models"]["openai:vlm"]
    # the expected numbers, worked out from the manifest and the fake's rule: a
    # condition's RelAcc is the mean of its relation × scale cells (paper 002 §4.1); the
    # answers do not depend on the scale, so both scales of a relation score the same
    for condition, cell in model["conditions"].items():
        per_relation = _right_by_relation(rows, condition)
        assert cell["n"] == 2 * sum(1 for r in rows if r["condition"] == condition)
        assert cell["rel_acc"] == pytest.approx(sum(per_relation.values()) / len(per_relation))
        assert cell["em"] == pytest.approx(50.0)  # right at 1x, wrong at 2x
    # Δ = RelAcc(prior-conform) − RelAcc(2-reverse) over the cells both have (§3.2)
    conform = _right_by_relation(rows, "prior-conform")
    conflict = _right_by_relation(rows, "2-reverse")
    both = sorted(conform.keys() & conflict.keys())
    assert both
    assert model["delta"] == pytest.approx(sum(conform[k] for k in both) / len(both)
                                           - sum(conflict[k] for k in both) / len(both))
    assert model["parse"] == {"parsed": model["answered"]}
    scores = [json.loads(x) for x in (tmp_path / "run" / "scores.jsonl").read_text().splitlines()]
    assert len(scores) == 2 * len(rows) and {s["scale"] for s in scores} == {"1x", "2x"}
    assert (tmp_path / "run" / "report.html").is_file()


def test_bad_benchmark_directory_exits_3(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "manifest.jsonl").write_text('{"id": "x"}\n')
    done = _eval(tmp_path, tmp_path / "data", "baseline:prior")
    assert done.returncode == 3
    assert "manifest.jsonl:1: not an instance" in done.stderr and "Traceback" not in done.stderr


def test_vision_baseline_reads_the_arrow_not_the_names(tmp_path, data):
    done = _eval(tmp_path, data, "baseline:vision-uml", "--scale", "1x")
    assert done.returncode == 0, done.stderr
    model = json.loads((tmp_path / "run" / "summary.json").read_text())["models"][
        "baseline:vision-uml"]
    for condition, cell in model["conditions"].items():
        assert cell["rel_acc"] >= 95.0, condition
    assert abs(model["delta"]) <= 5.0
    assert model["prerequisite"]["passed"] is True


def test_limit_samples_every_cell_and_the_report_shows_the_paper_figures(tmp_path, data):
    done = _eval(tmp_path, data, "baseline:prior", "--model", "baseline:vision-uml", "--scale",
                 "1x", "--limit", "40")
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in (tmp_path / "run" / "scores.jsonl").read_text()
            .splitlines()]
    cells = {(r["condition"], r["relation"]) for r in rows}
    assert len(cells) == 20 and len(rows) == 2 * 40  # 2 instances of every cell, 2 models
    # the vision baseline passes the prerequisite, the prior one does not: Δ over the
    # passing subset is the vision baseline's own
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())["models"]
    own = summary["baseline:vision-uml"]["delta"]
    assert f"Δ over the 1 prerequisite-passing models {own:.1f}" in done.stdout
    page = (tmp_path / "run" / "report.html").read_text()
    assert all(f in page for f in ("Fig. 4", "Fig. 5", "Fig. 6", "Fig. 7", "Fig. 8",
                                   "§4.3.2", "1 of 2 models pass the prerequisite"))


def test_a_missing_image_is_counted_named_and_exits_3(tmp_path, data):
    """One image of the data set deleted: every pair asked about it is an unusable image
    (not a failed call), counted wrong, named on stderr, and the run exits 3."""
    import shutil

    copy = tmp_path / "data"
    shutil.copytree(data, copy)
    image = sorted((copy / "images").rglob("*.png"))[0]
    image.unlink()
    done = _eval(tmp_path, copy, "baseline:prior")
    assert done.returncode == 3, done.stderr
    assert f"image not sent: {image}" in done.stderr
    model = json.loads((tmp_path / "run" / "summary.json").read_text())["models"][
        "baseline:prior"]
    assert model["image_errors"] >= 1 and model["errors"] >= model["image_errors"]
    assert all(str(image) in reason for reason in model["unusable_images"])
    assert f"image_error {model['image_errors']}" in done.stdout
