"""Diagrams with many lifelines: the semantic method's endpoint costs are then computed
over the matrix, not looked up in its table of small diagrams (fewer than 12 endpoints)."""

from __future__ import annotations

from itertools import pairwise

from diagbench.compare.pair import compare_scripts

#: 14 lifelines, one message between each neighbour and the next: 13 messages, 26 nodes.
NAMES = [f"N{k}" for k in range(14)]
GOLD = "\n".join(["@startuml", *(f"participant {n}" for n in NAMES),
                  *(f"{a} -> {b} : step {k}" for k, (a, b) in enumerate(pairwise(NAMES))),
                  "@enduml"])


def _errors(result, component: str) -> tuple[int, int, int]:
    c = result.components[component]
    return c.insertion, c.deletion, c.substitution


def test_reversed_and_misdirected_messages_among_14_lifelines():
    pred = (GOLD.replace("N3 -> N4 : step 3", "N4 -> N3 : step 3")  # drawn the other way
            .replace("N9 -> N10 : step 9", "N9 -> N12 : step 9"))  # to the wrong lifeline
    result = compare_scripts(GOLD, pred)
    assert result.components["node"].gold == 26
    assert _errors(result, "edge_direction") == (0, 0, 1)
    assert _errors(result, "node") == (0, 0, 1)
    assert _errors(result, "message") == (0, 0, 0)
    assert result.differences == [
        "message 'N3 -> N4 : step 3' read as 'N4 -> N3 : step 3': edge_direction substitution",
        "message 'N9 -> N10 : step 9' read as 'N9 -> N12 : step 9': node substitution",
    ]
    assert result.ordering.discordant_pairs == 0


def test_unknown_lifelines_in_the_prediction_are_node_errors():
    # the prediction names two lifelines the ground truth does not have (15 endpoints)
    pred = GOLD.replace("N0 -> N1 : step 0", "X -> N1 : step 0").replace(
        "N12 -> N13 : step 12", "N12 -> Y : step 12")
    result = compare_scripts(GOLD, pred)
    assert _errors(result, "participant") == (2, 0, 0)  # X and Y are extra lifelines
    assert _errors(result, "node") == (0, 0, 2)
    assert _errors(result, "edge_direction") == (0, 0, 0)
