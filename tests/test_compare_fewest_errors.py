"""The semantic method matches elements so as to count the fewest errors in all (README,
Methods): a message is read the other way round only when that explains it with fewer
errors than any other pairing. Every expectation below is counted by hand from the
counting rules: a matched message costs its differing endpoints (nodes), one direction
error when read reversed, its arrow type and its label; an unmatched one costs its
direction, its lifeline ends and its label, on its side.
"""

from __future__ import annotations

from pathlib import Path

from diagbench.compare.pair import compare_scripts

CALLFLOWS = Path(__file__).parent.parent / "examples" / "callflows"
HEAD = "@startuml\nparticipant A\nparticipant B\nparticipant C\n"


def _errors(gold_body: str, pred_body: str) -> dict[str, dict[str, int]]:
    result = compare_scripts(HEAD + gold_body + "@enduml\n", HEAD + pred_body + "@enduml\n")
    return {name: {k: v for k, v in c.as_dict().items() if k != "gold" and v}
            for name, c in result.components.items() if c.errors}


def test_sms_over_nas_cut_label_and_dropped_reply():
    """Messages 10-11 of the bundled example: the prediction cuts 10's label and drops 11.
    Paired with 10: one label error, and 11 deleted (direction, 2 nodes, label: 4) = 5.
    Paired with 11 read backwards: direction + label = 2, and 10 deleted (4) = 6."""
    gold = (CALLFLOWS / "gold" / "sms_over_nas.puml").read_text()
    pred = (CALLFLOWS / "pred" / "sms_over_nas.puml").read_text()
    differences = compare_scripts(gold, pred).differences
    assert ("message 'AMF -> UE : 10. DL NAS Transport (SMS delivery report)' read as "
            "'AMF -> UE : 10. DL NAS Transport': message substitution") in differences
    assert "message missing: UE -> AMF : 11. UL NAS Transport (CP-ACK)" in differences
    assert not any("11. UL NAS Transport" in d and "read as" in d for d in differences)


def test_cut_label_beside_a_dropped_reply_with_a_closer_label():
    """The cut label 'Attach Re' is closer to the reply's 'Attach Reject' than to 'Attach
    Request (IMSI)', but the reply read backwards costs a direction error more."""
    assert _errors("A -> B : Attach Request (IMSI)\nB -> A : Attach Reject\n",
                   "A -> B : Attach Re\n") == {
        "node": {"deletion": 2}, "edge_direction": {"deletion": 1},
        "message": {"deletion": 1, "substitution": 1}}


def test_reversed_message_beside_a_relabelled_one():
    """Reading 'B -> A : ping' as message 1 reversed (1) and 'pang' as 2's label (1) is 2
    errors; 'ping' as message 2's label (1) and 'pang' as 1 reversed and relabelled (2)
    is 3."""
    assert _errors("A -> B : ping\nB -> A : pong\n", "B -> A : ping\nB -> A : pang\n") == {
        "edge_direction": {"substitution": 1}, "message": {"substitution": 1}}


def test_a_tie_between_readings_keeps_the_message_as_written():
    """'A -> B : go' read as 'B -> C : go': as written, two node errors; reversed, one
    node and one direction error: a tie, so as written. The 60 messages around it are
    matched in place (ordering 1.0)."""
    around = "".join(f"A -> B : step {k}\n" for k in range(60))
    result = compare_scripts(HEAD + around + "A -> B : go\n" + around + "@enduml\n",
                             HEAD + around + "B -> C : go\n" + around + "@enduml\n")
    errors = {name: c.errors for name, c in result.components.items() if c.errors}
    assert errors == {"node": 2}
    assert result.components["node"].substitution == 2
    assert result.ordering.score == 1.0 and result.ordering.pairs == 121 * 120 // 2


def test_reversal_wins_only_when_it_counts_fewer():
    """'B -> A' for 'A -> B' (same label): reversed, 1 error; as written, 2 node errors."""
    assert _errors("A -> B : x\n", "B -> A : x\n") == {"edge_direction": {"substitution": 1}}
    assert _errors("A <-> B : x\n", "B <-> A : x\n") == {}  # both ways: no direction


def test_notes_pair_when_that_counts_fewer():
    """A note on the wrong lifeline is one substitution, not a deletion and an insertion;
    of two gold notes the one with the same text is paired."""
    assert _errors("A -> B\nnote over A : first\nnote over B : second\n",
                   "A -> B\nnote over C : second\n") == {
        "note": {"deletion": 1, "substitution": 1}}
