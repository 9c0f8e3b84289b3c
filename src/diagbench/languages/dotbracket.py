"""Vienna dot-bracket: RNA secondary structures (STRUDEL's biology domain, "DNA sequence
(RNA structure)"), read by diagbench's own stack reader (ViennaRNA and forgi are not
Apache-compatible), drawn by VARNA as a separate program (the `varna` engine)."""

from __future__ import annotations

from diagbench.languages.record import Language

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


LANGUAGE = Language(
    doc=__doc__ or "",
    name="dotbracket",
    title="dot-bracket",
    suffixes=(".dbn", ".db"),
    claims=(".fasta", ".fa"),
    domain="biology",
    categories=("rna-structure",),
    kinds=("rna",),
    reader="diagbench.formats.biology.dotbracket:read_dotbracket",
    engine="varna",
    statistics="diagbench.render.varna:varna_statistics",
    similarity="diagbench.compare.rna:compare_structures",
    synth="diagbench.formats.biology.dotbracket:synth_dotbracket",
    facts="diagbench.diagram.rna:rna_facts",
    examples=("rna-structure.dbn",),
    recognises=recognises,
    node_limits=(10, 400),
    size="bases",
)
