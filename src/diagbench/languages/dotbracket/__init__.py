"""Vienna dot-bracket: RNA secondary structures (STRUDEL's biology domain, "DNA sequence
(RNA structure)"), read by diagbench's own stack reader (ViennaRNA and forgi are not
Apache-compatible), drawn by VARNA as a separate program (the `varna` engine). Its
styles are VARNA's: the radiate and circular layouts, coloured bases."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from diagbench.languages.dotbracket.styles import STYLES
from diagbench.languages.record import Drawn, Language, expect
from diagbench.languages.styled import DrawerStyles

if TYPE_CHECKING:
    from diagbench.compare.scored import Scored
    from diagbench.diagram.facts import Fact
    from diagbench.formats.parsed import Diagram, Parsed
    from diagbench.render.engines import Engine

_SYMBOLS = frozenset(".()[]{}<>")
_NUCLEOTIDES = frozenset("ACGUTRYSWKMBDHVN")


def recognises(text: str) -> bool:
    """A dot-bracket source by its shape (errors in it are the reader's to report): after
    an optional `>` header and `#` comments, a line of nucleotide letters, then a line
    that starts with `.` or a bracket and is mostly `.` and brackets (pseudoknot letters
    aside) — so a FASTA sequence over two lines, or gapped with `.`, is not taken.
    Checked before FASTA, which takes any `>` text."""
    lines = [line.strip() for line in text.removeprefix("\ufeff").splitlines()]
    lines = [line for line in lines if line and not line.startswith("#")][:3]
    if lines and lines[0].startswith(">"):
        lines = lines[1:]
    if len(lines) < 2 or not set(lines[0].upper()) <= _NUCLEOTIDES:
        return False
    structure = lines[1].split(None, 1)[0]
    letters = sum(c.isascii() and c.isalpha() for c in structure)
    return (structure[0] in _SYMBOLS and 2 * letters <= len(structure)
            and all(c in _SYMBOLS or (c.isascii() and c.isalpha()) for c in structure))


class DotBracket(DrawerStyles, Language):
    """dot-bracket as a `Language`: its parts, each importing what it uses when first called."""

    DRAWER_STYLES = STYLES

    def recognises(self, text: str) -> bool:
        return recognises(text)

    def records(self, text: str) -> list[tuple[int, str]]:
        from diagbench.languages.dotbracket.read import record_texts

        return record_texts(text)

    def make_engine(self, jobs: int = 2, timeout: float = 20.0) -> Engine:
        from diagbench.languages.dotbracket.engine import VarnaEngine

        return VarnaEngine(jobs=jobs, timeout=timeout)

    def read(self, text: str) -> Sequence[Parsed[Diagram]]:
        from diagbench.languages.dotbracket.read import read_dotbracket

        return read_dotbracket(text)

    def drawn(self, kind: str, svg: str) -> Drawn:
        from diagbench.languages.dotbracket.engine import varna_statistics

        return Drawn(varna_statistics(svg))

    def compare(self, gold: Parsed[Diagram], pred: Parsed[Diagram] | None,
                valid: bool) -> Scored:
        from diagbench.languages.dotbracket.similarity import compare_structures

        return compare_structures(gold, pred, valid)

    def facts(self, diagram: Diagram) -> list[Fact]:
        from diagbench.diagram.graph import GraphDiagram
        from diagbench.diagram.rna import rna_facts

        return rna_facts(expect(diagram, GraphDiagram))

    def generate(self, rng: random.Random, complexity: str) -> str:
        from diagbench.languages.dotbracket.read import synth_dotbracket

        return synth_dotbracket(rng, complexity)

    def edit(self, code: str, rng: random.Random) -> str | None:
        """The last base pair of the first structure opened (both bases unpaired)."""
        lines = code.split("\n")
        for k, line in enumerate(lines):
            if line[:1] in "(." and ")" in line:
                close = line.rindex(")")
                depth, start = 0, close
                while start >= 0:
                    depth += {")": 1, "(": -1}.get(line[start], 0)
                    if depth == 0:
                        break
                    start -= 1
                if start < 0:
                    return None
                lines[k] = line[:start] + "." + line[start + 1:close] + "." + line[close + 1:]
                changed = "\n".join(lines)
                return self.readable(changed)
        return None

    def rewrite(self, code: str, rng: random.Random) -> str | None:
        """The same structures: written from their models after a `#` comment line, a
        blank line between records, and the pseudoknot brackets of each structure
        renamed (another of `[]`, `{}`, `<>`, `Aa` … for each kind used: the same
        pairs)."""
        from diagbench.languages.dotbracket.read import BRACKETS, read_dotbracket

        read = read_dotbracket(code)
        if any(p.errors for p in read):
            return None
        out = ["# the same structures, written another way"]
        for parsed in read:
            model = parsed.diagram
            used = sorted({c for c in model.structure if c in BRACKETS and c != "("})
            free = [c for c in BRACKETS if c != "("]
            renamed = dict(zip(used, rng.sample(free, len(used)), strict=True))
            renamed |= {BRACKETS[a]: BRACKETS[b] for a, b in renamed.items()}
            energy = f" ({model.energy:.2f})" if model.energy is not None else ""
            out += [""] + ([f">{model.name}"] if model.name is not None else []) + [
                model.sequence,
                "".join(renamed.get(c, c) for c in model.structure) + energy]
        return "\n".join(out) + "\n"


LANGUAGE = DotBracket(
    doc=__doc__ or "",
    name="dotbracket",
    title="dot-bracket",
    suffixes=(".dbn", ".db"),
    claims=(".fasta", ".fa"),
    domain="biology",
    categories=("rna-structure",),
    kinds=("rna",),
    engine="varna",
    examples=("rna-structure.dbn",),
    node_limits=(10, 400),
    size="bases",
)
