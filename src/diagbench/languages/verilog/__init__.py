"""Verilog: digital hardware designs (STRUDEL's engineering domain, "digital hardware
design"), read by Yosys (`read_verilog; proc; opt`, its JSON netlist: modules, ports,
cells, nets), with Icarus Verilog as a second opinion, and drawn as schematics by
netlistsvg (the `netlistsvg` engine). Both programs run sandboxed; a source that reads
a file (`` `include ``, `$readmemh`) is refused before they see it. Its styles restyle
netlistsvg's drawing as SPICE's do (`languages.spice.styles`): blue ink, bold lines,
sans-serif labels."""

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

_MODULE = re.compile(r"^\s*(?:\(\*.*?\*\)\s*)?(?:macro)?module\s+[\\A-Za-z_]", re.M)
_END = re.compile(r"\bendmodule\b")


def recognises(text: str) -> bool:
    """A Verilog source declares a module (`module NAME` at a line's start) and ends
    one (`endmodule`)."""
    return bool(_MODULE.search(text)) and bool(_END.search(text))


class Verilog(DrawerStyles, Language):
    """Verilog as a `Language`: its parts, each importing what it uses when first called."""

    DRAWER_STYLES = STYLES

    def recognises(self, text: str) -> bool:
        return recognises(text)

    def read(self, text: str) -> Sequence[Parsed[Diagram]]:
        from diagbench.languages.verilog.read import read_verilog

        return read_verilog(text)

    def make_engine(self, jobs: int = 2, timeout: float = 20.0) -> Engine:
        from diagbench.languages.verilog.engine import NetlistsvgEngine

        return NetlistsvgEngine(jobs=jobs, timeout=timeout)

    def drawn(self, kind: str, svg: str) -> Drawn:
        from diagbench.languages.verilog.engine import netlist_statistics

        return Drawn(netlist_statistics(svg))

    def compare(self, gold: Parsed[Diagram], pred: Parsed[Diagram] | None,
                valid: bool) -> Scored:
        from diagbench.languages.verilog.similarity import compare_designs

        return compare_designs(gold, pred, valid)

    def facts(self, diagram: Diagram) -> list[Fact]:
        from diagbench.languages.verilog.facts import design_facts
        from diagbench.languages.verilog.model import Design

        return design_facts(expect(diagram, Design))

    def generate(self, rng: random.Random, complexity: str) -> str:
        from diagbench.languages.verilog.synth import synth_verilog

        return synth_verilog(rng, complexity)

    def edit(self, code: str, rng: random.Random) -> str | None:
        """One cell rewired (an operand of an operator replaced by another signal of its
        width) or one operator changed (`&` → `|` → `^` → `&`), `rng`'s choice among
        the cells Yosys made of the source (`edits.edit_design`)."""
        from diagbench.languages.verilog.edits import edit_design

        return edit_design(self, code, rng)

    def rewrite(self, code: str, rng: random.Random) -> str | None:
        """The internal wires renamed and the continuous assignments reordered
        (`edits.rewrite_design`): the same netlist, drawn the same."""
        from diagbench.languages.verilog.edits import rewrite_design

        return rewrite_design(self, code, rng)


LANGUAGE = Verilog(
    doc=__doc__ or "",
    name="verilog",
    title="Verilog",
    suffixes=(".v",),
    domain="engineering",
    categories=("digital-hardware",),
    kinds=("hardware",),
    engine="netlistsvg",
    examples=("digital-hardware.v",),
    node_limits=(1, 120),
    size="cells",
)
