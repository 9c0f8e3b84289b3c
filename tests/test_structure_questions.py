"""Model-written closed-ended questions of the structure benchmark (paper 004 §3.4,
Fig. 10): the prompt against the paper's text, the strict reading of a model's reply,
baseline:synth's questions against facts read by hand off small diagrams, and the
scoring of the answers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from diagbench.benchmarks.structure.questions import (
    QUESTION_SYSTEM,
    QUESTION_TYPES,
    QUESTION_USER,
    answer_question,
    parse_question,
    question_prompt,
)
from diagbench.benchmarks.structure.records import ModelQuestion, StructureSample
from diagbench.benchmarks.structure.scoring import read_answer
from diagbench.benchmarks.structure.tasks import ANSWER_BY_TYPE, derive

PAPER = Path(__file__).resolve().parents[2] / "shared" / "papers" / "004_34f8485b6a3a0424.txt"

CLASS = """@startuml
class Order
class Customer
class Product
interface Invoice
Customer --> Order
Order *-- Product
Order ..> Invoice : bills
@enduml
"""
#: Read by hand off CLASS: every relation touches Order; the counts per question.
CLASS_COUNTS = {"elements (boxes or nodes)": 4, "classes": 3, "interfaces": 1,
                "associations": 1, "compositions": 1, "dependencies": 1}
SEQUENCE = """@startuml
participant Shop
participant Bank
Shop -> Bank : authorise payment
Bank --> Shop : approved
Shop -> Shop : log
@enduml
"""


def test_fig10_prompt_is_the_papers():
    text = PAPER.read_text(encoding="utf-8")
    block = text[text.index("### Dataset Enrichment with closed-ended"):
                 text.index("Figure 10: Prompt for dataset enrichment")]
    ours = QUESTION_SYSTEM + "\n" + QUESTION_USER
    lines = [re.sub(r"\*\*|`", "", ln).strip() for ln in block.splitlines()[1:]]
    checked = 0
    for line in lines:
        if line in ("", "System Prompt:", "User Prompt:", r"\n{code}\n"):
            continue
        assert line in ours, line
        checked += 1
    assert checked == 10


def _reply(code: str, answer_type: str, category: str = "UML class diagram") -> str:
    return answer_question(question_prompt("PlantUML", category, answer_type, code)[1])


def _shown(question: str) -> str:
    return re.search(r"'([^']+)'", question).group(1)


@pytest.mark.parametrize("rename", ["", "X"])
def test_synth_questions_are_right_about_a_class_diagram(rename):
    code = re.sub(r"\b(Order|Customer|Product|Invoice)\b", rf"\1{rename}", CLASS)
    hub = f"Order{rename}"
    for answer_type in QUESTION_TYPES:
        q, why = parse_question(_reply(code, answer_type), answer_type, code)
        assert q is not None, why
        if answer_type == "label":  # a leaf: its only neighbour is Order
            assert _shown(q.question) != hub and q.answer == hub
        elif answer_type == "yes_no":
            names = re.findall(r"'([^']+)'", q.question)
            assert q.answer == ("yes" if hub in names else "no"), q.question
        else:
            noun = re.search(r"How many (.+?) (?:are|is) ", q.question).group(1)
            n = CLASS_COUNTS[noun]
            if answer_type == "number":
                assert q.answer == n
            else:
                options = dict(re.findall(r"\(([A-D])\) (\d+)", q.question))
                assert len(options) == 4 and int(options[q.answer]) == n
                assert sum(int(v) == n for v in options.values()) == 1


def test_synth_questions_about_a_sequence_diagram():
    ask = {t: parse_question(_reply(SEQUENCE, t, "UML sequence diagram"), t, SEQUENCE)[0]
           for t in QUESTION_TYPES}
    assert ask["label"].answer == "authorise payment"
    assert ask["yes_no"].answer == "yes"  # Shop and Bank message each other both ways
    assert ask["number"].answer == (2 if "participants" in ask["number"].question else 3)


@pytest.mark.parametrize(("reply", "answer_type", "answer", "reason"), [
    ("User: How many classes?\nAssistant: 4", "number", 4, ""),
    ("**User:** How many classes?\n**Assistant:** There are 4 classes.", "number", 4, ""),
    ("User: How many?\nAssistant: 3 or 4", "number", None, "answer is not one number"),
    ("User: Which?\n(A) 1\n(B) 2\n(C) 3\n(D) 4\nAssistant: (C) 3", "choice", "C", ""),
    ("User: Which?\nA) 1\nB) 2\nC) 3\nD) 4\nAssistant: C", "choice", None,
     "choice question without options"),
    ("User: Which?\n(A) 1\n(B) 2\n(C) 3\n(D) 4\nAssistant: three", "choice", None,
     "choice answer is not a letter"),
    ("User: Is Order linked to Product?\nAssistant: Yes, by a composition.", "yes_no", "yes",
     ""),
    ("User: Is Order linked to Product?\nAssistant: Probably", "yes_no", None,
     "answer is not yes or no"),
    ("User: What is the interface called?\nAssistant: `Invoice`.", "label", "Invoice", ""),
    ("User: What is the interface called?\nAssistant: Receipt", "label", None,
     "label answer not written in the code"),
    ("Here is a question: how many classes are there? 4", "number", None,
     "not one `User:` and one `Assistant:` part"),
    ("User: A?\nAssistant: 4\nUser: B?\nAssistant: 5", "number", None,
     "not one `User:` and one `Assistant:` part"),
    ("User:\nAssistant: 4", "number", None, "empty question or answer"),
])
def test_parse_question_strictly(reply, answer_type, answer, reason):
    q, why = parse_question(reply, answer_type, CLASS)
    assert (q.answer if q else None) == answer
    assert why.startswith(reason) and bool(why) == (q is None)


@pytest.mark.parametrize(("answer_type", "gold", "answer", "right"), [
    ("label", "Order Service", "order service", True),
    ("label", "Order Service", "Answer: 'OrderService'.", True),
    ("label", "Order", "The element is Order.", False),  # not the label alone
    ("label", "Order", "Order Service", False),
    ("number", 3, "13", False),
    ("number", 3, "3 classes", True),
    ("choice", "B", "Answer: (B)", True),
    ("choice", "B", "B or C", False),
    ("yes_no", "no", "Not sure", False),
    ("yes_no", "no", "No.", True),
])
def test_model_question_answers_read_by_type(answer_type, gold, answer, right):
    assert read_answer("model_question", answer, gold, answer_type)[2] is right


def test_model_question_becomes_a_task():
    sample = StructureSample(
        "s", "class", "plantuml", "PlantUML", "low", "p", "banking", None, None,
        "sources/s.txt", False, "class", "images/s.png", 10, 10, "", 2, 20,
        {"entities": 2, "relations": 0, "clusters": 0}, None,
        {"entities": {"class": 2}, "relations": {}, "clusters": 0, "notes": 0},
        model_question=ModelQuestion("label", "Which class is on top?", "Order"))
    # no facts given: the model-written question is the sample's first task
    tasks = [t for t in derive([sample], 0) if t.task == "model_question"]
    assert len(tasks) == 1
    assert tasks[0].question == f"Which class is on top?\n{ANSWER_BY_TYPE['label']}"
    assert (tasks[0].gold, tasks[0].answer_type) == ("Order", "label")
    assert tasks[0].to_json() == {
        "id": "s/model_question/0", "sample": "s", "task": "model_question",
        "category": "class", "language": "plantuml", "frl": "PlantUML",
        "image": "images/s.png", "question": tasks[0].question, "gold": "Order",
        "answer_type": "label", "task_type": "identification",
        "domain": "System Modeling & Softw. Eng."}
