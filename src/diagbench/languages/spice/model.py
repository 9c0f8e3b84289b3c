"""The model of a SPICE netlist (`Circuit`): its components (`Component`: type, name,
nodes in pin order, value), the subcircuits it defines (`Subcircuit`) and the device
models it names (`.model`), as diagbench's reader (`read`) gives them.

Node names are lower case (SPICE ignores case); ground is `0`, which `gnd` is too (as
ngspice treats it). A component's `value` is what the drawing labels it with: a number
in SPICE's canonical form for R, C, L, a source's DC value and a controlled source's
gain (`canonical_number`), else the model or subcircuit name (D, Q, M, J, X) or the
written text, lower case.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

#: Ground, as the reader writes it.
GROUND = "0"

#: Each element letter this reader knows: its type and the key its count has.
TYPES: dict[str, tuple[str, str]] = {
    "r": ("resistor", "resistors"),
    "c": ("capacitor", "capacitors"),
    "l": ("inductor", "inductors"),
    "v": ("voltage source", "voltage_sources"),
    "i": ("current source", "current_sources"),
    "d": ("diode", "diodes"),
    "q": ("bipolar transistor", "bjts"),
    "m": ("MOSFET", "mosfets"),
    "j": ("JFET", "jfets"),
    "e": ("voltage-controlled voltage source", "vcvs"),
    "g": ("voltage-controlled current source", "vccs"),
    "f": ("current-controlled current source", "cccs"),
    "h": ("current-controlled voltage source", "ccvs"),
    "x": ("subcircuit instance", "subcircuit_instances"),
}
#: The count keys of the component types, in the order of `TYPES`.
TYPE_COUNTS = tuple(key for _, key in TYPES.values())

#: SPICE's scale suffixes (`meg` before `m`, which is milli).
_SCALES = (("meg", 1e6), ("mil", 25.4e-6), ("t", 1e12), ("g", 1e9), ("k", 1e3),
           ("m", 1e-3), ("u", 1e-6), ("µ", 1e-6), ("n", 1e-9), ("p", 1e-12), ("f", 1e-15),
           ("a", 1e-18))


_NUMBER = re.compile(r"([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)([a-zµ]*)")


def spice_number(text: str) -> float | None:
    """The number a SPICE token writes (`4.7k`, `1meg`, `10uF`, `2.2e-9`), or None: a
    leading number, an optional scale suffix, then any letters (units) ignored."""
    found = _NUMBER.fullmatch(text.lower())
    if found is None:
        return None
    number, rest = float(found.group(1)), found.group(2)
    for suffix, scale in _SCALES:
        if rest.startswith(suffix):
            return number * scale
    return number


#: The scale suffixes a canonical number is written with, largest first.
_WRITTEN = (("t", 1e12), ("g", 1e9), ("meg", 1e6), ("k", 1e3), ("", 1.0), ("m", 1e-3),
            ("u", 1e-6), ("n", 1e-9), ("p", 1e-12), ("f", 1e-15))


def canonical_number(value: float) -> str:
    """`value` written one way whatever way the source wrote it, in engineering notation
    with 5 significant digits: `1k`, `1000` and `1e3` all give "1k", `4.7e-6` "4.7u"."""
    if value == 0:
        return "0"
    for suffix, scale in _WRITTEN:
        if abs(value) >= scale * 0.999995:
            return f"{value / scale:.5g}{suffix}"
    return f"{value:.5g}"


@dataclass(frozen=True, slots=True)
class Component:
    """One element line: its `name` (lower case, its letter first), `letter`, `nodes` in
    pin order, `value` (see the module), and the 1-based `line` it starts on."""

    name: str
    letter: str
    nodes: tuple[str, ...]
    value: str
    line: int = 0


@dataclass(frozen=True, slots=True)
class Subcircuit:
    """A `.subckt` definition: its name, port nodes and components."""

    name: str
    ports: tuple[str, ...]
    components: tuple[Component, ...]
    line: int = 0


@dataclass(frozen=True, slots=True)
class Circuit:
    """One netlist: its title line, top-level components, subcircuit definitions,
    device models by name (name → type: `npn`, `nmos`, `d` …) and its global nodes
    (`.global`: the same node inside every subcircuit)."""

    title: str
    components: tuple[Component, ...]
    subcircuits: tuple[Subcircuit, ...] = ()
    models: tuple[tuple[str, str], ...] = ()
    global_nodes: tuple[str, ...] = ()

    def nodes(self) -> tuple[str, ...]:
        """The top level's nodes, ground first when used, then in order of first use."""
        seen = dict.fromkeys(n for c in self.components for n in c.nodes)
        return tuple(sorted(seen, key=lambda n: n != GROUND))

    def counts(self) -> dict[str, int]:
        """What the schematic draws: components (by type) and nodes of the top level,
        and the subcircuits defined."""
        by_type = Counter(TYPES[c.letter][1] for c in self.components)
        return {"components": len(self.components), "nodes": len(self.nodes()),
                **{key: by_type[key] for key in TYPE_COUNTS},
                "subcircuits": len(self.subcircuits)}

    def model_type(self, name: str) -> str:
        return dict(self.models).get(name, "")

    def flat(self) -> tuple[Component, ...]:
        """Every component with subcircuit instances expanded, named and connected as
        ngspice expands them: `r1` of instance `x1` is `r.x1.r1`, its inner node `n` is
        `x1.n`, its ports are the instance's nodes (ground and global nodes stay)."""
        subckts = {s.name: s for s in self.subcircuits}
        out: list[Component] = []

        def expand(components: tuple[Component, ...], path: str,
                   ports: dict[str, str], depth: int) -> None:
            for c in components:
                nodes = tuple(n if n == GROUND or n in self.global_nodes
                              else ports.get(n, f"{path}{n}" if path else n)
                              for n in c.nodes)
                name = f"{c.letter}.{path}{c.name}" if path else c.name
                inner = subckts.get(c.value) if c.letter == "x" else None
                if inner is None or depth > 20:
                    out.append(Component(name, c.letter, nodes, c.value, c.line))
                else:
                    expand(inner.components, f"{path}{c.name}.",
                           dict(zip(inner.ports, nodes, strict=False)), depth + 1)

        expand(self.components, "", {}, 0)
        return tuple(out)
