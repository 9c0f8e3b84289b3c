"""Boolean expressions (`.bool`): propositional logic drawn as logic-gate schematics
(STRUDEL's electrical and computer engineering domain, "propositional logic"), read by
diagbench's own strict reader into the gates schemdraw draws, drawn by schemdraw's
`logicparse` (STRUDEL's engine; the `schemdraw-logic` engine) and scored by truth
tables.

The syntax is STRUDEL's: one expression, `(((A and B) and (not C)) or (D xor E)) and
(not F)` or in symbols `(A ∧ ¬B) ∨ (C ⊻ (A ∧ B))`, optionally named `Y = …` (STRUDEL's
renderer keeps what follows `=`); diagbench also reads several outputs, one a line, each
`NAME = expression` (a half adder: `S = A xor B` and `C = A and B`), drawn one under the
other. Operators, tightest first, as schemdraw's parser binds them: `not` `~` `¬`;
`and` `nand` `&` `∧`; `or` `nor` `|` `∨` `+`; `xor` `xnor` `⊕` `⊻` — note that XOR binds
looser than OR (`a or b xor c` is `(a or b) xor c`). Operator words and `true`/`false`
in any case; `#` and `//` start comments. A chain of one operator is one gate of as many
inputs (`a nand b nand c`: a three-input NAND, not(a ∧ b ∧ c)); `not` over a gate is the
inverted gate (`not (a or b)`: a NOR). Refused with line and column: operators of one
level mixed without parentheses (`a and b nand c`), double negations, an output without
a gate, and circuits too large to draw or tabulate (`read` says which limits).

Counts (`diagbench parse --json`): outputs, variables, inputs (input terminals drawn),
gates, depth (gates on the longest input-to-output path), and gates by type
(`and_gates` … `not_gates`). The engine's drawing marks each gate (`engine`), so that
the gates drawn by type, the input labels and the depth are read back from the SVG.
The similarity is the share of agreeing truth-table rows (`similarity`); facts ask the
gate driving an output, gate and variable counts, an output's value for an input row,
its number of true rows and the depth (`facts`). Its styles are schemdraw's: blue ink,
bold lines, gates filled in colour.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from diagbench.languages.logic.styles import STYLES
from diagbench.languages.record import Drawn, Language, expect
from diagbench.languages.styled import DrawerStyles

if TYPE_CHECKING:
    from diagbench.compare.scored import Scored
    from diagbench.diagram.facts import Fact
    from diagbench.formats.parsed import Diagram, Parsed
    from diagbench.languages.logic.model import Circuit
    from diagbench.render.engines import Engine


class Logic(DrawerStyles, Language):
    """Boolean expressions as a `Language`: its parts, each importing what it uses when
    first called."""

    DRAWER_STYLES = STYLES

    def recognises(self, text: str) -> bool:
        """A text every line of which is an expression (or a comment) the reader reads
        without error."""
        return bool(text.strip()) and len(text) < 100_000 and not self.read(text)[0].errors

    def make_engine(self, jobs: int = 2, timeout: float = 20.0) -> Engine:
        from diagbench.languages.logic.engine import SchemdrawLogicEngine

        return SchemdrawLogicEngine(jobs=jobs, timeout=timeout)

    def read(self, text: str) -> Sequence[Parsed[Diagram]]:
        from diagbench.languages.logic.read import read_bool

        return read_bool(text)

    def drawn(self, kind: str, svg: str) -> Drawn:
        from diagbench.languages.logic.engine import logic_statistics

        return Drawn(logic_statistics(svg))

    def compare(self, gold: Parsed[Diagram], pred: Parsed[Diagram] | None,
                valid: bool) -> Scored:
        from diagbench.languages.logic.similarity import compare_circuits

        return compare_circuits(gold, pred, valid)

    def facts(self, diagram: Diagram) -> list[Fact]:
        from diagbench.languages.logic.facts import logic_facts
        from diagbench.languages.logic.model import Circuit

        return logic_facts(expect(diagram, Circuit))

    def generate(self, rng: random.Random, complexity: str) -> str:
        from diagbench.languages.logic.synth import synth_logic

        return synth_logic(rng, complexity)

    def edit(self, code: str, rng: random.Random) -> str | None:
        """One gate's type changed so that its output is 1 in fewer rows (`synth`)."""
        from diagbench.languages.logic.synth import edit_logic, write_circuit

        circuit = self._circuit(code)
        edited = edit_logic(circuit, rng) if circuit else None
        return write_circuit(edited) if edited else None

    def rewrite(self, code: str, rng: random.Random) -> str | None:
        """Inputs commuted, operators spelt otherwise, redundant parentheses (`synth`)."""
        from diagbench.languages.logic.synth import rewrite_logic

        circuit = self._circuit(code)
        return rewrite_logic(circuit, rng) if circuit else None

    def _circuit(self, code: str) -> Circuit | None:
        """The circuit of `code` when it reads without error."""
        from diagbench.languages.logic.model import Circuit

        [parsed] = self.read(code)
        return None if parsed.errors else expect(parsed.diagram, Circuit)


LANGUAGE = Logic(
    doc=__doc__ or "",
    name="logic",
    title="Boolean expression",
    suffixes=(".bool",),
    domain="engineering",
    categories=("propositional-logic",),
    kinds=("logic",),
    engine="schemdraw-logic",
    examples=("majority.bool", "strudel-style.bool", "symbols.bool", "half-adder.bool"),
    node_limits=(1, 40),
    size="gates",
    libraries=("schemdraw",),
)
