"""The facts STRUDEL's task types ask about a circuit, with one exact answer each, read
off the reader's model of the top level (what the schematic draws; components by their
names in capitals, as the drawing labels them):

- identification: which component joins two nodes (a pair no other component is on);
- quantification: how many components of each type the circuit has, and how many nodes;
- structural analysis: which components are connected to the busiest node, which are in
  parallel with a component (across the same two nodes), and which two-terminal
  component is in series with another (the only other component on a node that is not
  ground).
"""

from __future__ import annotations

from collections import defaultdict

from diagbench.diagram.facts import Fact
from diagbench.languages.spice.model import GROUND, TYPES, Circuit, Component

#: Two-terminal components, whose ends series and parallel questions are about.
TWO_TERMINAL = frozenset("rclvid")


def _node(name: str) -> str:
    return "ground (node 0)" if name == GROUND else f"node {name}"


def circuit_facts(circuit: Circuit) -> list[Fact]:
    """The facts of `circuit` (see the module)."""
    parts = circuit.components
    out = [Fact("quantification", key, f"How many {TYPES[letter][0]}s does the circuit have?",
                circuit.counts()[key])
           for letter, (_, key) in TYPES.items() if any(c.letter == letter for c in parts)]
    out.append(Fact("quantification", "nodes",
                    "How many distinct nodes (ground included) does the circuit have?",
                    circuit.counts()["nodes"]))
    joining = next((c for c in parts if len(set(c.nodes)) == 2 and len(c.nodes) == 2
                    and sum(set(c.nodes) <= set(d.nodes) for d in parts) == 1), None)
    if joining is not None:
        a, b = joining.nodes
        out.append(Fact("identification", "joins", f"Which component joins {_node(a)} and "
                        f"{_node(b)}?", joining.name.upper()))
    on: dict[str, list[Component]] = defaultdict(list)
    for c in parts:
        for n in dict.fromkeys(c.nodes):
            on[n].append(c)
    busiest = max((n for n in on if n != GROUND), key=lambda n: len(on[n]), default=None)
    if busiest is not None:
        out.append(Fact("structural", "connected",
                        f"Which components are connected to {_node(busiest)}?",
                        tuple(sorted(c.name.upper() for c in on[busiest]))))
    out += _parallel(parts) + _series(parts, on)
    return out


def _parallel(parts: tuple[Component, ...]) -> list[Fact]:
    for c in parts:
        if c.letter in TWO_TERMINAL and len(set(c.nodes)) == 2:
            across = [d for d in parts if d is not c and d.letter in TWO_TERMINAL
                      and set(d.nodes) == set(c.nodes)]
            if across:
                return [Fact("structural", "parallel",
                             f"Which components are in parallel with {c.name.upper()}?",
                             tuple(sorted(d.name.upper() for d in across)))]
    return []


def _series(parts: tuple[Component, ...], on: dict[str, list[Component]]) -> list[Fact]:
    for node, there in on.items():
        if node != GROUND and len(there) == 2 and all(
                c.letter in TWO_TERMINAL and len(set(c.nodes)) == 2 for c in there):
            first, second = there
            return [Fact("structural", "series",
                         f"Which component is in series with {first.name.upper()} at "
                         f"{_node(node)}?", second.name.upper())]
    return []
