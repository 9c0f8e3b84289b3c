"""STRUDEL's answer matching and image-to-code formula, on answers worked by hand."""

from __future__ import annotations

import pytest

from diagbench.scoring.strudel_matching import (
    final_text,
    node_type_f1,
    strudel_code_score,
    strudel_match,
    windows,
)


def test_letter_gold_found_in_the_word_answer():
    # gold "A", window = first 1 + 15 = 16 characters: "Answer: (B)" holds the A of "Answer"
    m = strudel_match("Answer: (B)", "A")
    assert m.correct and m.window == "Answer: (B)"


def test_letter_is_case_sensitive():
    assert not strudel_match("(b) it is b", "A").correct  # no capital A anywhere


def test_number_inside_a_larger_number():
    assert strudel_match("13", "3").correct
    assert strudel_match("There are 30 nodes.", "3").correct
    assert not strudel_match("There are 4 nodes.", "3").correct


def test_no_inside_none_and_yes_as_true():
    assert strudel_match("None of them.", "no").correct
    assert strudel_match("TRUE", "Yes").correct
    assert not strudel_match("Yes.", "No").correct


def test_windows_of_a_long_answer():
    # gold "7": windows of 16 characters: start, end, after "nswer:", after "answer is"
    text = "Let me count the boxes one by one. The answer is 7 in total. Answer: 7"
    assert windows(text, "7") == [text[:16], text[-16:], " 7", " 7 in total. Ans"]
    # a short answer has the start window only
    assert windows("7", "7") == ["7"]


def test_the_middle_of_a_long_answer_is_not_read():
    text = "I looked at every part of the picture. 5 is there. Then I checked it all again, twice."
    assert not strudel_match(text, "5").correct


def test_reasoning_and_markers_removed():
    assert final_text("<think>A? B?</think> **\\boxed{C}**") == "\\{C}"
    assert not strudel_match("<think>the answer is A</think> C", "A").correct


def test_no_answer_is_wrong():
    assert not strudel_match(None, "A").correct
    assert not strudel_match("", "A").correct


def test_node_type_f1_by_hand():
    # gold 2 classes + 1 interface, predicted 1 class + 1 enum: tp 1, P 1/2, R 1/3, F1 0.4
    assert node_type_f1({"class": 2, "interface": 1}, {"class": 1, "enum": 1}) \
        == pytest.approx(0.4)
    assert node_type_f1({"class": 2}, {"class": 2, "note": 0}) == 1.0
    assert node_type_f1({}, {}) == 1.0
    assert node_type_f1({"class": 1}, {}) == 0.0


def test_code_score_is_the_mean_of_renders_and_f1():
    assert strudel_code_score(True, 0.4) == pytest.approx(0.7)
    assert strudel_code_score(False, 1.0) == 0.5


def test_a_failed_call_is_wrong_both_ways_and_in_the_denominators(tmp_path):
    """Two choice questions (gold A): one answered "Answer: (B)", one call failed. Strict:
    0 of 2; STRUDEL's: 1 of 2 (the A of "Answer"); one disagreement."""
    from diagbench.benchmarks.asking import Answer
    from diagbench.benchmarks.structure.matching import matching_summary, score_both
    from diagbench.benchmarks.structure.records import StructureTask
    from diagbench.benchmarks.structure.scoring import score_model

    tasks = [StructureTask(f"s{i}/identification/0", f"s{i}", "identification", "class",
                           "plantuml", "plantuml", "images/x.png", "Which?", "A",
                           answer_type="choice") for i in (1, 2)]
    answers = {"s1/identification/0": Answer("s1/identification/0", "ok", "Answer: (B)"),
               "s2/identification/0": Answer("s2/identification/0", "call_error",
                                             error="HTTP 500")}
    strict = score_model("m", tasks, answers, tmp_path)
    both = score_both(strict, tasks, answers, {}, tmp_path, "strict")
    s = matching_summary(both, "strict")
    assert s is not None
    assert (s.questions, s.strict_accuracy, s.strudel_accuracy) == (2, 0.0, 50.0)
    assert (s.disagree, s.strudel_only, s.strict_only) == (1, 1, 0)
    assert [bool(r.correct) for r in both] == [False, False]  # by the strict reading
    loose = score_both(strict, tasks, answers, {}, tmp_path, "strudel")
    assert [bool(r.correct) for r in loose] == [True, False]
