"""OpenQASM 2: quantum circuits (STRUDEL's engineering domain, "quantum circuit"), read
by Qiskit (`qiskit.qasm2`, after diagbench's own limits: no include but qelib1.inc,
bounded sizes) into diagbench's circuit model, drawn by Qiskit's matplotlib circuit
drawer (the `qiskit` engine), scored by the per-wire gate-sequence similarity, 1 for
the same operator (small circuits). A second reader of diagbench's own, written from
the language's specification (`spec`), checks Qiskit's reading by differential
tests. Its styles are the drawer's own: black and white, clifford, textbook, dark."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from diagbench.languages.qasm.styles import STYLES
from diagbench.languages.record import Drawn, Language, expect
from diagbench.languages.styled import DrawerStyles

if TYPE_CHECKING:
    from diagbench.compare.scored import Scored
    from diagbench.diagram.facts import Fact
    from diagbench.formats.parsed import Diagram, Parsed
    from diagbench.render.engines import Engine


class Qasm(DrawerStyles, Language):
    """OpenQASM 2 as a `Language`: its parts, each importing what it uses when first
    called."""

    DRAWER_STYLES = STYLES

    def recognises(self, text: str) -> bool:
        from diagbench.languages.qasm.read import recognises

        return recognises(text)

    def read(self, text: str) -> Sequence[Parsed[Diagram]]:
        from diagbench.languages.qasm.read import read_qasm

        return read_qasm(text)

    def release(self) -> None:
        """End the reader's worker (Qiskit's parser)."""
        from diagbench.languages.qasm.read import end_reader

        end_reader()

    def make_engine(self, jobs: int = 2, timeout: float = 20.0) -> Engine:
        from diagbench.languages.qasm.engine import QiskitEngine

        return QiskitEngine(jobs=jobs, timeout=timeout)

    def drawn(self, kind: str, svg: str) -> Drawn:
        from diagbench.languages.qasm.engine import circuit_statistics

        return Drawn(circuit_statistics(svg))

    def compare(self, gold: Parsed[Diagram], pred: Parsed[Diagram] | None,
                valid: bool) -> Scored:
        from diagbench.languages.qasm.similarity import compare_circuits

        return compare_circuits(gold, pred, valid)

    def facts(self, diagram: Diagram) -> list[Fact]:
        from diagbench.languages.qasm.facts import circuit_facts
        from diagbench.languages.qasm.model import Circuit

        return circuit_facts(expect(diagram, Circuit))

    def generate(self, rng: random.Random, complexity: str) -> str:
        from diagbench.languages.qasm.synth import synth_qasm

        return synth_qasm(rng, complexity)

    def edit(self, code: str, rng: random.Random) -> str | None:
        """One single-qubit gate moved onto the last qubit (`variants.moved_gate`)."""
        from diagbench.languages.qasm.variants import moved_gate

        return moved_gate(code, rng)

    def rewrite(self, code: str, rng: random.Random) -> str | None:
        """Registers renamed, operations on disjoint wires reordered, another layout
        (`variants.rewritten`)."""
        from diagbench.languages.qasm.variants import rewritten

        return rewritten(code, rng)


LANGUAGE = Qasm(
    doc=__doc__ or "",
    name="qasm",
    title="OpenQASM 2",
    suffixes=(".qasm",),
    domain="engineering",
    categories=("quantum-circuit",),
    kinds=("quantum",),
    engine="qiskit",
    examples=("quantum-circuit.qasm",),
    node_limits=(2, 80),
    size="gates",
    libraries=("qiskit", "matplotlib", "pylatexenc"),
)
