"""archqa built from code (the bundled examples/archqa, real engines) and run end to end:
with baseline:blind (no key) and against the local fake servers of three providers
(OpenAI-compatible, Anthropic, Gemini); questions per subtype and rejections by reason;
the question logic on small parsed diagrams worked out by hand."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from diagbench.benchmarks.archqa.baselines import blind_answer
from diagbench.benchmarks.archqa.build import annotate, candidates, check
from diagbench.benchmarks.archqa.judging import judge_summary
from diagbench.benchmarks.archqa.questions import SUBTYPES
from diagbench.benchmarks.archqa.records import ArchQAScore
from diagbench.languages import read
from tests.browser import loaded_images
from tests.cli import read_jsonl, run_cli
from tests.fake_providers import FakeServer

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "archqa"


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    out = tmp_path_factory.mktemp("archqa") / "data"
    done = run_cli("build", "archqa", "--from", str(EXAMPLES), "--out", str(out), "--jobs", "1")
    assert done.returncode == 0, done.stderr
    return out


def test_build_counts_every_subtype_and_every_rejection(data):
    info = json.loads((data / "build.json").read_text())
    assert info["diagrams"] == 19 and info["diagrams_rejected"] == []
    assert set(info["by_subtype"]) == set(SUBTYPES)
    assert all(n >= 1 for n in info["by_subtype"].values())  # all 24 subtypes asked
    questions = read_jsonl(data / "questions.jsonl")
    assert len(questions) == info["questions"] == sum(info["by_subtype"].values())
    # the engines drew what the readers read, diagram by diagram
    assert info["engine_check_equal"] == 19
    assert {c["engine"] for c in info["engine_check"]} == {"plantuml", "mermaid", "graphviz",
                                                           "dbml"}
    # every rejection is listed with its reason, and counted
    assert sum(info["rejected"].values()) == len(info["rejections"])
    reasons = {(r["diagram"], r["reason"]) for r in info["rejections"]}
    assert ("er/blog_schema", "a cardinality has no SADU wording") in reasons  # DBML "*"
    assert ("behavioral/build_system", "N elements match the label and end") in reasons
    assert ("behavioral/player_states", "an element it names has no name") in reasons
    assert {f: v["diagrams"] for f, v in info["by_family"].items()} == {
        "behavioral": 12, "structural": 3, "er": 4}
    for a in read_jsonl(data / "annotations.jsonl"):
        assert (data / a["image"]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_gold_answers_worked_out_by_hand(data):
    gold = {(q["diagram"], q["subtype"]): q["gold"] for q in read_jsonl(data / "questions.jsonl")}
    lib = "structural/library_classes"
    assert gold[lib, "total_entity_number"] == [6]
    assert gold[lib, "total_relation_number"] == [5]
    assert gold[lib, "total_cluster_number"] == [2]
    assert gold[lib, "how_many_relation_types"] == [4]  # inheritance, aggregation, assoc., dep.
    assert gold[lib, "how_many_attributes_certain_entity_has"] == [2]  # Item: title, year
    assert gold[lib, "entity_contains_certain_method"] == ["isAvailable"]
    assert gold[lib, "cluster_has_most_entities"] == ["Catalogue"]
    assert gold[lib, "which_relation_has_certain_label"] == [["Member", "Loan"]]
    assert gold["er/hotel_er", "type_on_the_relation"] == [["exactly one", "zero or more"]]
    assert gold["behavioral/build_system", "how_many_clusters_have_clusters_within"] == [1]
    assert gold["behavioral/build_system", "how_many_entities_does_certain_cluster_have"] \
        == [3]  # CI Server holds the Scheduler and, nested, both agents
    assert gold["behavioral/etl_pipeline", "how_many_relation_types"] == [2]  # single, double


def test_questions_from_a_parsed_diagram_and_their_rejections():
    [parsed] = read('digraph g {\n subgraph cluster_a { label="Zone"; a [label="Cache"];\n'
                    ' b [label="Cache"]; }\n c [label="Client"];\n'
                    ' c -> a [label="get"];\n c -> b [label="get"];\n}\n', "dot")
    annotation, notes = annotate(parsed.diagram, "behavioral/g", "g.dot", "g.png")
    assert notes == []
    verdicts = {text.split("\n")[0]: check(annotation, subtype, text)
                for subtype, text in candidates(annotation)}
    assert verdicts["How many entities are in the diagram?"][0] == [3]
    assert verdicts["How many entities are contained in Cluster 'Zone'?"][0] == [2]
    answer, reason, _ = verdicts["Which entity has a relation with Entity 'Client'?"]
    assert answer is None and reason.startswith("ambiguous name")
    answer, reason, _ = verdicts["Which entity has a relation with Entity 'Cache'?"]
    assert answer is None and reason.startswith("ambiguous name")
    assert verdicts["Which relation(s) carry the label 'get'? Please use format [source "
                    "entity, target entity] to represent certain relation."][1] \
        == "ambiguous name in the answer"
    assert verdicts["Which cluster(s) contain the most entities?"][0] == ["Zone"]


def test_blind_baseline_end_to_end(data, tmp_path):
    done = run_cli("eval", "archqa", "--data", str(data), "--model", "baseline:blind",
                   "--out", str(tmp_path / "run"))
    assert done.returncode == 0, done.stderr
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    model = summary["models"]["baseline:blind"]
    assert model["outcomes"] == {"ok": len(read_jsonl(data / "questions.jsonl"))}
    assert model["format_violations"] == 0
    # worked out from the annotations: it says 5 entities, right for the 5-entity diagrams
    annotations = read_jsonl(data / "annotations.jsonl")
    five = sum(len(a["entities"]) == 5 for a in annotations)
    assert model["by_subtype"]["total_entity_number"] == round(100 * five / 19, 2)
    # a question naming an element gives nothing away: never right
    assert model["by_subtype"]["relation_statement"] == 0.0
    scores = read_jsonl(tmp_path / "run" / "scores.jsonl")
    again = run_cli("score", "archqa", str(tmp_path / "run"))
    assert again.returncode == 0, again.stderr
    assert read_jsonl(tmp_path / "run" / "scores.jsonl") == scores  # deterministic
    assert blind_answer("How many clusters are in the diagram?") == 0


def test_three_providers_end_to_end_with_token_usage(data, tmp_path):
    questions = read_jsonl(data / "questions.jsonl")

    def reply(prompt: str) -> str:  # 3 to every count, nothing found otherwise
        answer = 3 if "x must be a number" in prompt else ["nothing"]
        return f"Looking at the diagram.\n[start]\n{json.dumps({'answer': answer})}\n[end]"

    env = {**os.environ, "OPENAI_API_KEY": "k", "ANTHROPIC_API_KEY": "k",
           "GEMINI_API_KEY": "k", "DIAGBENCH_CACHE": str(tmp_path / "cache.sqlite")}
    with FakeServer(reply=reply) as server:
        done = run_cli("eval", "archqa", "--data", str(data), "--limit", "40",
                       "--model", f"openai:vlm@{server.base_url}",
                       "--model", f"anthropic:claude@{server.url}",
                       "--model", f"gemini:gem@{server.url}", "--out", str(tmp_path / "run"),
                       env=env)
    assert done.returncode == 0, done.stderr
    assert len(server.requests) == 120
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    asked = questions[:40]
    counting = sum(q["gold"] == [3] for q in asked if q["kind"] == "counting")
    for name in ("openai:vlm", "anthropic:claude", "gemini:gem"):
        model = summary["models"][name]
        assert model["accuracy"]["all"] == round(100 * counting / 40, 2), name
        assert model["tokens"]["total"]["all"] == 18.0  # 11 prompt + 7 completion
        assert model["tokens"]["completion"]["all"] == 7.0
    scores = read_jsonl(tmp_path / "run" / "scores.jsonl")
    assert {s["tokens"]["prompt"] for s in scores} == {11}
    assert {s["tokens"]["reasoning"] for s in scores if s["model"] == "gemini:gem"} == {0}


def _score(correct: bool, judge: bool | None, kind: str, prediction, gold) -> ArchQAScore:
    return ArchQAScore("m", f"q{id(prediction)}", "behavioral", "x", kind, None, "strict",
                       "ok", correct, prediction=prediction, gold=gold, judge=judge,
                       judge_status="judged" if judge is not None else "unreadable")


def test_judge_agreement_table_and_disagreements_by_hand():
    scores = [
        _score(True, True, "counting", 4, [4]),            # T_Same
        _score(False, True, "counting", 5, [4]),           # T_Diff, off by one
        _score(False, True, "counting", 9, [4]),           # T_Diff, close (5)
        _score(False, True, "counting", 20, [4]),          # T_Diff, large
        _score(False, False, "counting", 1, [4]),          # F_Same
        _score(False, True, "retrieval", ["Order"], ["Order Service"]),  # T_Diff, substring
        _score(False, True, "retrieval", ["Ledgr"], ["Ledger"]),         # T_Diff, fuzzy
        _score(True, False, "retrieval", ["Cart"], ["Cart"]),            # F_Diff
        _score(False, None, "retrieval", ["Cart"], ["Pay"]),             # no verdict
    ]
    summary = judge_summary(scores)
    assert summary is not None
    assert summary["agreement"] == {"n": 8, "unjudged": 1, "T_Same": 12.5, "F_Same": 12.5,
                                    "T_Diff": 62.5, "F_Diff": 12.5, "F_Diff_caption": 12.5,
                                    "All_Same": 25.0}
    assert summary["t_diff"] == {"counting": {"off_by_one": 1, "close": 1, "large": 1},
                                 "retrieval": {"substring": 1, "fuzzy": 1}}
    assert summary["f_diff"] == {"counting": {}, "retrieval": {"same_elements": 1}}
    assert summary["by_kind"]["counting"]["n"] == 5
    assert (summary["asked"], summary["verdicts"], summary["call_errors"],
            summary["unreadable"]) == (9, 8, 0, 1)
    assert summary["judge_accuracy"] == 75.0  # T_Same + T_Diff: 6 of the 8 judged
    unasked = replace(_score(True, None, "counting", 1, [1]), judge_status=None)
    assert judge_summary([unasked]) is None


def test_judge_end_to_end_against_a_fake_server(data, tmp_path):
    def reply(prompt: str) -> str:  # the judge takes every count for right, no list
        response = prompt.split("# Response #\n", 1)[1].split("\n# Answer #", 1)[0]
        return "True\nSame number." if '"answer": [' not in response else "false\nNo."

    env = {**os.environ, "OPENAI_API_KEY": "k", "DIAGBENCH_CACHE": str(tmp_path / "c.sqlite")}
    with FakeServer(reply=reply) as server:
        done = run_cli("eval", "archqa", "--data", str(data), "--model", "baseline:blind",
                       "--limit", "12", "--judge", f"openai:judge@{server.base_url}",
                       "--out", str(tmp_path / "run"), env=env)
        assert done.returncode == 0, done.stderr
        assert len(server.requests) == 12
        contents = [r["messages"][-1]["content"] for r in server.requests]
        assert all(any(p["type"] == "image_url" for p in c) for c in contents)  # the diagram
        texts = [next(p["text"] for p in c if p["type"] == "text") for c in contents]
        # requests arrive in any order (several connections)
        assert any("# Question #\nHow many entities are in the diagram?" in t for t in texts)
    scores = read_jsonl(tmp_path / "run" / "scores.jsonl")
    assert all(s["judge"] is (s["kind"] == "counting") for s in scores)
    judge = json.loads((tmp_path / "run" / "summary.json").read_text()
                       )["models"]["baseline:blind"]["judge"]
    t_same = sum(s["correct"] and s["kind"] == "counting" for s in scores)
    f_diff = sum(s["correct"] and s["kind"] == "retrieval" for s in scores)
    assert judge["agreement"]["T_Same"] == round(100 * t_same / 12, 4)
    assert judge["agreement"]["F_Diff"] == round(100 * f_diff / 12, 4)
    assert (tmp_path / "run" / "models" / "baseline_blind" / "judge_responses.jsonl").exists()
    _check_report_in_chromium(tmp_path / "run", tmp_path)


def _check_report_in_chromium(run: Path, tmp_path: Path) -> None:
    """The report holds Tables 2–10 and the three plots, and every image loads in
    headless Chromium (skipped without it)."""
    page = (run / "report.html").read_text(encoding="utf-8")
    for heading in ("Table 2", "Tables 4–6", "Table 7", "Table 3", "Tables 8–9", "Table 10",
                    "Fig. 3"):
        assert heading in page, heading
    figures = re.findall(r'<img src="(plots/[^"]+)"', page)
    assert figures == ["plots/subtypes.png", "plots/complexity.png", "plots/tokens.png"]
    if shutil.which("chromium") is None:
        pytest.skip("needs Debian's chromium")
    assert loaded_images(run / "report.html", tmp_path / "profile") == (len(figures), [])


@pytest.mark.parametrize(("judge", "reason"), [
    ("nope:x", "expected PROVIDER:MODEL[@BASE_URL]"),
    ("openai:gpt-4o", "openai needs OPENAI_API_KEY in the environment or in .env")])
def test_an_unusable_judge_stops_the_run_before_any_work(tmp_path, judge, reason):
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    done = subprocess.run([sys.executable, "-m", "diagbench", "eval", "archqa", "--data",
                           str(tmp_path), "--model", "baseline:blind", "--judge", judge,
                           "--out", str(tmp_path / "run")], capture_output=True, text=True,
                          timeout=120, env=env, cwd=tmp_path, check=False)
    assert done.returncode == 3 and "Traceback" not in done.stderr
    assert done.stderr.startswith("diagbench: error: --judge: ") and reason in done.stderr
    assert not (tmp_path / "run" / "scores.jsonl").exists()
