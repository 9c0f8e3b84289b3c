"""An answer naming two values (`3 or 4`, `A or B`, `True or False`) states neither: it
is ambiguous and wrong wherever it is read — the number, choice and yes/no readers of
`scoring`, and through them every benchmark's reader (structure's four answer types and
its judge's verdict, prior-bias's verdicts, archqa's strict and SADU scorers) — while a
value stated once, with other numbers or letters elsewhere in the answer, is still
read."""

from __future__ import annotations

import pytest

from diagbench.benchmarks.archqa.records import Question
from diagbench.benchmarks.archqa.scorers import judge
from diagbench.benchmarks.asking import Answer
from diagbench.benchmarks.prior_bias.scoring import _score as prior_bias_score
from diagbench.benchmarks.structure.scoring import read_answer
from diagbench.scoring.strict import parse_choice, parse_number
from diagbench.scoring.truth import parse_truth

TWO_NUMBERS = ["3 or 4", "Answer: 3 or 4", "The answer is 3 or 4.", "3 (or 4)", "3, maybe 4",
               "The answer is 3, or possibly 4", "3-4", "3 to 4", "Answer: 3/4", "3 and 4",
               "3 classes or 4", "either 3 or 4", "**Answer:** 3 or 4 classes",
               "Answer: 3.5 or 4.5."]
TWO_CHOICES = ["A or B", "Answer: A or B", "(A) or (B)", "B or C.", "Answer: (B), maybe (C)",
               "B) or C)", "B, C", "Answer: NONE or A"]


@pytest.mark.parametrize(("reader", "answer"), [(parse_number, a) for a in TWO_NUMBERS]
                         + [(parse_choice, a) for a in TWO_CHOICES])
def test_a_value_offered_with_another_is_ambiguous(reader, answer):
    assert (reader(answer).value, reader(answer).status) == (None, "ambiguous")


@pytest.mark.parametrize(("reader", "answer", "value"), [
    (parse_number, "13 classes", 13.0),
    (parse_number, "12 classes are drawn, 3 of them abstract", 12.0),
    (parse_number, "Answer: 1,200", 1200.0), (parse_number, "Answer: 3 or 3.0", 3.0),
    (parse_number, "Answer: 7 (from 3 + 4)", 7.0),
    (parse_number, "The diagram has 3 classes.\nAnswer: 5", 5.0),
    (parse_number, "Answer: 4.", 4.0), (parse_number, "3,", 3.0),
    (parse_choice, "B. A is wrong", "B"), (parse_choice, "Answer: B (A is wrong)", "B"),
    (parse_choice, "B) Because A class is drawn", "B"),
    (parse_choice, "Answer: B, A class has no arrow", "B"),
])
def test_one_value_stated_is_still_read(reader, answer, value):
    assert reader(answer).value == value


@pytest.mark.parametrize("answer", [
    "Answer: True or False", "True, or maybe false", "True/False", "yes/no", "Yes (or no)",
    '"True" or "False"', "**True** or **False**", "Final answer: false or unknown",
])
def test_a_verdict_offered_with_another_is_ambiguous(answer):
    assert (parse_truth(answer).label, parse_truth(answer).status) == ("Unknown", "ambiguous")


@pytest.mark.parametrize(("answer", "label"), [
    ("Yes, no arrow is drawn", "True"), ("True or true", "True"),
    ("No - the diamond is at Engine.", "False"),
])
def test_one_verdict_stated_is_still_read(answer, label):
    assert parse_truth(answer).label == label


@pytest.mark.parametrize(("task", "answer_type", "gold", "answer"), [
    ("structural", None, 3, "Answer: 3 or 4"),
    ("association", None, "A", "Answer: A or B"),
    ("problem_match", None, "yes", "Answer: yes or no"),
    ("model_question", "label", "Order Service", "Order Service or Payment Service"),
    ("model_question", "label", "Order Service", "Order Service, maybe Payment Service"),
])
def test_structure_reads_two_values_as_ambiguous_and_wrong(task, answer_type, gold, answer):
    status, _, right = read_answer(task, answer, gold, answer_type)
    assert (status, right) == ("ambiguous", False)


def test_a_structure_label_with_or_in_its_gold_is_right():
    assert read_answer("model_question", "Read or Write", "Read or Write", "label")[:3:2] == (
        "parsed", True)


def test_prior_bias_reads_true_or_false_as_unknown():
    from diagbench.benchmarks.prior_bias.records import Item

    item = Item("i0", "d0", "inheritance", "prior-conform", ("Dog", "Animal"),
                ("Dog", "Animal"), True)
    names = Answer("names", "ok", '["Dog", "Animal"]')
    for text, label, parse, right in (("True or False", "Unknown", "ambiguous", False),
                                      ("True", "True", "parsed", True)):
        record = prior_bias_score("m", item, "small", names, Answer("i0", "ok", text))
        assert (record.label, record.parse, record.correct) == (label, parse, right)


@pytest.mark.parametrize("scorer", ["strict", "sadu"])
@pytest.mark.parametrize("response", [
    '[start] {"answer": "3 or 4"} [end]', '[start] {"answer": [3, 4]} [end]',
    '[start] {"answer": "3-4"} [end]',
])
def test_archqa_scorers_call_a_count_naming_two_values_wrong(scorer, response):
    q = Question("behavioral/x/0", "behavioral/x", "behavioral", "How many entities?", [3],
                 "total_entity_number", "counting")
    assert judge(scorer, q, response, q.gold).correct is False


@pytest.mark.parametrize("scorer", ["strict", "sadu"])
def test_archqa_scorers_call_a_type_naming_two_values_wrong(scorer):
    q = Question("structural/x/0", "structural/x", "structural", "What type?",
                 ["association"], "type_on_the_relation", "retrieval")
    response = '[start] {"answer": ["association or aggregation"]} [end]'
    assert judge(scorer, q, response, q.gold).correct is False


@pytest.mark.parametrize("reply", ["correct: true or false", "correct: true/false",
                                   "correct: true, maybe false", "correct: true\ncorrect: false"])
def test_structure_judge_verdict_naming_two_values_is_no_verdict(reply):
    from diagbench.benchmarks.structure.judging import parse_verdict

    assert parse_verdict(reply).status == "unparsable"
