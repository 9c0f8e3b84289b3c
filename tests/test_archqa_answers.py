"""archqa answer reading and scoring (paper 003, SADU): the strict reader and SADU's
reading on a table of messy answers; the Python-literal parser that replaces SADU's eval;
both scorers' comparisons, subtype by subtype."""

from __future__ import annotations

import pytest

from diagbench.benchmarks.archqa.records import Question
from diagbench.benchmarks.archqa.scorers import judge
from diagbench.scoring.marked_answer import read_marked, sadu_read
from diagbench.scoring.py_literal import parse_literal

COUNT_FORMAT = ('\nRequired Output Format (strict).\n[start]\n{"answer": x}\n[end]\nThe answer '
                "MUST be a valid JSON object.\nx must be a number.\n")
LIST_FORMAT = ('\nRequired Output Format (strict).\n[start]\n{"answer": ["x1", "x2", ...]}\n'
               '[end]\nThe answer MUST be a valid JSON object.Replace "x1", "x2", ... with '
               "the actual answer strings.")

# response → (strict value, where, error), SADU's (value, error)
MESSY = [
    ('[start]\n{"answer": 6}\n[end]', (6, "markers", None), (6, None)),
    ('[start]\n{"answer": "6"}\n[end]', ("6", "markers", None), (["6"], None)),
    ('[start] {"answer": ["b", "a"]} [end]', (["b", "a"], "markers", None), (["a", "b"], None)),
    # code fences inside the markers
    ('[start]\n```json\n{"answer": 3}\n```\n[end]', (3, "markers", None),
     (None, "json_error")),
    # markers missing: JSON in a code fence after reasoning
    ('The diagram shows three boxes.\n```json\n{"answer": 3}\n```', (3, "outside", None),
     (None, "format_error")),
    # prose around the JSON, no markers
    ('I count them: {"answer": 4}. Hope that helps.', (4, "outside", None),
     (None, "format_error")),
    # reasoning text that quotes the format before the real answer
    ('Format is [start] {"answer": x} [end]. Counting…\n[start]\n{"answer": 7}\n[end]',
     (7, "markers", None), (None, "json_error")),
    # [end] missing, the object complete
    ('[start]\n{"answer": ["A", "B"]}', (["A", "B"], "open_marker", None), (["A"], None)),
    # cut short inside the list: strict reads nothing; SADU keeps the complete items
    ('[start]\n{"answer": ["A", "B", "C', (None, None, "cut_short"), (["A", "B"], None)),
    # the placeholder copied
    ('[start]\n{"answer": ["A", "x2", ...]}\n[end]', (None, None, "no_answer"),
     (["A"], None)),
    # a list of lists
    ('[start]\n{"answer": [["Customer", "Order"]]}\n[end]',
     ([["Customer", "Order"]], "markers", None), ([["Customer", "Order"]], None)),
    # }] instead of ]}
    ('[start]\n{"answer": ["A"}]\n[end]', (None, None, "no_answer"), (["A"], None)),
    # no "answer" key; empty; a mixed list SADU cannot sort
    ('[start]\n{"result": 3}\n[end]', (None, None, "no_answer"), (None, "json_key_error")),
    ("", (None, None, "empty"), (None, "format_error")),
    ('[start]\n{"answer": ["a", 1]}\n[end]', (["a", 1], "markers", None),
     (None, "sort_error")),
]


@pytest.mark.parametrize(("response", "strict", "sadu"), MESSY)
def test_messy_answers_read_strictly_and_as_sadu_does(response, strict, sadu):
    got = read_marked(response)
    assert (got.value, got.where, got.error) == strict
    reading = sadu_read(response)
    assert (reading.value, reading.error) == sadu


def test_the_last_marker_block_with_an_answer_wins():
    text = '[start]\n{"answer": 1}\n[end]\nWait, recount.\n[start]\n{"answer": 2}\n[end]'
    assert read_marked(text).value == 2
    assert sadu_read(text).value == 1  # SADU takes the first block


@pytest.mark.parametrize(("text", "value"), [
    ("['A', 'B']", ["A", "B"]),
    ('["A", "B"]', ["A", "B"]),
    ("  ('A', 'B')", ("A", "B")),
    ("['A', 'B'], ['C', 'D']", (["A", "B"], ["C", "D"])),
    ("[u'it\\'s', r'a\\b']", ["it's", "a\\b"]),
    ("{'a': [1, -2.5e1], 'b': None}", {"a": [1, -25.0], "b": None}),
    ("[True, False, 0x1F]", [True, False, 31]),
    ("['a' 'b']", ["ab"]),
    ("[\n 'A',\n 'B',\n]", ["A", "B"]),
])
def test_python_literals_are_parsed(text, value):
    assert parse_literal(text) == value
    assert type(parse_literal(text)) is type(value)


@pytest.mark.parametrize("text", ["[Customer, Order]", "__import__('os')", "[1 + 1]",
                                  "['a'", "012", "{[1]: 2}", "", "['a']\n['b']",
                                  "f'{x}'", "[A -> B]"])
def test_anything_but_a_literal_is_refused(text):
    with pytest.raises(ValueError):
        parse_literal(text)


@pytest.mark.parametrize("text", ["[" * 1000 + "]" * 1000, "-" * 100_000 + "1", "1" * 5000,
                                  "'a\0b'\0"])
def test_literals_past_the_parsers_limits_are_refused_as_not_literals(text):
    with pytest.raises(ValueError):
        parse_literal(text)


@pytest.mark.parametrize(("text", "value"), [
    ("\n['A']", ["A"]),  # a blank line first: eval reads it too
    ("[1j]", [1j]),
    ("[b'A']", [b"A"]),
    ("set()", set()),
    ("[0o17, 0b1]", [15, 1]),
    ("['A', ...]", ["A", Ellipsis]),  # the format's placeholder: eval reads it as Ellipsis
])
def test_what_eval_reads_of_literals_is_read_alike(text, value):
    """Literals SADU's `eval` reads and diagbench's earlier hand-written reader refused: a
    leading blank line, complex numbers, bytes, set(), octal and binary integers, `...`."""
    assert parse_literal(text) == value


def _q(subtype, kind, gold, family="structural", text=""):
    return Question("f/d/0", "f/d", family, text + (COUNT_FORMAT if kind == "counting"
                                                    else LIST_FORMAT),
                    gold, subtype, kind)


def _both(question, response):
    return (judge("sadu", question, response, question.gold).correct,
            judge("strict", question, response, question.gold).correct)


COUNT = _q("total_entity_number", "counting", [6])
NAMES = _q("relation_source", "retrieval", ["Order", "User"])
METHODS = _q("entity_contains_certain_method", "retrieval", ["create", "delete"])
CARDS = _q("type_on_the_relation", "retrieval", [["one or more", "exactly one"]], "er")
SORTED_CARDS = _q("type_on_the_relation", "retrieval", [["exactly one", "zero or more"]], "er")
LABEL = _q("which_relation_has_certain_label", "retrieval", [["Customer", "Order"]])
TYPE = _q("type_on_the_relation", "retrieval", ["association"])


@pytest.mark.parametrize(("question", "response", "sadu", "strict"), [
    (COUNT, '[start]{"answer": 6}[end]', True, True),
    (COUNT, '[start]{"answer": 6.0}[end]', True, True),
    (COUNT, '[start]{"answer": "6"}[end]', False, True),  # "6" for 6
    (COUNT, '[start]{"answer": [6]}[end]', False, True),
    (COUNT, '[start]{"answer": true}[end]', False, False),
    (COUNT, '{"answer": 6}', False, True),  # outside the markers: counted apart
    (COUNT, '[start]{"answer": 5}[end]', False, False),
    (NAMES, '[start]{"answer": ["User", "Order"]}[end]', True, True),
    (NAMES, '[start]{"answer": ["User", "Order", "User"]}[end]', False, True),
    (NAMES, '[start]{"answer": ["user", "Order"]}[end]', False, False),  # case sensitive
    (NAMES, '[start]{"answer": ["User ", "Order"]}[end]', False, True),  # whitespace
    (NAMES, '[start]{"answer": "Order"}[end]', False, False),
    (METHODS, '[start]{"answer": ["create()", "delete()"]}[end]', True, True),
    (METHODS, '[start]{"answer": ["create(id)", "delete()"]}[end]', False, True),
    # ER cardinalities: SADU sorts the answer, so order is lost — and then only a gold
    # pair that happens to be in sorted order can be matched
    (CARDS, '[start]{"answer": ["one or more", "exactly one"]}[end]', False, True),
    (CARDS, '[start]{"answer": ["exactly one", "one or more"]}[end]', False, False),
    (SORTED_CARDS, '[start]{"answer": ["zero or more", "exactly one"]}[end]', True, False),
    (CARDS, '[start]{"answer": [["one or more", "exactly one"]]}[end]', False, True),
    # relation pairs: SADU compares the first item; a flat pair gets sorted
    (LABEL, '[start]{"answer": [["Customer", "Order"]]}[end]', True, True),
    (LABEL, '[start]{"answer": [["Order", "Customer"]]}[end]', False, False),
    (LABEL, '[start]{"answer": ["Customer", "Order"]}[end]', False, True),
    (LABEL, '[start]{"answer": ["[\'Customer\', \'Order\']"]}[end]', True, True),
    (LABEL, '[start]{"answer": ["[Customer, Order]"]}[end]', False, True),
    (TYPE, '[start]{"answer": ["Association"]}[end]', False, True),
])
def test_sadu_and_strict_comparisons(question, response, sadu, strict):
    assert _both(question, response) == (sadu, strict)


def test_strict_notes_what_it_accepted_and_flags_answers_outside_the_markers():
    judged = judge("strict", COUNT, 'Sure: {"answer": "6"}', COUNT.gold)
    assert judged.correct and judged.where == "outside"
    assert judged.notes == ("a number written as a string",)
    assert judged.prediction == 6 and judged.gold == 6


def test_a_crash_of_sadus_script_is_a_parse_error_not_an_exception():
    judged = judge("sadu", METHODS, '[start]{"answer": 3}[end]', METHODS.gold)
    assert not judged.read and not judged.correct and "TypeError" in (judged.error or "")


def test_a_summary_worked_out_by_hand():
    from types import SimpleNamespace

    from diagbench.benchmarks.archqa.summary import score_model, summarize_model

    count2 = _q("total_relation_number", "counting", [5], "er")
    count2 = Question("f/e/1", "f/e", "er", count2.text, [5], count2.subtype, "counting")
    names = Question("f/d/2", "f/d", "structural", NAMES.text, NAMES.gold, NAMES.subtype,
                     "retrieval")
    questions = [COUNT, count2, names]

    def ok(text):
        return SimpleNamespace(status="ok", text=text, error=None, usage=None)

    responses = {COUNT.id: ok('[start]{"answer": 7}[end]'),  # gold 6: off by +1
                 count2.id: ok('{"answer": 5}'),  # right, outside the markers
                 names.id: ok('[start]{"answer": ["User"]}[end]')}  # gold {Order, User}
    scores = score_model("m", questions, responses, "strict")
    m = summarize_model(scores)
    assert m["accuracy"] == {"behavioral": None, "structural": 0.0, "er": 100.0,
                             "all": 33.33}
    # counting: |7 − 6| = 1, |5 − 5| = 0 → Acc ½, Acc@±1 1, MAE ½, Bias ½, one over
    assert m["counting"]["all"] == {"n": 2, "acc": 0.5, "acc_1": 1.0, "acc_2": 1.0,
                                    "mae": 0.5, "bias": 0.5, "p_over": 0.5, "p_under": 0.0}
    # retrieval: P = {User}, G = {Order, User} → precision 1, recall ½, F1 ⅔, a subset
    r = m["retrieval"]["all"]
    assert (r["precision"], r["recall"], r["f1"], r["subset_rate"], r["missing"]) == \
        (1.0, 0.5, 0.6667, 1.0, 1.0)
    assert m["format_violations"] == 1 and m["format_violations_correct"] == 1
    assert m["accuracy_within_format"]["all"] == 0.0
