"""FASTA: DNA, RNA and protein sequences (STRUDEL's biology domain, "DNA sequence"), read
by Biopython's SeqIO, an alignment drawn as a sequence logo by logomaker (the `logo`
engine)."""

from __future__ import annotations

from diagbench.languages.record import Language


def recognises(text: str) -> bool:
    """A FASTA source starts with a `>` header line."""
    return text.removeprefix("\ufeff").lstrip().startswith(">")


LANGUAGE = Language(
    doc=__doc__ or "",
    name="fasta",
    title="FASTA",
    suffixes=(".fasta", ".fa"),
    domain="biology",
    categories=("dna-sequence",),
    kinds=("alignment",),
    reader="diagbench.formats.biology.fasta:read_fasta",
    engine="logo",
    statistics="diagbench.render.logo:logo_statistics",
    similarity="diagbench.compare.alignment:compare_alignments",
    synth="diagbench.formats.biology.fasta:synth_fasta",
    facts="diagbench.diagram.alignment:alignment_facts",
    examples=("fasta-alignment.fasta",),
    recognises=recognises,
    node_limits=(2, 40),
    size="positions",
)
