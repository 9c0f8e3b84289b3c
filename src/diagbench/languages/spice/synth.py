"""SPICE netlists of diagbench's own: seeded circuits (`synth_spice`), one small change
that is drawn (`edit_spice`: a resistor's, capacitor's or inductor's value ten times
larger) and the same circuit written another way (`rewrite_spice`: nodes renamed and
element lines in another order).

A generated circuit, as STRUDEL's circuits are: a DC source on node 1, then components
each joining a node already used to a new node or one already used (ground among
them), so that the circuit is connected, and a resistor to ground from every node
only one pin is on; R, C and L from the E6 series; at "medium" a diode and a bipolar
transistor with their `.model` lines, at "high" a MOSFET and a subcircuit (a two-port
RC section) used twice.
"""

from __future__ import annotations

import random
import re
from collections import Counter

from diagbench.languages.spice.model import GROUND, canonical_number
from diagbench.languages.spice.read import logical_lines, read_spice

#: Components at each complexity (passives, then the semiconductors added).
SIZES = {"low": (2, 4), "medium": (4, 7), "high": (6, 10)}
_E6 = (1.0, 1.5, 2.2, 3.3, 4.7, 6.8)
_DECADES = {"r": (100, 1e3, 1e4), "c": (1e-9, 1e-8, 1e-7), "l": (1e-6, 1e-5, 1e-4)}


def _value(rng: random.Random, letter: str) -> str:
    return canonical_number(rng.choice(_E6) * rng.choice(_DECADES[letter]))


def synth_spice(rng: random.Random, complexity: str) -> str:
    """A seeded netlist at `complexity` ("low|medium|high"; see the module)."""
    low, high = SIZES[complexity]
    nodes = ["1"]
    lines = [f"* generated circuit ({complexity})", f"V1 1 0 dc {rng.choice((1, 3, 5, 9, 12))}"]
    counters = dict.fromkeys("rcldqmx", 0)

    def name(letter: str) -> str:
        counters[letter] += 1
        return f"{letter.upper()}{counters[letter]}"

    def pick_pair() -> tuple[str, str]:
        a = rng.choice(nodes)
        if rng.random() < 0.55:
            nodes.append(str(len(nodes) + 1))
            return a, nodes[-1]
        b = rng.choice([n for n in [*nodes, GROUND, GROUND] if n != a])
        return a, b

    for _ in range(rng.randint(low, high)):
        letter = rng.choice("rrrcl" if complexity != "low" else "rrc")
        a, b = pick_pair()
        lines.append(f"{name(letter)} {a} {b} {_value(rng, letter)}")
    models = []
    if complexity != "low":
        a, b = pick_pair()
        lines.append(f"{name('d')} {a} {b} dmod")
        c, base = pick_pair()
        lines.append(f"{name('q')} {c} {base} {rng.choice([GROUND, *nodes])} qmod")
        models += [".model dmod d(is=1e-14)", f".model qmod {rng.choice(('npn', 'pnp'))}(bf=100)"]
    if complexity == "high":
        d, g = pick_pair()
        lines.append(f"{name('m')} {d} {g} 0 0 mmod w=10u l=1u")
        models.append(".model mmod nmos(level=1 vto=0.7)")
        for _ in range(2):
            a, b = pick_pair()
            lines.append(f"{name('x')} {a} {b} rcsection")
        models += [".subckt rcsection in out", f"R1 in out {_value(rng, 'r')}",
                   f"C1 out 0 {_value(rng, 'c')}", ".ends rcsection"]
    # no node left hanging: a resistor to ground from each node only one pin is on
    [parsed] = read_spice("\n".join([*lines, *models, ".end"]) + "\n")
    pins = Counter(n for c in parsed.diagram.components for n in c.nodes)
    lines += [f"{name('r')} {node} 0 {_value(rng, 'r')}"
              for node in nodes if pins[node] == 1]
    return "\n".join([*lines, *models, ".end"]) + "\n"


def edit_spice(code: str, rng: random.Random) -> str | None:
    """`code` with a resistor added in parallel with one top-level resistor, capacitor or
    inductor (`rng`'s choice): a new element line `Rk n1 n2 value` (the first free name
    R1, R2 …; the value the resistor's own, else 1k) after the chosen element's lines.
    One more component, and other answers to which components meet at its nodes; None
    without such an element."""
    [parsed] = read_spice(code)
    if parsed.errors:
        return None
    physical = code.split("\n")
    candidates = [c for c in parsed.diagram.components
                  if c.letter in "rcl" and len(c.nodes) == 2]
    if not candidates:
        return None
    chosen = rng.choice(candidates)
    words = physical[chosen.line - 1].split()
    value = words[3] if chosen.letter == "r" and len(words) >= 4 else "1k"
    names = {c.name for c in parsed.diagram.components}
    new = next(f"R{k}" for k in range(1, len(names) + 2) if f"r{k}" not in names)
    after = chosen.line  # past the element's continuation lines
    while after < len(physical) and physical[after].lstrip().startswith("+"):
        after += 1
    physical.insert(after, f"{new} {chosen.nodes[0]} {chosen.nodes[1]} {value}")
    return "\n".join(physical)


def rewrite_spice(code: str, rng: random.Random) -> str | None:
    """The same circuit written another way: comments left out, continuation lines
    joined, the top-level element lines shuffled among themselves, and the top-level
    nodes (ground and nodes a subcircuit also names excepted) renamed `n_1`, `n_2` …
    in a shuffled order. None when `code` does not read."""
    [parsed] = read_spice(code)
    if parsed.errors:
        return None
    circuit = parsed.diagram
    inner = {n for s in circuit.subcircuits for c in s.components for n in c.nodes}
    movable = [n for n in circuit.nodes() if n != GROUND and n not in inner]
    fresh = [f"n_{k + 1}" for k in range(len(movable))]
    rng.shuffle(fresh)
    renamed = dict(zip(movable, fresh, strict=True))
    nodes_of = {c.line: len(c.nodes) for c in circuit.components}
    title = code.removeprefix("\ufeff").split("\n", 1)[0]
    lines = list(logical_lines(code.removeprefix("\ufeff")))
    out = [_renamed(line.text, nodes_of[line.number], renamed)
           if line.number in nodes_of else line.text for line in lines]
    slots = [k for k, line in enumerate(lines) if line.number in nodes_of]
    moved = [out[k] for k in slots]
    rng.shuffle(moved)
    for k, text in zip(slots, moved, strict=True):
        out[k] = text
    return "\n".join([title, *out]) + "\n"


def _renamed(text: str, count: int, renamed: dict[str, str]) -> str:
    """An element line with its `count` node words renamed."""
    parts = re.split(r"(\s+)", text.strip())
    for k in range(2, 2 * count + 1, 2):
        node = parts[k].lower()
        parts[k] = renamed.get("0" if node == "gnd" else node, parts[k])
    return "".join(parts)

