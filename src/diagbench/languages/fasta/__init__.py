"""FASTA: DNA, RNA and protein sequences (STRUDEL's biology domain, "DNA sequence"), read
by Biopython's SeqIO, an alignment drawn as a sequence logo by logomaker (the `logo`
engine). Its styles are logomaker's: grey letters, another colour scheme (base
pairing for nucleotides, hydrophobicity for proteins), serif letters."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from diagbench.languages.fasta.styles import STYLES
from diagbench.languages.record import Drawn, Language, expect
from diagbench.languages.styled import DrawerStyles

if TYPE_CHECKING:
    from diagbench.compare.scored import Scored
    from diagbench.diagram.facts import Fact
    from diagbench.formats.parsed import Diagram, Parsed
    from diagbench.render.engines import Engine


def recognises(text: str) -> bool:
    """A FASTA source starts with a `>` header line."""
    return text.removeprefix("\ufeff").lstrip().startswith(">")


class Fasta(DrawerStyles, Language):
    """FASTA as a `Language`: its parts, each importing what it uses when first called."""

    DRAWER_STYLES = STYLES

    def recognises(self, text: str) -> bool:
        return recognises(text)

    def make_engine(self, jobs: int = 2, timeout: float = 20.0) -> Engine:
        from diagbench.languages.fasta.engine import LogoEngine

        return LogoEngine(jobs=jobs, timeout=timeout)

    def read(self, text: str) -> Sequence[Parsed[Diagram]]:
        from diagbench.languages.fasta.read import read_fasta

        return read_fasta(text)

    def drawn(self, kind: str, svg: str) -> Drawn:
        from diagbench.languages.fasta.engine import logo_statistics

        return Drawn(logo_statistics(svg))

    def compare(self, gold: Parsed[Diagram], pred: Parsed[Diagram] | None,
                valid: bool) -> Scored:
        from diagbench.languages.fasta.similarity import compare_alignments

        return compare_alignments(gold, pred, valid)

    def facts(self, diagram: Diagram) -> list[Fact]:
        from diagbench.diagram.alignment import SequenceSet, alignment_facts

        return alignment_facts(expect(diagram, SequenceSet))

    def generate(self, rng: random.Random, complexity: str) -> str:
        from diagbench.languages.fasta.read import synth_fasta

        return synth_fasta(rng, complexity)

    def edit(self, code: str, rng: random.Random) -> str | None:
        """The first column not yet all unknown residues made so in every sequence (`N`,
        `X` for proteins): each edit takes one more column from the logo."""
        from diagbench.diagram.alignment import SequenceSet

        read = self.read(code)
        model = read[0].diagram if len(read) == 1 and not read[0].errors else None
        if not isinstance(model, SequenceSet) or not model.aligned:
            return None
        unknown = "X" if model.alphabet == "protein" else "N"
        column = next((k for k in range(model.length)
                       if any(r.sequence[k].upper() != unknown for r in model.records)), None)
        if column is None:
            return None
        return "".join(f">{r.id}{' ' + r.description if r.description else ''}\n"
                       f"{r.sequence[:column]}{unknown}{r.sequence[column + 1:]}\n"
                       for r in model.records)

    def rewrite(self, code: str, rng: random.Random) -> str | None:
        """The same logo: the records in another order, each sequence wrapped at another
        width (a logo does not depend on either)."""
        from diagbench.diagram.alignment import SequenceSet

        read = self.read(code)
        model = read[0].diagram if len(read) == 1 and not read[0].errors else None
        if not isinstance(model, SequenceSet) or not model.records:
            return None
        records = list(model.records)
        rng.shuffle(records)
        width = rng.randint(1, max(1, model.length))
        return "".join(
            f">{r.id}{' ' + r.description if r.description else ''}\n"
            + "".join(r.sequence[k:k + width] + "\n" for k in range(0, len(r.sequence), width))
            for r in records)


LANGUAGE = Fasta(
    doc=__doc__ or "",
    name="fasta",
    title="FASTA",
    suffixes=(".fasta", ".fa"),
    domain="biology",
    categories=("dna-sequence",),
    kinds=("alignment",),
    engine="logo",
    examples=("fasta-alignment.fasta",),
    node_limits=(2, 40),
    size="positions",
    libraries=("biopython", "logomaker", "matplotlib",),
)
