"""`diagbench import strudel` on a fixture in STRUDEL's published layout, then `eval
structure` offline and against a real HTTP server speaking OpenAI's chat format: both
matchings side by side, and where they disagree."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.cli import read_jsonl, read_view, run_cli
from tests.fake_providers import FakeServer
from tests.strudel_fixture import ANSWERS, CODE, write_strudel


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    root = tmp_path_factory.mktemp("strudel")
    source = write_strudel(root / "STRUDEL")
    done = run_cli("import", "strudel", str(source), "--out", str(root / "data"))
    return root / "data", done


def test_import_reads_the_published_layout(imported):
    data, done = imported
    assert done.returncode == 0, done.stderr
    tasks = read_jsonl(data / "tasks.jsonl")
    # six rows: four questions, one PlantUML code, one CircuiTikZ code left out
    assert [t["task"] for t in tasks] == ["identification", "quantification", "association",
                                          "identification", "image_to_code"]
    assert [(t["gold"], t.get("answer_type")) for t in tasks] == [
        ("A", "choice"), ("3", "number"), ("no", "yes_no"), ("Motor", "label"),
        ("sources/" + tasks[4]["sample"] + "-2.txt", None)]
    assert (data / tasks[4]["gold"]).read_text(encoding="utf-8") == CODE + "\n"
    # three distinct images: three samples; the code row's gold statistics on its sample
    samples = {s["id"]: s for s in read_jsonl(data / "samples.jsonl")}
    assert len(samples) == 3 and len(list((data / "images").iterdir())) == 3
    assert samples[tasks[0]["sample"]]["statistics"] == {"node_types": {"class": 3}}
    assert [t["category"] for t in tasks] == ["class", "class", "sequence", "plc", "class"]
    info = json.loads((data / "build.json").read_text(encoding="utf-8"))
    assert (info["rows"], info["samples"], info["origin"]) == (6, 3, "strudel")
    assert info["unknown_categories"] == ["plc"]
    assert info["unscorable_code"] == {"tikz": 1}
    assert info["strudel_task_types"] == {"code": 1, "consistency": 1, "identification": 2,
                                          "structural_count": 1}
    assert "category key 'plc' is not one of diagbench's categories" in done.stderr
    assert "1 image-to-code task(s) in 'tikz' left out" in done.stderr


def test_offline_baseline_runs_the_import_and_scores_code_both_ways(imported, tmp_path):
    data, _ = imported
    run = tmp_path / "run"
    done = run_cli("eval", "structure", "--data", str(data), "--model", "baseline:synth",
                   "--out", str(run))
    assert done.returncode == 0, done.stderr
    m = json.loads((run / "summary.json").read_text())["models"]["baseline:synth"]
    # baseline:synth answers the gold code itself: diagbench 1.0; STRUDEL: renders (1) and
    # node types {class: 2} against the gold statistics' {class: 3}: P 1, R 2/3, F1 0.8,
    # (1 + 0.8) / 2 = 0.9
    assert m["image_to_code"]["score"] == 1.0
    assert (m["matching"]["codes"], m["matching"]["strict_code"],
            m["matching"]["strudel_code"]) == (1, 1.0, 0.9)
    assert m["matching"]["questions"] == 4
    assert "image-to-code over 1: diagbench 1 vs STRUDEL's (renders + node-type F1)/2 0.9" \
        in done.stdout


def test_the_two_matchings_disagree_and_the_report_says_so(imported, tmp_path):
    data, _ = imported
    env = {**os.environ, "OPENAI_API_KEY": "k", "DIAGBENCH_CACHE": str(tmp_path / "c.sqlite")}

    def reply(prompt: str) -> str:
        tag = prompt.split()[0]
        return ANSWERS[tag][0] if tag in ANSWERS else f"```\n{CODE}\n```"

    with FakeServer(reply=reply) as server:
        model = f"openai:vlm@{server.base_url}"
        strict = run_cli("eval", "structure", "--data", str(data), "--model", model,
                         "--out", str(tmp_path / "strict"), env=env)
        loose = run_cli("eval", "structure", "--data", str(data), "--model", model,
                        "--out", str(tmp_path / "loose"), "--matching", "strudel", env=env)
        sent = server.requests[0]
    assert strict.returncode == 0, strict.stderr
    assert loose.returncode == 0, loose.stderr
    # STRUDEL's settings: its system prompt, temperature 0.2, top-p 0.95
    assert sent["messages"][0]["role"] == "system"
    assert sent["messages"][0]["content"].startswith("You are an AI assistant expert")
    assert (sent["temperature"], sent["top_p"]) == (0.2, 0.95)
    m = json.loads((tmp_path / "strict" / "summary.json").read_text())["models"]["openai:vlm"]
    s = m["matching"]
    # strict: only "Motor" is right (B is not A, 13 is not 3, "None of them." is not no):
    # 1 of 4; STRUDEL's: all four ("A" in "Answer", "3" in "13", "no" in "None")
    assert (s["scored_by"], s["strict_accuracy"], s["strudel_accuracy"]) == \
        ("strict", 25.0, 100.0)
    assert (s["disagree"], s["strudel_only"], s["strict_only"]) == (3, 3, 0)
    assert m["accuracy"]["all"] == 25.0
    assert [(d["gold"], d["strict"], d["strudel"]) for d in s["examples"]] == [
        ("A", False, True), ("3", False, True), ("no", False, True)]
    assert s["examples"][0]["window"] == "Answer: (B)"
    assert "openai:vlm: scored by the strict reading; strict 25 % vs STRUDEL's 100 % over " \
           "4 questions; they disagree on 3 (3 right by STRUDEL's only, 0 by the strict " \
           "reading's only)" in strict.stdout
    assert "gold 'A', read 'B': strict wrong, STRUDEL right (found in 'Answer: (B)')" \
        in strict.stdout
    report = (tmp_path / "strict" / "report.html").read_text(encoding="utf-8")
    assert "Strict reading and STRUDEL&#x27;s matching, side by side" in report
    assert "Answer: (B)" in report
    # the viewer shows both verdicts beside each answer
    shown = run_cli("view", str(tmp_path / "strict"), "--out", str(tmp_path / "v"))
    assert shown.returncode == 0, shown.stderr
    view = read_view(tmp_path / "v")
    parts = {s[view["fields"].index("gold")]: s[view["fields"].index("parts")]
             for s in view["samples"]}
    assert (parts["A"]["strict reading"], parts["A"]["STRUDEL's matching"]) == (0.0, 1.0)
    # --matching strudel: the same answers (cached), scored by STRUDEL's rule
    m2 = json.loads((tmp_path / "loose" / "summary.json").read_text())["models"]["openai:vlm"]
    assert m2["accuracy"]["all"] == 100.0 and m2["matching"]["scored_by"] == "strudel"
    assert "openai:vlm: scored by STRUDEL's matching;" in loose.stdout
    assert m2["image_to_code"]["score"] == 0.9


def test_unreadable_rows_are_named_and_the_others_imported(tmp_path):
    from tests.strudel_fixture import png, row

    bad = [row("Q9 ?", b"not a png", "A", "identification", "class", "plantuml", "x"),
           {**row("Q8 ?", png("red"), "A", "identification", "class", "plantuml", "y"),
            "answer": None}]
    source = write_strudel(tmp_path / "STRUDEL", bad)
    done = run_cli("import", "strudel", str(source), "--out", str(tmp_path / "data"))
    assert done.returncode == 3
    assert "test-00001-of-00002.parquet:2: the image cannot be read" in done.stderr
    assert "test-00001-of-00002.parquet:3: no answer" in done.stderr
    assert len(read_jsonl(tmp_path / "data" / "tasks.jsonl")) == 5


def test_a_folder_without_shards_exits_3(tmp_path):
    done = run_cli("import", "strudel", str(tmp_path), "--out", str(tmp_path / "data"))
    assert done.returncode == 3
    assert "no test-*.parquet shard" in done.stderr and "Traceback" not in done.stderr
