"""The image-to-code score of a sequence diagram (`compare.sequence_code`): component
errors, the order of the matched messages and their labels, each lowering the score,
against numbers worked out by hand from `scoring.metrics.sequence_code_score`."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from diagbench.diagram.graph import GraphDiagram
from diagbench.diagram.sequence import SequenceDiagram
from diagbench.formats.plantuml.graph_writer import write_graph
from diagbench.formats.plantuml.sequence_writer import write_sequence
from diagbench.languages import named
from tests.sizes import sized

GOLD = """@startuml
participant Alice
participant Bob
participant Carol
Alice -> Bob: hello
Bob -> Carol: forward
Carol --> Alice: done
@enduml
"""


def score(pred: str, gold: str = GOLD, valid: bool = True):
    return named("plantuml").compare_code(gold, pred, valid)


def test_gold_against_itself_scores_one():
    c = score(GOLD)
    assert (c.errors, c.ordering, c.labels, c.score) == (0, 1.0, 1.0, 1.0)
    assert (c.entities.gold, c.relations.gold) == (3, 3)


def test_two_messages_swapped_lower_the_order_only():
    """3 matched messages: 3 pairs, one drawn the other way round → O = 1 − 1/3;
    no component error, labels equal: S = 1 · (2/3 + 1) / 2 = 5/6."""
    swapped = GOLD.replace("Alice -> Bob: hello\nBob -> Carol: forward",
                           "Bob -> Carol: forward\nAlice -> Bob: hello")
    c = score(swapped)
    assert c.errors == 0 and c.ordering == pytest.approx(2 / 3) and c.labels == 1.0
    assert c.score == pytest.approx(5 / 6)
    # the graph comparison's ends-only view saw nothing: every message is still there
    assert c.relations.f1 == 1.0


def test_every_message_relabelled_scores_below_one():
    relabelled = GOLD.replace("hello", "ping").replace("forward", "pass").replace(
        "done", "ack")
    c = score(relabelled)
    assert c.errors == 3  # one message substitution each
    assert c.labels is not None and c.labels < 0.5
    assert c.score < 0.5
    assert c.relations.f1 == 0.0  # labels are part of a message's key


def test_one_message_relabelled_by_hand():
    """`hello` → `hallo`: one message substitution; label similarity (1 + 0.8 + 1) / 3
    (Levenshtein 1 of 5 characters); S = (1 − 1/G) · (1 + 2.8/3) / 2."""
    c = score(GOLD.replace("hello", "hallo"))
    assert c.errors == 1
    assert c.labels == pytest.approx(2.8 / 3)
    assert c.score == pytest.approx((1 - 1 / c.gold_elements) * (1 + 2.8 / 3) / 2)


def test_nothing_read_and_not_rendering_score_zero():
    assert score("@startuml\n@enduml\n").score == 0.0
    assert score(GOLD, valid=False).score == 0.0
    assert score("@startuml\nclass A\n@enduml\n").score == 0.0  # another kind of diagram



REALWORLD = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "realworld"


def _real_diagrams(limit: int):
    """The first `limit` real PlantUML sequence diagrams with two labelled messages and
    graph diagrams with a labelled relation, read without errors, in path order."""
    sequences, graphs = [], []
    for path in sorted(REALWORLD.rglob("*.puml")):
        read = named("plantuml").read(path.read_text(encoding="utf-8", errors="replace"))
        if not read or read[0].errors:
            continue
        d = read[0].diagram
        if isinstance(d, SequenceDiagram) and sum(bool(m.label) for m in d.messages) >= 2:
            sequences.append(d)
        elif isinstance(d, GraphDiagram) and any(r.label for r in d.relations):
            graphs.append(d)
    return sequences[:limit], graphs[:limit]


@pytest.mark.skipif(not REALWORLD.is_dir(), reason="no real-world data beside the checkout")
def test_real_diagrams_relabelled_or_reordered_score_below_one():
    sequences, graphs = _real_diagrams(sized(8, 1000))
    assert sequences and graphs
    plantuml = named("plantuml")
    for d in sequences:
        gold = write_sequence(d)
        relabelled = write_sequence(replace(d, messages=tuple(
            replace(m, label=f"{m.label} later" if m.label else "") for m in d.messages)))
        order = list(d.order)
        first, second = [k for k, (kind, _) in enumerate(order) if kind == "message"][:2]
        order[first], order[second] = order[second], order[first]
        swapped = write_sequence(replace(d, order=tuple(order)))
        assert plantuml.compare_code(gold, gold, True).score == 1.0
        assert plantuml.compare_code(gold, relabelled, True).score < 1.0
        assert plantuml.compare_code(gold, swapped, True).score < 1.0
    for d in graphs:
        gold = write_graph(d)
        relabelled = write_graph(replace(d, relations=tuple(
            replace(r, label=f"{r.label} later" if r.label else "") for r in d.relations)))
        assert plantuml.compare_code(gold, gold, True).score == 1.0
        assert plantuml.compare_code(gold, relabelled, True).score < 1.0
