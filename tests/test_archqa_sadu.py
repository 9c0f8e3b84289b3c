"""archqa against SADU's published data (paper 003): the question logic on a hand-made
annotation; `import sadu`, SADU's scorer and `score archqa --responses` on a small
SADU-shaped repository written by tests/sadu_fixture.py (invented content), and — as an
optional check — on a local copy of SADU's repository at /tmp/SADU (its files are never
part of diagbench: those tests skip, saying so, when the copy is absent, as in CI)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from diagbench.benchmarks.archqa.questions import TEMPLATES, recompute
from diagbench.benchmarks.archqa.records import Annotation, Cluster, Entity, Relation
from tests.cli import read_view, run_cli
from tests.fake_providers import FakeServer
from tests.sadu_fixture import EXPECTED, write_sadu

SADU = Path("/tmp/SADU")
SAD = SADU / "dataset" / "SAD"
LOGS = SADU / "experiment_result" / "response_result" / "default"
needs_sadu = pytest.mark.skipif(
    not (SAD / "ER" / "QA").is_dir() or not LOGS.is_dir(),
    reason="optional check on SADU's real data: no local copy of SADU's repository at "
           "/tmp/SADU (the same code is tested on tests/sadu_fixture.py)")

# Accuracy (behavioural, structural, ER, all) of SADU's published default-prompt logs as
# SADU's own src/evaluation/evaluation_rule_based.py computes it (run on the local copy).
SADU_SCRIPT = {
    "claude-haiku-4-5_response_0223_t_0": (46.30, 36.44, 56.53, 46.11),
    "claude-sonnet-4-5_response_0223_t_0": (52.22, 45.17, 67.01, 54.46),
    "gemini-2.5-flash-lite_response_0223_t_0": (40.49, 34.32, 48.51, 40.89),
    "gemini-2.5-flash_response_0223_t_0": (60.00, 63.68, 80.85, 67.91),
    "gemini-3-flash-preview_response_0223_t_0": (60.74, 67.10, 76.58, 68.00),
    "gemini-3.1-flash-lite-preview_response_0223_t_0": (56.91, 58.96, 76.46, 63.84),
    "gpt-4o-mini_response_0223_t_0": (18.40, 9.79, 23.54, 17.03),
    "gpt-5-nano_response_0223_t_1": (46.42, 48.70, 65.07, 53.15),
    "qwen_2.5-VL-32B_response_0223_t_0": (42.96, 37.62, 54.33, 44.71),
    "qwen_2.5-VL-3B_response_0223_t_0": (16.91, 16.63, 14.62, 16.08),
    "qwen_2.5-VL-7B_response_0223_t_0": (32.96, 30.66, 49.03, 37.27),
}


def _annotation() -> Annotation:
    # A → B (label "uses"), B → C, A → A, cluster K {A, B} containing cluster L {B}
    return Annotation(
        "behavioral/x", "behavioral", "x", "x.png",
        (Entity("e0", "A"), Entity("e1", "B"), Entity("e2", "C"), Entity("e3", "D")),
        (Cluster("c0", "K", ("e0", "e1"), ("c1",)), Cluster("c1", "L", ("e1",))),
        (Relation("e0", "e1", "uses", "single"), Relation("e1", "e2", "", "double"),
         Relation("e0", "e0", "", "single"), Relation("c1", "e2", "feeds", "single")))


@pytest.mark.parametrize(("subtype", "question", "answer"), [
    ("total_entity_number", "How many entities are in the diagram?", [4]),
    ("total_relation_number", "How many relations are in the diagram?", [4]),
    # A: A→B, A→A (2); B: A→B, B→C (2); C: B→C, L→C (2); D: none
    ("entities_have_more_than_one_relations",
     "How many entities have more than one relation?", [3]),
    ("how_many_entities_not_in_clusters",
     "How many entities are not contained in any cluster?", [2]),
    ("how_many_relations_have_label", "How many relations have a label?", [2]),
    ("how_many_clusters_have_clusters_within",
     "How many clusters contain at least one sub-cluster (nested clusters)?", [1]),
    ("how_many_entities_does_certain_cluster_have",
     "How many entities are contained in Cluster 'K'?", [2]),
    ("how_many_relation_types", "How many relation types appear in the diagram?", [2]),
    ("cluster_has_most_entities", "Which cluster(s) contain the most entities?", ["K"]),
    ("relation_statement", "Which entity has a relation with Entity 'B'?", ["A", "C"]),
    ("relation_source", "Which entity is the source in a relation to Entity 'A'?", ["A"]),
    ("relation_target", "Which entity is the target in a relation from Entity 'A'?",
     ["A", "B"]),
    ("cluster_contains_certain_entity", "Which cluster(s) contain Entity 'B'?", ["K", "L"]),
    ("label_on_the_relation",
     "What is the label on the relation between Entity 'B' and Entity 'A'?", ["uses"]),
    ("label_on_the_relation_source",
     "Which cluster has a relation with label 'feeds' to Entity 'C'?", ["L"]),
    ("label_on_the_relation_target",
     "Which entity has a relation with label 'uses' from Entity 'A'? ", ["B"]),
    ("type_on_the_relation", "What is the directionality of the relation between Entity "
     "'C' and Entity 'B'? (e.g. single, double, and none)", ["double"]),
    ("which_relation_has_certain_label", "Which relation(s) carry the label 'feeds'? Please "
     "use format [source entity, target entity] to represent certain relation.",
     [["L", "C"]]),
])
def test_answers_recomputed_from_an_annotation_by_hand(subtype, question, answer):
    computed = recompute(_annotation(), subtype, question + "\nRequired Output Format …")
    assert (computed.answer, computed.problem) == (answer, None)


def test_a_question_that_fits_no_template_or_names_nothing_is_explained():
    assert recompute(_annotation(), "total_entity_number", "How many boxes?").problem
    assert "no entity named" in (recompute(
        _annotation(), "relation_source",
        "Which entity is the source in a relation to Entity 'Z'?").problem or "")
    assert len(TEMPLATES) == 24


def _import(sad: Path, out: Path) -> tuple[Path, str]:
    done = subprocess.run([sys.executable, "-m", "diagbench", "import", "sadu", str(sad),
                           "--out", str(out)], capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    return out, done.stdout


def _sadu_accuracy(data: Path, log_path: Path) -> tuple[float, ...]:
    """(behavioural, structural, ER, all) accuracy of a log under SADU's scorer, in %."""
    from diagbench.benchmarks.archqa.answers import read_log
    from diagbench.benchmarks.archqa.data import load_data
    from diagbench.benchmarks.archqa.scorers import judge

    questions, _, _ = load_data(data)
    by_id = {q.id: q for q in questions}
    log = read_log(log_path, questions)
    assert len(log.answers) == len(questions) and not log.unmatched and not log.gold_differs
    cells: defaultdict[str, list[bool]] = defaultdict(list)
    for qid, logged in log.answers.items():
        q = by_id[qid]
        ok = judge("sadu", q, logged.response, q.gold).correct
        cells[q.family].append(ok)
        cells["all"].append(ok)
    return tuple(round(100 * sum(cells[f]) / len(cells[f]), 2)
                 for f in ("behavioral", "structural", "er", "all"))


def _score(data: Path, logs: list[Path], scorer: str, run: Path) -> dict:
    done = subprocess.run([sys.executable, "-m", "diagbench", "score", "archqa", "--data",
                           str(data), "--responses", *map(str, logs), "--scorer", scorer,
                           "--out", str(run)], capture_output=True, text=True, timeout=600,
                          check=False)
    assert done.returncode == 0, done.stderr
    summary = json.loads((run / "summary.json").read_text())
    assert (run / "report.html").is_file() and len(summary["paired"]) == 1
    return summary


# ------------------------------------------------ on the SADU-shaped fixture (always run)

@pytest.fixture(scope="module")
def fake_sadu(tmp_path_factory) -> Path:
    return write_sadu(tmp_path_factory.mktemp("fake_sadu"))


@pytest.fixture(scope="module")
def imported_fake(fake_sadu, tmp_path_factory):
    return _import(fake_sadu / "dataset" / "SAD", tmp_path_factory.mktemp("fake") / "data")


def test_import_reads_the_fixtures_questions_and_explains_the_planted_difference(
        imported_fake, fake_sadu):
    out, stdout = imported_fake
    info = json.loads((out / "import.json").read_text())
    assert (info["questions"], info["diagrams"]) == (EXPECTED["questions"],
                                                     EXPECTED["diagrams"])
    assert info["by_family"] == EXPECTED["by_family"]
    assert info["recomputed_equal"] == EXPECTED["recomputed_equal"]
    [difference] = info["differences"]
    assert (difference["file"], difference["sub_type"], difference["published"],
            difference["recomputed"]) == ("behavioral/login_flow",
                                          "how_many_relations_have_label", [1], [2])
    assert info["differences_by_reason"] == {"annotation and published answer disagree": 1}
    assert "7 (87.50 %)" in stdout  # 7 of 8
    assert len((out / "questions.jsonl").read_text().splitlines()) == 8
    annotation = json.loads((out / "annotations.jsonl").read_text().splitlines()[0])
    assert Path(annotation["image"]).is_file() and str(fake_sadu) in annotation["image"]


def test_the_sadu_scorer_gives_the_accuracies_worked_out_by_hand(imported_fake, fake_sadu):
    logs = fake_sadu / "experiment_result" / "response_result" / "default"
    for name, expected in EXPECTED["sadu_accuracy"].items():
        assert _sadu_accuracy(imported_fake[0], logs / f"{name}.log") == expected, name


def test_score_archqa_rescores_the_fixtures_logs_into_a_run(imported_fake, fake_sadu,
                                                            tmp_path):
    logs = sorted((fake_sadu / "experiment_result" / "response_result" / "default")
                  .glob("*.log"))
    for scorer in ("sadu", "strict"):
        summary = _score(imported_fake[0], logs, scorer, tmp_path / scorer)
        models = summary["models"]
        assert set(models) == set(EXPECTED["sadu_accuracy"])
        for name, model in models.items():
            if scorer == "sadu":
                b, s, e, a = EXPECTED["sadu_accuracy"][name]
                assert model["accuracy"] == {"behavioral": b, "structural": s, "er": e,
                                             "all": a}
            else:
                assert model["format_violations"] == EXPECTED["format_violations"][name]
        assert len((tmp_path / scorer / "scores.jsonl").read_text().splitlines()) == 2 * 8


def test_the_reference_judge_gives_both_accuracies_and_table_10_worked_out_by_hand(
        imported_fake, fake_sadu, tmp_path):
    """baseline:judge accepts an answer outside the markers and nothing else SADU's
    scorer rejects: model-b's b0 and s0 (3 and 2, outside) become T_Diff; model-a's
    planted b3 (2 against the published 1) and s1 (Item) stay False."""
    logs = sorted((fake_sadu / "experiment_result" / "response_result" / "default")
                  .glob("*.log"))
    done = run_cli("score", "archqa", "--data", str(imported_fake[0]), "--responses",
                   *map(str, logs), "--scorer", "sadu", "--judge", "baseline:judge",
                   "--out", str(tmp_path / "run"))
    assert done.returncode == 0, done.stderr
    models = json.loads((tmp_path / "run" / "summary.json").read_text())["models"]
    a, b = models["model-a_response_t_0"], models["model-b_response_t_0"]
    assert a["accuracy"]["all"] == a["accuracy_judge"]["all"] == 75.0
    assert b["accuracy"]["all"] == 37.5
    assert b["accuracy_judge"] == {"behavioral": 75.0, "structural": 100.0, "er": 0.0,
                                   "all": 62.5}
    assert {k: b["judge"]["agreement"][k] for k in
            ("T_Same", "F_Same", "T_Diff", "F_Diff", "F_Diff_caption", "All_Same")} == {
        "T_Same": 37.5, "F_Same": 37.5, "T_Diff": 25.0, "F_Diff": 0.0,
        "F_Diff_caption": 37.5, "All_Same": 75.0}
    # Cohen's κ: rule True on 3 of 8, judge True on 5 of 8, agreeing on 6:
    # p_e = (3/8)(5/8) + (5/8)(3/8) = 30/64, κ = (6/8 − 30/64)/(1 − 30/64) = 9/17
    assert b["judge"]["kappa"] == round(9 / 17, 4)
    # SADU's scorer reads nothing outside the markers: no count to compare
    assert b["judge"]["t_diff"] == {"counting": {"unreadable": 2}, "retrieval": {}}
    assert (b["judge"]["asked"], b["judge"]["verdicts"], b["judge"]["call_errors"],
            b["judge"]["unreadable"]) == (8, 8, 0, 0)
    assert "LLM judge baseline:judge" in done.stdout and "62.50" in done.stdout
    # the viewer marks the two answers where the judge and the rules disagree
    assert run_cli("view", str(tmp_path / "run"), "--out", str(tmp_path / "v")).returncode == 0
    view = read_view(tmp_path / "v")
    flags, model = view["fields"].index("flags"), view["fields"].index("model")
    marked = [s[flags] for s in view["samples"] if s[model] == "model-b_response_t_0"]
    assert sorted(map(tuple, marked)) == [()] * 6 + [("the judge disagrees (judge: right)",)] * 2
    assert "warning" not in done.stdout


def test_eval_with_the_reference_judge_needs_no_key(imported_fake, tmp_path):
    """eval's path: baseline:blind's guesses (5 entities, 4 relations, 0 labels, an empty
    list for a named element) are wrong on all 8 fixture questions, by the rules and by
    the judge alike: F_Same 100 %."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    done = run_cli("eval", "archqa", "--data", str(imported_fake[0]), "--model", "baseline:blind",
                   "--judge", "baseline:judge", "--fail-on-error", "0", "--out",
                   str(tmp_path / "run"), env=env)
    assert done.returncode == 0, done.stderr
    model = json.loads((tmp_path / "run" / "summary.json").read_text()
                       )["models"]["baseline:blind"]
    assert model["accuracy"]["all"] == model["accuracy_judge"]["all"] == 0.0
    assert (model["judge"]["asked"], model["judge"]["verdicts"]) == (8, 8)
    assert model["judge"]["agreement"]["F_Same"] == 100.0
    assert model["judge"]["t_diff"] == {"counting": {}, "retrieval": {}}
    assert "LLM judge baseline:judge" in done.stdout


def test_a_failing_judge_is_counted_said_on_the_console_and_fails_the_run(
        imported_fake, fake_sadu, tmp_path):
    logs = sorted((fake_sadu / "experiment_result" / "response_result" / "default")
                  .glob("*.log"))
    env = {**os.environ, "OPENAI_API_KEY": "k", "DIAGBENCH_CACHE": str(tmp_path / "c.sqlite")}
    with FakeServer(["400"] * 16) as server:
        done = run_cli("score", "archqa", "--data", str(imported_fake[0]), "--responses",
                       *map(str, logs), "--judge", f"openai:j@{server.base_url}",
                       "--fail-on-error", "0.5", "--out", str(tmp_path / "run"), env=env)
    assert done.returncode == 1, done.stderr
    assert "warning: the judge failed on 8 and gave no verdict on 0 of the 8 answers of " \
           "model-a_response_t_0 (first: judge call failed: HTTP 400" in done.stdout
    assert "model-b_response_t_0: the judge failed on 8 and gave no verdict on 0 of 8 " \
           "answers, above --fail-on-error 0.5" in done.stderr
    judge = json.loads((tmp_path / "run" / "summary.json").read_text()
                       )["models"]["model-a_response_t_0"]["judge"]
    assert (judge["asked"], judge["verdicts"], judge["call_errors"]) == (8, 0, 8)
    assert judge["agreement"]["n"] == 0 and judge["judge_accuracy"] is None


def test_completion_tokens_count_the_thinking_tokens_gemini_logs_give_apart(
        imported_fake, fake_sadu, tmp_path):
    """Table 3: a Gemini log's thoughts_token are added to its completion_tokens; the
    summary keeps the split. Line i thinks 100·i tokens (mean 350), answers in 9."""
    source = fake_sadu / "experiment_result" / "response_result" / "default" / \
        "model-a_response_t_0.log"
    rows = [json.loads(line) for line in source.read_text().splitlines()]
    for i, row in enumerate(rows):
        row["token_usage"] = {"prompt_tokens": 100, "thoughts_token": 100 * i,
                              "completion_tokens": 9, "cached_content_tokens": None}
    log = tmp_path / "gemini-thinking_response.log"
    log.write_text("".join(json.dumps(r) + "\n" for r in rows))
    tokens = _score(imported_fake[0], [log, source], "strict", tmp_path / "run"
                    )["models"]["gemini-thinking_response"]["tokens"]
    assert tokens["completion"]["all"] == 359.0
    assert (tokens["answer"]["all"], tokens["reasoning"]["all"]) == (9.0, 350.0)
    assert tokens["total"]["all"] == 459.0
    # behavioural questions are lines 0-3: 150 thinking tokens on average
    assert tokens["completion"]["behavioral"] == 159.0


# ----------------------------------------- on SADU's real data (optional, local copy only)

@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    return _import(SAD, tmp_path_factory.mktemp("sadu") / "data")


@needs_sadu
def test_import_reads_2431_questions_and_recomputes_their_answers(imported):
    out, stdout = imported
    info = json.loads((out / "import.json").read_text())
    assert info["questions"] == 2431 and info["diagrams"] == 154
    assert info["by_family"] == {"behavioral": 810, "structural": 848, "er": 773}
    assert len(info["by_subtype"]) == 24
    assert info["recomputed_equal"] == 2376
    assert info["differences_by_reason"] == {"ambiguous name": 30, "template rule": 9,
                                             "ambiguous template": 9,
                                             "duplicate in the published answer": 7}
    assert all(d["reason"] and {"file", "sub_type", "question", "published", "recomputed"}
               <= set(d) for d in info["differences"])
    assert "2376 (97.74 %)" in stdout
    assert len((out / "questions.jsonl").read_text().splitlines()) == 2431
    annotation = json.loads((out / "annotations.jsonl").read_text().splitlines()[0])
    assert Path(annotation["image"]).is_file() and str(SAD) in annotation["image"]


@needs_sadu
def test_the_sadu_scorer_reproduces_sadus_script_on_every_published_log(imported):
    for name, expected in SADU_SCRIPT.items():
        assert _sadu_accuracy(imported[0], LOGS / f"{name}.log") == expected, name


@needs_sadu
def test_score_archqa_rescores_logs_into_a_run(imported, tmp_path):
    logs = [LOGS / "gpt-4o-mini_response_0223_t_0.log",
            LOGS / "qwen_2.5-VL-3B_response_0223_t_0.log"]
    for scorer in ("sadu", "strict"):
        summary = _score(imported[0], logs, scorer, tmp_path / scorer)
        models = summary["models"]
        assert set(models) == {"gpt-4o-mini_response_0223_t_0",
                               "qwen_2.5-VL-3B_response_0223_t_0"}
        accuracy = models["gpt-4o-mini_response_0223_t_0"]["accuracy"]
        assert set(accuracy) == {"behavioral", "structural", "er", "all"}
        if scorer == "sadu":
            assert accuracy["all"] == 17.03
            assert models["qwen_2.5-VL-3B_response_0223_t_0"]["format_violations"] == 0
        else:
            assert models["qwen_2.5-VL-3B_response_0223_t_0"]["format_violations"] > 1000
        assert len((tmp_path / scorer / "scores.jsonl").read_text().splitlines()) == 2 * 2431


def test_report_assembles_tables_8_and_9_from_runs_labelled_by_their_logs_settings(
        imported_fake, fake_sadu, tmp_path):
    source = fake_sadu / "experiment_result" / "response_result" / "default" / \
        "model-a_response_t_0.log"
    rows = [json.loads(line) for line in source.read_text().splitlines()]
    runs = []
    for prompt, level in (("full", None), ("only_question", None), ("full", "low")):
        setting = {"model": "gem-3", "prompt_type": prompt} | (
            {"thinking_level": level} if level else {})
        log = tmp_path / f"{prompt}_{level}.log"
        log.write_text("".join(json.dumps(r | {"setting": setting}) + "\n" for r in rows))
        runs.append(tmp_path / f"run_{prompt}_{level}")
        _score(imported_fake[0], [log, source], "sadu", runs[-1])
    done = run_cli("report", "archqa", *map(str, runs))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Table 8: prompt × model, accuracy (rule-based, scorer sadu")
    # model-a's accuracy by hand: 75.00 / 50.00 / 100.00 / 75.00 (EXPECTED)
    assert [ln.split() for ln in lines if ln.startswith("only-question")] == [
        ["only-question", "gem-3", "default", "75.00", "50.00", "100.00", "75.00"]]
    table_9 = lines[lines.index("Table 9: thinking level × prompt, gem-3, accuracy "
                                "(rule-based)") + 2:]
    assert [ln.split()[:2] for ln in table_9] == [["default", "full"],
                                                  ["default", "only-question"],
                                                  ["low", "full"]]
    # SADU's default log met again (a run holding the same log) is one row
    again = run_cli("report", "archqa", *map(str, runs), str(runs[0]))
    assert again.stdout == done.stdout
    one = run_cli("report", "archqa", str(runs[1]))  # a run of logs: its tables, no eval report
    assert one.returncode == 0 and one.stdout.startswith("Table 8") and "report:" not in one.stdout
    other = run_cli("report", "prior-bias", *map(str, runs[:2]))
    assert other.returncode == 2 and "prior-bias reports one run at a time" in other.stderr


def test_report_labels_eval_runs_by_their_prompt_and_reasoning(imported_fake, tmp_path):
    runs = []
    for prompt, reasoning in (("full", None), ("only-question", None), ("full", "high")):
        runs.append(tmp_path / f"{prompt}-{reasoning}")
        done = run_cli("eval", "archqa", "--data", str(imported_fake[0]), "--model",
                       "baseline:blind", "--prompt", prompt, "--judge", "baseline:judge",
                       *(("--reasoning", reasoning) if reasoning else ()), "--out", str(runs[-1]))
        assert done.returncode == 0, done.stderr
    done = run_cli("report", "archqa", *map(str, runs))
    assert done.returncode == 0, done.stderr
    rows = [ln.split()[:3] for ln in done.stdout.splitlines()
            if ln.split()[1:2] == ["baseline:blind"]]
    # Table 8 by the rules, then by the judge: each with its three rows
    assert rows == 2 * [["full", "baseline:blind", "default"],
                        ["full", "baseline:blind", "high"],
                        ["only-question", "baseline:blind", "default"]]
    assert "Table 8: prompt × model, accuracy (LLM judge)" in done.stdout
    assert "Table 9: thinking level × prompt, baseline:blind, accuracy (rule-based)" \
        in done.stdout
