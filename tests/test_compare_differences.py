"""The semantic comparison lists each element in error, one line each."""

from __future__ import annotations

from pathlib import Path

from diagbench.compare.pair import compare_scripts

CALLFLOWS = Path(__file__).parent.parent / "examples" / "callflows"


def test_planted_errors_are_listed_one_per_line():
    gold = (CALLFLOWS / "gold" / "eps_attach.puml").read_text()
    pred = (CALLFLOWS / "pred" / "eps_attach.puml").read_text()
    # The six errors planted in this prediction (examples/callflows/README.md).
    assert compare_scripts(gold, pred).differences == [
        "participant 'New MME' read as 'MME': participant substitution",
        "message 'MME -> SGW : 12. Create Session Request' read as "
        "'MME -> PGW : 12. Create Session Request': node substitution",
        "message 'PGW --> SGW : 15. Create Session Response' read as "
        "'SGW --> PGW : 15. Create Session Response': edge_direction substitution",
        "message 'UE --> eNodeB : 19. RRC Connection Reconfiguration Complete' read as "
        "'UE -> eNodeB : 19. RRC Connection Reconfiguration Complete': edge_type substitution",
        "message 'MME -> SGW : 23. Modify Bearer Request' read as "
        "'MME -> SGW : 23. Modify Bearer Req': message substitution",
        "message missing: UE -> eNodeB : 21. Direct Transfer",
    ]


def test_unmatched_elements_of_both_sides_are_listed():
    # Matched, A -> B : x and A -> A : y count 2 errors (a node, a label); unmatched, 8 (a
    # direction, two nodes, a label, on each side): the fewest errors match them.
    gold = "@startuml\nparticipant A\nparticipant B\nA -> B : x\nnote over A : n\n@enduml\n"
    pred = "@startuml\nparticipant A\nparticipant Zed\nA -> A : y\nA -> A : z\n@enduml\n"
    assert compare_scripts(gold, pred).differences == [
        "participant missing: B",
        "participant extra: Zed",
        "message 'A -> B : x' read as 'A -> A : y': node substitution, message substitution",
        "message extra: A -> A : z",
        "note missing: n",
    ]
    assert compare_scripts(pred, gold).differences[-2:] == [
        "message missing: A -> A : z", "note extra: n"]


def test_identical_scripts_have_no_differences():
    gold = (CALLFLOWS / "gold" / "eps_attach.puml").read_text()
    assert compare_scripts(gold, gold).differences == []


def test_a_message_lists_all_its_errors_in_component_order():
    # Worked out by hand from the rules: both endpoints wrong are two node substitutions; a
    # sender read as the border is a node deletion; a message read the other way round is
    # one direction substitution and no node error. Components are listed in the order
    # node, edge_direction, edge_type, message; a count above one as "×n".
    decl = "@startuml\nparticipant A\nparticipant B\nparticipant C\nparticipant D\n"
    cases = [
        ("A -> B : hello world", "C --> D : hello world!",
         "message 'A -> B : hello world' read as 'C --> D : hello world!': "
         "node substitution ×2, edge_type substitution, message substitution"),
        ("A -> B : go", "[-> B : go",
         "message 'A -> B : go' read as '[ -> B : go': node deletion"),
        ("A -> B : go on", "B --> A : go",
         "message 'A -> B : go on' read as 'B --> A : go': "
         "edge_direction substitution, edge_type substitution, message substitution"),
    ]
    for gold, pred, listed in cases:
        result = compare_scripts(f"{decl}{gold}\n@enduml\n", f"{decl}{pred}\n@enduml\n")
        assert result.differences == [listed]
