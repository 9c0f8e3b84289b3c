"""SPICE netlists: electrical circuits (STRUDEL's "Electrical & Computer Engineering"
domain, "electrical circuit"), `.cir` and `.sp` files, read by diagbench's own strict
reader of the netlist subset schematics use (`read`: R, C, L, V, I, D, Q, M, J, linear
controlled sources and X elements, subcircuits, models, parameters; `.control`,
`.include` and `.lib` refused),
checked against ngspice's own expanded listing (`ngspice`, a separate program), and
drawn as a schematic by netlistsvg's analog skin from a Yosys-style JSON netlist, as
STRUDEL draws them (`engine`); scored by a graph F1 over components and connections
that ignores node names (`similarity`). Its styles restyle netlistsvg's drawing
(`styles`): blue ink, bold lines, sans-serif labels."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from diagbench.languages.record import Drawn, Language, expect
from diagbench.languages.spice.styles import STYLES
from diagbench.languages.styled import DrawerStyles

if TYPE_CHECKING:
    from diagbench.compare.scored import Scored
    from diagbench.diagram.facts import Fact
    from diagbench.formats.parsed import Diagram, Parsed
    from diagbench.render.engines import Engine

_ELEMENT = re.compile(r"^[rclvidqmjefghx]\w*\s+\S+\s+\S+", re.IGNORECASE)


def recognises(text: str) -> bool:
    """A netlist: a title line, then lines that start with a letter (elements) or a dot,
    and comments; one element line of a type read here (R C L V I D Q M J E F G H X)
    at least, and an `.end` line."""
    lines = [line.strip() for line in text.removeprefix("\ufeff").splitlines()[1:]]
    lines = [line for line in lines if line and not line.startswith(("*", "+"))]
    return any(line.lower() == ".end" for line in lines) and \
        any(_ELEMENT.match(line) for line in lines) and \
        all(line.startswith(".") or line[0].isalpha() for line in lines)


class Spice(DrawerStyles, Language):
    """SPICE as a `Language`: its parts, each importing what it uses when first called."""

    DRAWER_STYLES = STYLES

    def recognises(self, text: str) -> bool:
        return recognises(text)

    def read(self, text: str) -> Sequence[Parsed[Diagram]]:
        from diagbench.languages.spice.read import read_spice

        return read_spice(text)

    def make_engine(self, jobs: int = 2, timeout: float = 20.0) -> Engine:
        from diagbench.languages.spice.engine import SchematicEngine

        return SchematicEngine(jobs=jobs, timeout=timeout)

    def drawn(self, kind: str, svg: str) -> Drawn:
        from diagbench.languages.spice.engine import schematic_statistics

        return Drawn(schematic_statistics(svg))

    def compare(self, gold: Parsed[Diagram], pred: Parsed[Diagram] | None,
                valid: bool) -> Scored:
        from diagbench.languages.spice.similarity import compare_circuits

        return compare_circuits(gold, pred, valid)

    def facts(self, diagram: Diagram) -> list[Fact]:
        from diagbench.languages.spice.facts import circuit_facts
        from diagbench.languages.spice.model import Circuit

        return circuit_facts(expect(diagram, Circuit))

    def generate(self, rng: random.Random, complexity: str) -> str:
        from diagbench.languages.spice.synth import synth_spice

        return synth_spice(rng, complexity)

    def edit(self, code: str, rng: random.Random) -> str | None:
        """A resistor added in parallel with one top-level resistor, capacitor or
        inductor (`synth.edit_spice`)."""
        from diagbench.languages.spice.synth import edit_spice

        return edit_spice(code, rng)

    def rewrite(self, code: str, rng: random.Random) -> str | None:
        """The nodes renamed and the element lines reordered."""
        from diagbench.languages.spice.synth import rewrite_spice

        return rewrite_spice(code, rng)


LANGUAGE = Spice(
    doc=__doc__ or "",
    name="spice",
    title="SPICE netlist",
    suffixes=(".cir", ".sp"),
    domain="engineering",
    categories=("electrical-circuit",),
    kinds=("circuit",),
    engine="netlistsvg-analog",
    examples=("electrical-circuit.cir",),
    node_limits=(2, 40),
    size="components",
    libraries=("scipy",),
)
