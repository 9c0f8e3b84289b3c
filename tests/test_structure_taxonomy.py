"""STRUDEL's taxonomy in the structure benchmark: the domains of Table 1, the task type of
every task, the templated questions of the first three task types with their answers
worked out by hand, the per-category node limits and Table 3's figures by hand."""

from __future__ import annotations

import pytest

from diagbench.benchmarks.structure.counting import statistics
from diagbench.benchmarks.structure.limits import Limit, limits_of, outside
from diagbench.benchmarks.structure.records import StructureScore
from diagbench.benchmarks.structure.report import table3_lines
from diagbench.benchmarks.structure.scoring import sample_of
from diagbench.benchmarks.structure.table3 import columns, table3, table3_cells
from diagbench.benchmarks.structure.taxonomy import TASK_TYPES, domain_title, task_type
from diagbench.benchmarks.structure.templates import template_facts, unambiguous
from diagbench.diagram.facts import Fact
from diagbench.languages import CATEGORIES, DOMAINS, named

TABLE_3_DOMAINS = ["Electrical & Computer Eng.", "Chemistry", "Biology",
                   "Computer Science & AI", "System Modeling & Softw. Eng.",
                   "Business & Process Mgmt.", "Geography", "Games & Music"]

CLASS = """@startuml
class Animal
class Dog
class Cat
class Owner
package Home {
  class Bowl
}
Dog --|> Animal
Cat --|> Animal
Owner --> Dog : walks
Bowl -- Cat
@enduml
"""
SEQUENCE = """@startuml
participant Alice
participant Bob
participant Carol
Alice -> Bob : hello
Bob -> Carol : forward
Carol -> Carol : think
Carol --> Alice : done
Bob -> Carol : forward
@enduml
"""


def _facts(code: str):
    parsed = named("plantuml").read(code)[0]
    return template_facts(parsed, statistics(parsed)[0])


def _answers(facts, subject: str) -> dict[str, object]:
    return {f.question: f.answer for f in facts if f.subject == subject}


def test_every_category_has_one_of_table_3s_domains():
    assert [d.title for d in DOMAINS] == TABLE_3_DOMAINS
    known = {d.name for d in DOMAINS}
    assert all(c.domain in known for c in CATEGORIES), [c.name for c in CATEGORIES
                                                        if c.domain not in known]
    assert domain_title("molecule") == "Chemistry"
    assert domain_title("sequence") == "System Modeling & Softw. Eng."
    assert domain_title("not-a-category") == ""


@pytest.mark.parametrize(("task", "answer_type", "expected"), [
    ("identification", "label", "identification"),
    ("quantification", "number", "quantification"),
    ("structural", "yes_no", "structural_analysis"),
    ("structural", None, "quantification"),  # a counting task of an older data set
    ("association", None, "association"), ("problem_match", None, "association"),
    ("description_match", None, "association"), ("image_to_code", None, "image_to_code"),
    ("model_question", "number", "quantification"),
    ("model_question", "label", "identification"),
    ("model_question", "yes_no", "structural_analysis"),
])
def test_task_types(task, answer_type, expected):
    assert task_type(task, answer_type) == expected
    assert expected in TASK_TYPES


def test_class_diagram_templates_by_hand():
    found = _facts(CLASS)
    facts = found.facts
    counts = _answers(facts, "count")
    assert counts["How many elements (boxes or nodes) are shown in the diagram in total?"] == 5
    assert counts["How many inheritance relations are drawn in the diagram?"] == 2
    assert counts["How many associations are drawn in the diagram?"] == 2
    assert _answers(facts, "groups") == {"How many groups (packages, boundaries or frames) "
                                         "are drawn in the diagram?": 1}
    degree = _answers(facts, "degree")
    assert degree["How many other elements is 'Animal' directly connected to in the "
                  "diagram?"] == 2
    assert degree["How many other elements is 'Owner' directly connected to in the "
                  "diagram?"] == 1
    # only the leaves have one neighbour; Animal, Dog and Cat have two (dropped)
    assert sorted(_answers(facts, "neighbour").values()) == ["Cat", "Dog"]
    assert _answers(facts, "relation-label") == {
        "What is the label written on the connection between 'Owner' and 'Dog' in the "
        "diagram?": "walks"}
    assert sorted(_answers(facts, "parent").values()) == ["Animal", "Animal"]
    connected = _answers(facts, "connected")
    assert len(connected) == 10 and sum(connected.values()) == 4  # C(5,2) pairs, 4 lines
    arrows = _answers(facts, "arrow")
    assert arrows["Does an arrow point from 'Dog' to 'Animal' in the diagram?"] is True
    assert arrows["Does an arrow point from 'Animal' to 'Dog' in the diagram?"] is False
    assert arrows["Does an arrow point from 'Owner' to 'Dog' in the diagram?"] is True
    assert len(arrows) == 6  # Bowl -- Cat is a plain line: no arrow asked (dropped)
    inside = _answers(facts, "inside")
    assert inside["Is 'Bowl' drawn inside 'Home' in the diagram?"] is True
    assert sum(inside.values()) == 1 and len(inside) == 5
    assert not _answers(facts, "path")  # a plain line: "following the arrows" is not asked
    # three elements tie for most connections; three have two neighbours; one plain line
    assert found.ambiguous == {"neighbour": 3, "most-connected": 1, "arrow": 1}
    for kind in ("identification", "quantification", "structural"):  # ≥ 3 templates each
        assert len({f.subject for f in facts if f.task == kind}) >= 3, kind


def test_sequence_diagram_templates_by_hand():
    found = _facts(SEQUENCE)
    facts = found.facts
    assert _answers(facts, "sends") == {
        "How many messages does 'Alice' send in the diagram?": 1,
        "How many messages does 'Bob' send in the diagram?": 2,
        "How many messages does 'Carol' send in the diagram?": 2}
    assert list(_answers(facts, "receives").values()) == [1, 1, 3]
    assert list(_answers(facts, "self").values()) == [False, False, True]
    assert list(_answers(facts, "first-label").values()) == ["hello"]
    assert list(_answers(facts, "last-label").values()) == ["forward"]
    assert list(_answers(facts, "first-sender").values()) == ["Alice"]
    # "forward" is sent twice: who receives it is not asked
    assert _answers(facts, "receiver") == {
        "Which participant receives the message 'hello' in the diagram?": "Bob",
        "Which participant receives the message 'think' in the diagram?": "Carol",
        "Which participant receives the message 'done' in the diagram?": "Alice"}
    sends_to = _answers(facts, "sends-to")
    assert [q for q, yes in sends_to.items() if yes] == [
        "Does 'Alice' send a message to 'Bob' in the diagram?",
        "Does 'Bob' send a message to 'Carol' in the diagram?",
        "Does 'Carol' send a message to 'Alice' in the diagram?"]
    before = _answers(facts, "before")
    assert before["Is the message 'hello' sent before the message 'done' in the diagram?"]
    assert not before["Is the message 'done' sent before the message 'think' in the "
                      "diagram?"]
    assert found.ambiguous == {"receiver": 2}
    for kind in ("identification", "quantification", "structural"):
        assert len({f.subject for f in facts if f.task == kind}) >= 3, kind


def test_a_question_asked_twice_with_two_answers_is_dropped():
    facts = [Fact("quantification", "a", "How many?", 3),
             Fact("quantification", "b", "How many?", 4),
             Fact("identification", "c", "Which?", "X"),
             Fact("identification", "c", "Which?", "X")]
    kept = unambiguous(facts)
    assert [f.question for f in kept.facts] == ["Which?", "Which?"]
    assert kept.ambiguous == {"asked twice, two answers": 2}


def test_node_limits_per_category():
    assert limits_of("class", "plantuml") == (Limit("entities", 1, 15),)
    assert outside(limits_of("class", "plantuml"), {"entities": 15}, "plantuml") is None
    assert outside(limits_of("class", "plantuml"), {"entities": 16}, "plantuml") == \
        "entities 16 > 15"
    assert outside(limits_of("sequence", "plantuml"), {"participants": 3, "messages": 21},
                   "plantuml") == "messages 21 > 20"
    er = limits_of("er", "dbml")
    assert outside(er, {"entities": 13, "relations": 1}, "dbml") is None
    assert outside(er, {"entities": 14, "relations": 1}, "dbml") == "entities 14 > 13"
    assert outside(er, {"entities": 3, "relations": 0}, "dbml") == "relations 0 < 1"
    # a category STRUDEL sets no limit for: its language's limits
    low, high = named("geojson").node_limits
    assert limits_of("map", "geojson") == (Limit("size", low, high, "language"),)


def _row(task_id: str, task: str, category: str, correct: bool | None = None,
         score: float | None = None, answer_type: str | None = None) -> StructureScore:
    return StructureScore("m", task_id, task, category, "x", "g", "ok", correct=correct,
                          score=score, answer_type=answer_type)


ROWS = [_row("s1/identification/0", "identification", "class", True, answer_type="label"),
        _row("s1/quantification/1", "quantification", "class", False,
             answer_type="number"),
        _row("s1/image_to_code/2", "image_to_code", "class", score=0.8),
        _row("s2/association/0", "association", "molecule", True),
        _row("s2/structural/1", "structural", "molecule", False, answer_type="yes_no")]


def test_table_3_by_hand():
    """Overall (1 + 0 + 0.8 + 1 + 0) / 5 = 56 %; software (1 + 0 + 0.8) / 3 = 60 %;
    chemistry (1 + 0) / 2 = 50 %; the overall's cluster residual sums are s1: 0.44 − 0.56
    + 0.24 = 0.12, s2: 0.44 − 0.56 = −0.12, so SE_cl = √(2 · 2 · 0.0144) / 5 = 0.048."""
    table = table3(ROWS, sample_of)
    assert list(table) == ["Overall", "Identification", "Quantification", "Structural",
                           "Association", "Code translation", "Chemistry",
                           "System Modeling & Softw. Eng."]
    assert table["Overall"]["estimate"] == 56.0 and table["Overall"]["n"] == 5
    assert table["Overall"]["clusters"] == 2
    assert table["Overall"]["se_clustered"] == pytest.approx(4.8, abs=1e-3)
    assert table["System Modeling & Softw. Eng."]["estimate"] == 60.0
    assert table["Chemistry"]["estimate"] == 50.0
    assert table["Code translation"]["estimate"] == 80.0
    assert (table["Identification"]["estimate"], table["Quantification"]["estimate"]) == \
        (100.0, 0.0)
    cells = table3_cells(ROWS)
    assert cells["image_to_code|class|x"].accuracy == 80.0
    assert cells["structural_analysis|molecule|x"].accuracy == 0.0
    assert columns()[:6] == ("Overall", "Identification", "Quantification", "Structural",
                             "Association", "Code translation")
    by_type, by_domain = table3_lines(table)
    assert by_type.startswith("  Table 3 by task type (%, 95 % CI clustered by diagram): "
                              "Overall 56.0 [")
    assert "| Code translation 80.0" in by_type and "(n 5)" in by_type
    assert by_domain.startswith("  Table 3 by domain") and "Chemistry 50.0" in by_domain


@pytest.mark.parametrize(("reply", "read", "why"), [
    ("Caption: A class diagram of a library", "A class diagram of a library", ""),
    ("**Caption:** `Hardware design of a 4-bit counter`", "Hardware design of a 4-bit "
     "counter", ""),
    ("Here it is.\nCaption: Molecular structure of caffeine", "Molecular structure of "
     "caffeine", ""),
    ("A class diagram of a library", None, "not one `Caption:` part"),
    ("Caption: one\nCaption: two", None, "not one `Caption:` part"),
    ("Caption:   ", None, "empty caption"),
    ("Caption: A library\nwith books", None,
     "caption longer than one line of 200 characters"),
    ("Caption: " + "x" * 201, None, "caption longer than one line of 200 characters"),
    ("Caption: A PlantUML class diagram", None, "names the code language"),
    ("Caption: A plantuml-like sketch", None, "names the code language"),
])
def test_captions_are_read_strictly(reply, read, why):
    from diagbench.benchmarks.structure.captions import parse_caption

    assert parse_caption(reply, "PlantUML") == (read, why)


def test_baseline_synth_writes_a_caption_offline():
    from diagbench.benchmarks.structure.captions import caption_prompt, parse_caption
    from diagbench.benchmarks.structure.synth import answer_synth
    from diagbench.models.request import user_request

    _, user = caption_prompt("PlantUML", "UML class diagram", CLASS)
    reply = answer_synth(user_request("baseline", "synth", user))
    # 5 classes, 4 relations, 1 cluster; the first three unique names
    assert reply == ("Caption: UML class diagram with 5 entities, 4 relations, 1 clusters, "
                     "showing Animal, Dog, Cat")
    assert parse_caption(reply, "PlantUML")[0] is not None
