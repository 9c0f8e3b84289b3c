"""The structure benchmark (paper 004, STRUDEL) end to end offline with baseline:synth
(build, filters, engine check, tasks, eval, report; byte-identical build for a seed),
against the fake OpenAI server, and the strict answer readers against the anchor's
substring matching."""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET

import pytest

from diagbench.benchmarks.structure.prompts import split_answer
from diagbench.benchmarks.structure.records import (
    BuildInfo,
    StructureSample,
    StructureSummary,
    StructureTask,
)
from diagbench.benchmarks.structure.scoring import read_answer
from tests.cli import read_jsonl, read_view, run_cli
from tests.fake_providers import FakeServer

ARGS = ("--model", "baseline:synth", "--categories", "class,flowchart", "--languages",
        "plantuml,dot", "--per-category", "3", "--seed", "7", "--judge", "baseline:judge")
DETERMINISTIC = ("samples.jsonl", "tasks.jsonl", "build.json")


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    out = tmp_path_factory.mktemp("structure") / "data"
    done = run_cli("build", "structure", "--out", str(out), *ARGS)
    assert done.returncode == 0, done.stderr
    (out.parent / "build.stdout").write_text(done.stdout, encoding="utf-8")
    return out


#: (task, gold, answer): the anchor's substring match gets each wrong; ours is right.
ANCHOR_WRONG = [
    ("association", "A", "Answer: (B)"),
    ("association", "NONE", "(C) — none of the others fit as well"),
    ("structural", "3", "13 classes"),
    ("structural", "1", "There are 12 relations."),
    ("problem_match", "no", "Not sure"),
    ("problem_match", "no", "I cannot know"),
    ("description_match", "no", "Nobody can tell from the image"),
]


@pytest.mark.parametrize(("task", "gold", "answer"), ANCHOR_WRONG)
def test_strict_reading_fixes_substring_matching(task, gold, answer):
    assert gold.lower() in answer.lower()  # the anchor would call it right
    _, _, right = read_answer(task, answer, int(gold) if task == "structural" else gold)
    assert right is False


@pytest.mark.parametrize(("task", "gold", "answer", "read"), [
    ("association", "B", "Answer: (B)", "parsed"), ("association", "NONE", "NONE", "parsed"),
    ("association", "A", "A or B", "ambiguous"), ("structural", 13, "13 classes", "parsed"),
    ("structural", 3, "either 3 or 4", "ambiguous"), ("problem_match", "no", "No.", "parsed"),
    ("problem_match", "no", "Not sure", "unsure")])
def test_strict_reading(task, gold, answer, read):
    status, _, right = read_answer(task, answer, gold)
    assert status == read and right is (read == "parsed")


def test_split_answer_fenced_or_not():
    s = split_answer("Problem:\nP\n\nFunctionality:\nD\n\nCode:\n\ndigraph { a -> b }\n\n"
                     "Answer:\nok\n")
    assert (s.problem, s.description, s.code, s.fenced) == ("P", "D", "digraph { a -> b }\n",
                                                            False)
    assert split_answer("nothing").code is None


def test_build_offline_counts_filters_and_engine_check(data, tmp_path):
    info = json.loads((data / "build.json").read_text())
    assert info["stages"]["planned"] == 6 and info["stages"]["kept"] >= 4
    assert sum(info["removed"].values()) == info["stages"]["planned"] - info["stages"]["kept"]
    judge = info["judge"]  # baseline:synth's code parses and its texts state no counts
    assert judge["model"] == "baseline:judge" and judge["removed"] == 0
    assert judge["verdicts"]["true"] == judge["judged"] == info["stages"]["kept"]
    samples = read_jsonl(data / "samples.jsonl")
    for s in samples:  # statistics from the parsed model = what the engine drew
        assert s["drawn"] == s["counts"], s["id"]
        assert (data / s["image"]).is_file() and s["problem"] and s["description"]
    tasks = read_jsonl(data / "tasks.jsonl")
    assert {t["task"] for t in tasks} == {"identification", "quantification", "structural",
                                           "association", "problem_match",
                                           "description_match", "caption_match",
                                           "model_question", "image_to_code"}
    captions = info["captions"]  # one caption per kept sample (Fig. 10), or dropped
    assert captions["asked"] == len(samples)
    assert captions["kept"] + sum(captions["dropped"].values()) == captions["asked"]
    assert sum(bool(s.get("caption")) for s in samples) == captions["kept"]
    # STRUDEL's five task types and Table 1's domain on every task
    assert {t["task_type"] for t in tasks} == {"identification", "quantification",
                                                "structural_analysis", "association",
                                                "image_to_code"}
    assert {t["domain"] for t in tasks} == {"System Modeling & Softw. Eng."}
    assert all(t["answer_type"] == "number" for t in tasks if t["task"] == "quantification")
    assert set(info["filters"]) == {"node limits", "aspect ratio", "low variance",
                                    "duplicate code", "perceptual-hash duplicate", "judge"}
    assert sum(info["filters"].values()) == sum(info["removed"].values())
    printed = (data.parent / "build.stdout").read_text(encoding="utf-8")
    assert "filters (§3.3), samples removed: node limits 0, " in printed
    assert f"captions: {info['captions']['kept']}/{info['captions']['asked']} kept" in printed
    assert "templated questions not asked (no single answer): " in printed
    asked = info["questions"]  # one model-written question per kept sample, or dropped
    assert asked["asked"] == len(samples)
    assert asked["kept"] + sum(asked["dropped"].values()) == asked["asked"]
    written = sum(t["task"] == "model_question" for t in tasks)
    # a kept question asking what another task asks (same image, prompt, gold) is dropped
    assert 0 < written <= asked["kept"] <= written + info["duplicate_tasks"]
    keys = [(t["image"], t["question"], json.dumps(t["gold"])) for t in tasks]
    assert len(keys) == len(set(keys))
    # byte-identical for a seed
    again = tmp_path / "again"
    done = run_cli("build", "structure", "--out", str(again), *ARGS)
    assert done.returncode == 0, done.stderr
    for name in DETERMINISTIC:
        assert (again / name).read_bytes() == (data / name).read_bytes(), name


def test_a_mermaid_build_is_byte_identical_for_a_seed(tmp_path):
    """Mermaid draws class diagrams with random sketchy lines unless seeded."""
    args = ("--model", "baseline:synth", "--categories", "class", "--languages", "mermaid",
            "--per-category", "2", "--seed", "3")
    for name in ("one", "two"):
        done = run_cli("build", "structure", "--out", str(tmp_path / name), *args)
        assert done.returncode == 0, done.stderr
    images = sorted(p.name for p in (tmp_path / "one" / "images").iterdir())
    assert images
    for name in [*DETERMINISTIC, *(f"images/{i}" for i in images)]:
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()


def test_eval_offline_and_report(data, tmp_path):
    run = tmp_path / "run"
    done = run_cli("eval", "structure", "--data", str(data), "--model", "baseline:synth",
                   "--out", str(run))
    assert done.returncode == 0, done.stderr
    summary = json.loads((run / "summary.json").read_text())["models"]["baseline:synth"]
    i2c = summary["image_to_code"]
    assert i2c["n"] >= 4 and i2c["score"] == 0.0 < i2c["counts_score"]  # the anchor's flaw
    assert summary["accuracy"]["problem_match"] is not None
    assert (run / "report.html").is_file()
    scores = read_jsonl(run / "scores.jsonl")
    counting = [s for s in scores if s["task"] == "quantification"]
    assert counting and all(s["correct"] is (s["gold"] == 3) for s in counting)  # blind "3"
    table = summary["table3"]  # every task in Overall, each in its task type's column
    assert table["Overall"]["n"] == len(scores) == sum(
        table[c]["n"] for c in ("Identification", "Quantification", "Structural",
                                "Association", "Code translation"))
    assert table["System Modeling & Softw. Eng."]["n"] == len(scores)
    assert "Table 3 by task type" in done.stdout and "Code translation" in done.stdout
    assert (run / "plots" / "task_types.png").is_file()
    assert (run / "plots" / "domains.png").is_file()
    board = run_cli("leaderboard", str(run), "--format", "json")
    assert board.returncode == 0, board.stderr
    assert "Table 3: Overall" in board.stdout and "Table 3: Code translation" in board.stdout
    text = (run / "summary.json").read_text(encoding="utf-8")
    assert _dumped(StructureSummary.from_json(json.loads(text)), indent=1) == text
    # each predicted code the engine drew is kept, and the viewer shows it beside the image
    drawn = [s for s in scores if s["task"] == "image_to_code" and s["valid"]]
    assert drawn and all(s["drawn"] == f"drawn/{s['id']}.svg" for s in drawn)
    assert all(ET.parse(run / "models" / "baseline_synth" / s["drawn"]).getroot().tag
               == "{http://www.w3.org/2000/svg}svg" for s in drawn)
    assert run_cli("view", str(run), "--out", str(tmp_path / "v")).returncode == 0
    view = read_view(tmp_path / "v")
    fields = view["fields"]
    shown = {s[fields.index("id")]: s[fields.index("prediction_image")]
             for s in view["samples"]}
    assert all(shown[s["id"]] for s in drawn)
    # the viewer filters by STRUDEL's task type and domain
    assert {s[fields.index("task_type")] for s in view["samples"]} == {
        s["task_type"] for s in scores}
    assert {s[fields.index("domain")] for s in view["samples"]} == {
        "System Modeling & Softw. Eng."}
    html = (tmp_path / "v" / "index.html").read_text(encoding="utf-8")
    assert 'id="f-task_type"' in html and 'id="f-domain"' in html


def _dumped(record, indent: int | None = None) -> str:
    return json.dumps(record.to_json(), indent=indent, ensure_ascii=False) + "\n"


def test_records_read_back_write_the_same_text(data):
    """A build's files read into their typed records and written again are the same
    text: each record's JSON is defined once, both ways."""
    for name, record in (("samples.jsonl", StructureSample), ("tasks.jsonl", StructureTask)):
        text = (data / name).read_text(encoding="utf-8")
        lines = [record.from_json(json.loads(line)) for line in text.splitlines()]
        assert lines and "".join(_dumped(r) for r in lines) == text
    text = (data / "build.json").read_text(encoding="utf-8")
    info = BuildInfo.from_json(json.loads(text))
    assert not isinstance(info.judge, str) and info.questions.asked > 0
    assert _dumped(info, indent=1) == text


def test_eval_against_fake_openai_server(data, tmp_path):
    def reply(prompt: str) -> str:
        return "Answer: (B)" if "NONE if" in prompt else "I count 13 classes"

    env = {**os.environ, "OPENAI_API_KEY": "k", "DIAGBENCH_CACHE": str(tmp_path / "c.sqlite")}
    with FakeServer(reply=reply) as server:
        done = run_cli("eval", "structure", "--data", str(data), "--tasks",
                       "quantification,association", "--model",
                       f"openai:vlm@{server.base_url}",
                       "--out", str(tmp_path / "run"), env=env)
    assert done.returncode == 0, done.stderr
    scores = read_jsonl(tmp_path / "run" / "scores.jsonl")
    assert len(server.requests) == len(scores) > 0
    for s in scores:
        if s["task"] == "association":
            assert s["predicted"] == "B" and s["correct"] is (s["gold"] == "B")
        else:
            assert s["predicted"] == 13.0 and s["correct"] is (s["gold"] == 13)
