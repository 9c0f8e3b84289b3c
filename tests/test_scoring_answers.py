"""Deterministic answer parsing (paper 002, Appendix B): True/False/Unknown and class-name
lists from messy model outputs, and the name normalisation used for EM."""

from __future__ import annotations

import pytest

from diagbench.scoring.name_keys import answer_key
from diagbench.scoring.names import names_match, parse_name_list
from diagbench.scoring.truth import parse_truth

TRUTH = [
    ("True", "True", "parsed"), ("false", "False", "parsed"), ("{True}", "True", "parsed"),
    ("**False**", "False", "parsed"), ('"True"', "True", "parsed"), ("`False`", "False", "parsed"),
    ("[Unknown]", "Unknown", "parsed"), ("True.", "True", "parsed"), ("Yes", "True", "parsed"),
    ("no.", "False", "parsed"), ("Correct", "True", "parsed"), ("Incorrect!", "False", "parsed"),
    ("False. The arrow points from Animal to Dog.", "False", "parsed"),
    ("Yes, Dog inherits from Animal.", "True", "parsed"),
    ("No - the diamond is at Engine.", "False", "parsed"),
    ("The answer is: True", "True", "parsed"), ("Answer: false", "False", "parsed"),
    ("Final answer = unknown", "Unknown", "parsed"),
    ("Looking at the arrow, it goes up.\n\nTrue", "True", "parsed"),
    ("```\nFalse\n```", "False", "parsed"),
    ("Cannot determine.", "Unknown", "parsed"),
    ("No arrow is visible, so the relation is unknown", "Unknown", "parsed"),
    ("The relation holds, so the statement is true", "True", "parsed"),
    ("It could be true or false", "Unknown", "ambiguous"),
    ("The arrow points downwards.", "Unknown", "unparsed"),
    ("", "Unknown", "empty"), (None, "Unknown", "empty"), ("   \n", "Unknown", "empty"),
]


@pytest.mark.parametrize(("answer", "label", "status"), TRUTH)
def test_truth_answers(answer, label, status):
    parsed = parse_truth(answer)
    assert (parsed.label, parsed.status) == (label, status)


NAMES = [
    ('["Dog", "Animal"]', ["Dog", "Animal"]),
    ("['Dog', 'Animal',]", ["Dog", "Animal"]),
    ('```json\n["GoldenRetriever", "Dog"]\n```', ["GoldenRetriever", "Dog"]),
    ("[Dog, Animal]", ["Dog", "Animal"]),
    ('The classes are ["Car", "Engine"].', ["Car", "Engine"]),
    ('Draft: ["Car"]\nFinal: ["Car", "Engine"]', ["Car", "Engine"]),
    ("[]", []),
    ("Dog, Animal", None),
    ("", None),
    (None, None),
]


@pytest.mark.parametrize(("answer", "names"), NAMES)
def test_name_lists(answer, names):
    assert parse_name_list(answer) == names


def test_normalisation_and_exact_match():
    assert answer_key(" Golden Retriever ") == "goldenretriever"
    assert answer_key("golden_retriever") == answer_key("GoldenRetriever")
    assert names_match(["dog", "ANIMAL"], ["Animal", "Dog"])
    assert not names_match(["Dog"], ["Dog", "Animal"])
    assert not names_match(["Dog", "Animal", "Cat"], ["Dog", "Animal"])
    assert not names_match(None, ["Dog"])
