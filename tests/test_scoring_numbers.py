"""The number reader on the sentences models answer with: a number before a full stop,
numbers the question itself names, and the near-misses that must stay as they were
(a decimal, a version, two different numbers). Every expected reading is by hand."""

from __future__ import annotations

import pytest

from diagbench.benchmarks.structure.scoring import read_answer
from diagbench.scoring.strict import parse_number, question_numbers

PAIRS = "Which base pairs with base 27?\nAnswer with the number only."


@pytest.mark.parametrize(("answer", "question", "value", "status"), [
    # a number before a full stop ends the sentence: it is the number
    ("There are 12.", None, 12.0, "parsed"),
    ("Black has 7.", None, 7.0, "parsed"),
    ("The tree has 5 leaves.", None, 5.0, "parsed"),
    ("I count 3 rings!", None, 3.0, "parsed"),
    # the question's own number echoed beside the answer
    ("Base 27 pairs with base 52.", PAIRS, 52.0, "parsed"),
    ("27 pairs with 52", PAIRS, 52.0, "parsed"),
    ("Node 5 has 3 neighbours.", "How many neighbours does node 5 have?", 3.0, "parsed"),
    # ... and read when it is the only number, or stated by an envelope
    ("There are 2.", "How many nodes have degree 2?", 2.0, "parsed"),
    ("5 nodes have degree 5.", "How many nodes have degree 5?", 5.0, "parsed"),
    ("Answer: 27", PAIRS, 27.0, "parsed"),
    ("27", PAIRS, 27.0, "parsed"),
    # without the question both numbers are candidates
    ("Base 27 pairs with base 52.", None, None, "ambiguous"),
    # two fresh numbers stay ambiguous though the question's is left out
    ("Base 27 pairs with base 52 or 53.", PAIRS, None, "ambiguous"),
    ("Base 27 pairs with 52, base 30 with 41.", PAIRS, None, "ambiguous"),
    # near-misses: a decimal is one number, a version or a word's digit is none
    ("12.5", None, 12.5, "parsed"),
    ("The mean is 12.5.", None, 12.5, "parsed"),
    ("Version 2. There are 12 nodes.", None, None, "ambiguous"),
    ("Release 1.2.3 of the tool", None, None, "unparsed"),
    ("H2O has 3 atoms.", None, 3.0, "parsed"),
    ("There are 12 classes, 3 abstract.", None, None, "ambiguous"),
    ("There are twelve.", None, None, "unparsed"),
    ("Answer: 3 -4", None, None, "ambiguous"),  # a dash joins two values, as before
    # a list item's number opening its line is no candidate, with or without a bullet
    ("The entities are:\n1. Gateway\n2. Queue\nThere are 2.", None, 2.0, "parsed"),
    ("Counting the boxes:\n- 1. Large box labeled rg-", None, None, "unparsed"),
    # a number in a label stands alone too: two different numbers, none stated
    ("There are 2 labels:\n1. The arrow labeled key 1.\n2. The arrow labeled key 2.", None,
     None, "ambiguous"),
])
def test_numbers_in_sentences(answer, question, value, status):
    r = parse_number(answer, question)
    assert (r.value, r.status) == (value, status)


def test_the_numbers_a_question_names():
    assert question_numbers("Is base 12 paired with base 1,200?") == {12.0, 1200.0}
    assert question_numbers("How many rings?") == frozenset()
    assert question_numbers(None) == frozenset()


def test_structure_passes_the_question_to_the_number_reader():
    status, value, right = read_answer("structural", "Base 27 pairs with base 52.", 52,
                                       "number", PAIRS)
    assert (status, value, right) == ("parsed", 52.0, True)
    assert read_answer("structural", "Base 27 pairs with base 52.", 52, "number")[0] == \
        "ambiguous"
