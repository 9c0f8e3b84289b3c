"""The strict set reader: every item right, none missing, none extra, order and
repeats ignored, items compared under the label key; and the structure benchmark asking
list-valued facts with it. Every reading and verdict is worked out by hand."""

from __future__ import annotations

import pytest

from diagbench.benchmarks.structure.records import StructureTask
from diagbench.benchmarks.structure.scoring import read_answer
from diagbench.benchmarks.structure.tasks import ANSWER_SET, fact_question
from diagbench.diagram.facts import Fact
from diagbench.scoring.item_sets import parse_set, sets_match


@pytest.mark.parametrize(("answer", "items"), [
    ("C, N, O", ("C", "N", "O")),
    ("Answer: C, N and O.", ("C", "N", "O")),
    ("C; N; O", ("C", "N", "O")),
    ("A, B, and C", ("A", "B", "C")),
    ("Carbon & oxygen", ("Carbon", "oxygen")),
    ('["C", "O"]', ("C", "O")),
    ("['C', 'O',]", ("C", "O")),
    ('```json\n["t1", "t2"]\n```', ("t1", "t2")),
    ("The set is [C, O].", ("C", "O")),
    ("- C\n- O", ("C", "O")),
    ("* hydroxyl\n* carboxylic acid", ("hydroxyl", "carboxylic acid")),
    ("The positions:\n1. 4\n2. 9\n3. 12", ("4", "9", "12")),
    ("The elements are: C, O", ("C", "O")),
    ("Looking at the drawing.\n\n**Answer:** C, H, O", ("C", "H", "O")),
    ("C (carbon), H (hydrogen), O", ("C", "H", "O")),
    ("C\nN", ("N",)),  # lines without bullets are no list: the last line is read
    ("C (carbon), H [hydrogen], O", ("C", "H [hydrogen", "O")),  # only (…) is a remark
    ("None.", ()), ("nothing", ()), ("None of them", ()), ("There are none.", ()),
    ("Answer: none", ()), ("[]", ()),
])
def test_items_read(answer, items):
    assert parse_set(answer).items == items
    assert parse_set(answer).status == "parsed"


@pytest.mark.parametrize(("answer", "status"), [
    ("C or N", "ambiguous"), ("C, maybe O", "ambiguous"), ("C, N?", "ambiguous"),
    ("- C\n- either N or O", "ambiguous"),
    ("The atoms bonded to nitrogen in this molecule are carbon", "unparsed"),
    ("...", "unparsed"), ("", "empty"), (None, "empty"), ("  \n ", "empty"),
])
def test_answers_not_read(answer, status):
    assert (parse_set(answer).items, parse_set(answer).status) == (None, status)


@pytest.mark.parametrize(("items", "gold", "right"), [
    (("C", "N", "O"), ("C", "N", "O"), True),
    (("o", "c", "N"), ("C", "N", "O"), True),        # order and case free
    (("C", "C", "O"), ("C", "O"), True),             # a repeat is one item
    (("C", "O"), ("C", "N", "O"), False),            # one missing
    (("C", "N", "O", "S"), ("C", "N", "O"), False),  # one extra
    (("Cl",), ("C",), False), (("C",), ("Cl",), False),
    (("Carboxylic_Acid", "hydroxyl"), ("carboxylic acid", "Hydroxyl"), True),
    (("F#4", "Eb5"), ("F♯4", "E♭5"), True), (("F4",), ("F#4",), False),
    (("t_1",), ("T1",), True),
    ((), (), True), ((), ("C",), False), (("C",), (), False),
    (None, (), False), (None, ("C",), False),
])
def test_sets_match(items, gold, right):
    assert sets_match(items, gold) is right


def test_a_list_valued_fact_is_asked_for_its_set():
    fact = Fact("structural", "clade", "Which other leaves form the smallest clade that "
                "contains A?", ("B", "C"))
    question, gold, kind = fact_question(fact)
    assert question == f"{fact.question}\n{ANSWER_SET}"
    assert (gold, kind) == (("B", "C"), "set")
    assert fact_question(Fact("structural", "x", "Which?", ()))[1:] == ((), "set")


@pytest.mark.parametrize(("answer", "read", "right"), [
    ("C, B", "parsed", True), ("B", "parsed", False), ("B, C, D", "parsed", False),
    ("B or C", "ambiguous", False), ("", "empty", False),
])
def test_structure_scores_a_set_answer(answer, read, right):
    status, _, correct = read_answer("structural", answer, ("B", "C"), "set")
    assert (status, correct) == (read, right)


def test_a_set_gold_survives_the_tasks_file():
    task = StructureTask("s/structural/0", "s", "structural", "phylogeny", "newick",
                         "Newick", "s.png", "Which leaves?", ("B", "C"), None, "set")
    back = StructureTask.from_json(task.to_json())
    assert back == task
    # an exported row gives the set as a JSON list: it is read the same
    assert read_answer("structural", "C, B", ["B", "C"], "set")[2] is True
