"""archqa against SADU's published data (paper 003): the question logic on a hand-made
annotation; `import sadu` and `score archqa --responses` on a local copy of SADU's
repository at /tmp/SADU (its files are never part of diagbench: these tests skip when
the copy is absent, as in CI)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from diagbench.benchmarks.archqa.questions import TEMPLATES, recompute
from diagbench.benchmarks.archqa.records import Annotation, Cluster, Entity, Relation

SADU = Path("/tmp/SADU")
SAD = SADU / "dataset" / "SAD"
LOGS = SADU / "experiment_result" / "response_result" / "default"
needs_sadu = pytest.mark.skipif(not (SAD / "ER" / "QA").is_dir() or not LOGS.is_dir(),
                                reason="no local copy of SADU's repository at /tmp/SADU")

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


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    out = tmp_path_factory.mktemp("sadu") / "data"
    done = subprocess.run([sys.executable, "-m", "diagbench", "import", "sadu", str(SAD),
                           "--out", str(out)], capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    return out, done.stdout


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
    from diagbench.benchmarks.archqa.answers import read_log
    from diagbench.benchmarks.archqa.data import load_data
    from diagbench.benchmarks.archqa.scorers import judge

    questions, _, _ = load_data(imported[0])
    by_id = {q.id: q for q in questions}
    for name, expected in SADU_SCRIPT.items():
        log = read_log(LOGS / f"{name}.log", questions)
        assert len(log.answers) == 2431 and not log.unmatched and not log.gold_differs
        cells: defaultdict[str, list[bool]] = defaultdict(list)
        for qid, logged in log.answers.items():
            q = by_id[qid]
            ok = judge("sadu", q, logged.response, q.gold).correct
            cells[q.family].append(ok)
            cells["all"].append(ok)
        got = tuple(round(100 * sum(cells[f]) / len(cells[f]), 2)
                    for f in ("behavioral", "structural", "er", "all"))
        assert got == expected, name


@needs_sadu
def test_score_archqa_rescores_logs_into_a_run(imported, tmp_path):
    logs = [LOGS / "gpt-4o-mini_response_0223_t_0.log",
            LOGS / "qwen_2.5-VL-3B_response_0223_t_0.log"]
    for scorer in ("sadu", "strict"):
        run = tmp_path / scorer
        done = subprocess.run([sys.executable, "-m", "diagbench", "score", "archqa", "--data",
                               str(imported[0]), "--responses", *map(str, logs), "--scorer",
                               scorer, "--out", str(run)], capture_output=True, text=True,
                              timeout=600, check=False)
        assert done.returncode == 0, done.stderr
        summary = json.loads((run / "summary.json").read_text())
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
        assert len((run / "scores.jsonl").read_text().splitlines()) == 2 * 2431
        assert (run / "report.html").is_file() and len(summary["paired"]) == 1
