"""SADU's Table 7 as its analysis script computes it (`scoring.metrics.sadu_retrieval`,
`benchmarks.archqa.sadu_retrieval`), worked out by hand; and, as an optional check, the
published Table 7 (paper 003) from SADU's published logs in a local copy of its
repository at /tmp/SADU (never part of diagbench; the test skips without it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from diagbench.benchmarks.archqa.records import ArchQAScore, Question
from diagbench.benchmarks.archqa.sadu_retrieval import sadu_form, sadu_table7
from diagbench.scoring.metrics.sadu_retrieval import sadu_retrieval

SADU = Path("/tmp/SADU")


def test_sadu_retrieval_worked_out_by_hand():
    r = sadu_retrieval([
        (["A", "B"], ["A", "B"]),           # exact: P 1, R 1, F1 1, missing 0, spurious 0
        (["A"], ["A", "B", "C"]),           # subset: P 1, R 1/3, F1 0.5, missing 2
        (["A", "A", "X"], ["A", "B"]),      # other (A twice, gold once): O 1, P 1/3, R 1/2,
                                            # F1 0.4, missing 1, spurious 2
        (["A", "B", "Z"], ["A", "B"]),      # superset: P 2/3, R 1, F1 0.8, spurious 1
        ([], ["A"]),                        # empty: subset, P 0, R 0, F1 0, missing 1
        (None, ["A"]),                      # unread: only in the rates' denominators
    ], unformed=1)                          # one more the script could not form
    assert (r.total, r.scored, r.uncomparable) == (7, 5, 1)
    assert r.em_rate == pytest.approx(1 / 7)
    assert r.subset_rate == pytest.approx(2 / 7)
    assert r.superset_rate == pytest.approx(1 / 7)
    assert r.other_rate == pytest.approx(1 / 7)
    assert r.precision == pytest.approx((1 + 1 + 1 / 3 + 2 / 3 + 0) / 5)
    assert r.recall == pytest.approx((1 + 1 / 3 + 1 / 2 + 1 + 0) / 5)
    assert r.f1 == pytest.approx((1 + 0.5 + 0.4 + 0.8 + 0) / 5)
    assert r.missing == pytest.approx((2 + 1 + 1) / 3)    # the non-zero ones: 2, 1, 1
    assert r.spurious == pytest.approx((2 + 1) / 2)       # 2, 1


def test_a_string_is_its_characters_and_unhashable_items_are_uncomparable():
    # SADU's Counter over a string answer counts its characters: "ab" against [a, b]
    r = sadu_retrieval([("ab", ["a", "b", "c"]), ([["x"]], ["x"])])
    assert (r.total, r.scored, r.uncomparable) == (2, 1, 1)
    assert r.subset_rate == 0.5 and r.recall == pytest.approx(2 / 3)


def test_no_answer_and_nothing_missing_are_none_not_zero():
    assert sadu_retrieval([]).em_rate is None
    r = sadu_retrieval([(["A"], ["A"])])
    assert (r.missing, r.spurious, r.f1) == (None, None, 1.0)


def _q(subtype: str, gold: list, family: str = "structural") -> Question:
    return Question("f/d/0", "f/d", family, "?", gold, subtype, "retrieval")  # type: ignore[arg-type]


@pytest.mark.parametrize(("question", "answer", "form"), [
    (_q("relation_source", ["B", "A", "A"]), ["C", "A"], (["A", "C"], ["A", "A", "B"])),
    (_q("type_on_the_relation", [["one", "many"]], "er"), ["one", "many"],
     (["one", "many"], ["one", "many"])),
    (_q("entity_contains_certain_method", ["run", "add"]), ["run()", "add()"],
     (["add", "run"], ["add", "run"])),
    (_q("which_relation_has_certain_label", [["A", "B"], ["C", "D"]]), ["['A', 'B']", "x"],
     (["A", "B"], ["A", "B"])),
    (_q("which_relation_has_certain_label", [["A", "B"]]), ["[A, B"], ("[A, B", ["A", "B"])),
    (_q("relation_target", ["A"]), "BA", (["A", "B"], ["A"])),
    (_q("relation_target", ["A"]), None, (None, ["A"])),
    (_q("relation_target", ["A"]), 3, None),                      # sorted(3): SADU stops
    (_q("entity_contains_certain_method", ["a"]), [1], None),     # 1.replace: SADU stops
])
def test_the_forms_sadus_script_compares(question, answer, form):
    assert sadu_form(question, answer) == form


def test_table7_only_for_the_sadu_scorer_and_per_family():
    questions = {q.id: q for q in (
        Question("structural/d/0", "structural/d", "structural", "?", ["A", "B"],
                 "relation_source", "retrieval"),
        Question("er/e/0", "er/e", "er", "?", ["A"], "relation_target", "retrieval"),
        Question("er/e/1", "er/e", "er", "?", [3], "total_entity_number", "counting"))}

    def score(qid: str, answer: object) -> ArchQAScore:
        q = questions[qid]
        return ArchQAScore("m", qid, q.family, q.subtype, q.kind, None, "sadu", "ok", False,
                           answer=answer)

    scores = [score("structural/d/0", ["A"]), score("er/e/0", None), score("er/e/1", 3)]
    assert sadu_table7("strict", scores, questions) is None
    table = sadu_table7("sadu", scores, questions)
    assert table is not None and table["behavioral"] is None
    assert (table["structural"]["total"], table["structural"]["subset_rate"],
            table["structural"]["missing"]) == (1, 1.0, 1.0)
    assert (table["er"]["total"], table["er"]["scored"], table["er"]["precision"]) == (1, 0, None)
    assert (table["all"]["total"], table["all"]["recall"]) == (2, 0.5)


# ------------------------------------ SADU's published data (optional, local copy only)

#: Table 7 of paper 003 (Precision, Recall, F1, EMRate, SubsetRate, SupersetRate,
#: Missing, Spurious), keyed by the name of the model's published log.
TABLE_7 = {
    "gemini-2.5-flash-lite_response_0223_t_0": (0.70, 0.69, 0.68, 0.53, 0.09, 0.06, 1.79, 5.85),
    "gemini-2.5-flash_response_0223_t_0": (0.79, 0.79, 0.78, 0.63, 0.10, 0.07, 1.85, 2.71),
    "gemini-3.1-flash-lite-preview_response_0223_t_0": (0.79, 0.77, 0.77, 0.68, 0.08, 0.02,
                                                        1.81, 2.27),
    "gemini-3-flash-preview_response_0223_t_0": (0.87, 0.76, 0.79, 0.58, 0.21, 0.01, 2.39, 1.53),
    "claude-haiku-4-5_response_0223_t_0": (0.67, 0.66, 0.65, 0.49, 0.10, 0.06, 1.84, 4.05),
    "claude-sonnet-4-5_response_0223_t_0": (0.73, 0.73, 0.72, 0.58, 0.08, 0.07, 1.82, 4.14),
    "gpt-5-nano_response_0223_t_1": (0.72, 0.68, 0.69, 0.57, 0.10, 0.03, 1.90, 2.98),
    "gpt-4o-mini_response_0223_t_0": (0.36, 0.46, 0.38, 0.18, 0.03, 0.19, 2.06, 3.57),
    "qwen_2.5-VL-32B_response_0223_t_0": (0.72, 0.66, 0.68, 0.53, 0.15, 0.02, 1.86, 1.71),
    "qwen_2.5-VL-7B_response_0223_t_0": (0.65, 0.60, 0.61, 0.46, 0.12, 0.04, 1.72, 2.87),
    "qwen_2.5-VL-3B_response_0223_t_0": (0.59, 0.52, 0.53, 0.26, 0.10, 0.01, 1.96, 3.90),
}
_KEYS = ("precision", "recall", "f1", "em_rate", "subset_rate", "superset_rate", "missing",
         "spurious")


@pytest.mark.skipif(not (SADU / "dataset" / "SAD").is_dir(),
                    reason="optional check on SADU's real data: no local copy at /tmp/SADU")
def test_table7_as_published_from_sadus_logs(tmp_path):
    logs = SADU / "experiment_result" / "response_result" / "default"
    cli = [sys.executable, "-m", "diagbench"]
    subprocess.run([*cli, "import", "sadu", str(SADU / "dataset" / "SAD"), "--out",
                    str(tmp_path / "data")], check=True, capture_output=True)
    subprocess.run([*cli, "score", "archqa", "--data", str(tmp_path / "data"), "--scorer",
                    "sadu", "--out", str(tmp_path / "run"), "--responses",
                    *(str(logs / f"{name}.log") for name in TABLE_7)],
                   check=True, capture_output=True)
    models = json.loads((tmp_path / "run" / "summary.json").read_text())["models"]
    for name, cells in TABLE_7.items():
        row = models[name]["retrieval_sadu"]["all"]
        assert tuple(round(row[k], 2) for k in _KEYS) == cells, name
