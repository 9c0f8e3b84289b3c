"""FASTA sequences, read by Biopython's `Bio.SeqIO` ("fasta") into a `SequenceSet`
(`diagbench.diagram.alignment`): one record per `>` header, its letters as written.

The alphabet is the narrowest of Biopython's IUPAC letter sets (`Bio.Data.IUPACData`:
ambiguous DNA, then ambiguous RNA, then extended protein plus `*`) holding every letter
(gaps `-`/`.` aside). Letters in none of them are an error at the line of the first,
and so is a text Biopython does not read as FASTA (its message, at line 1). Sequences
of unequal lengths read, with a warning: a logo needs an alignment.
"""

from __future__ import annotations

import io
import random

from diagbench.diagram.alignment import GAPS, Alphabet, Record, SequenceSet
from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.parsed import Parsed


def _alphabets() -> list[tuple[Alphabet, set[str]]]:
    from Bio.Data import IUPACData

    return [("dna", set(IUPACData.ambiguous_dna_letters)),
            ("rna", set(IUPACData.ambiguous_rna_letters)),
            ("protein", set(IUPACData.extended_protein_letters) | {"*"})]


def read_fasta(text: str) -> list[Parsed[SequenceSet]]:
    """The sequences of a FASTA source, as one `Parsed`; never raises."""
    from Bio import SeqIO

    text = text.removeprefix("\ufeff")
    lines = text.split("\n")
    if not text.strip():
        return [_parsed(SequenceSet("dna"), [Diagnostic(1, "", "empty source: no sequence")])]
    headers = [k + 1 for k, line in enumerate(lines) if line.startswith(">")]
    try:  # Biopython decodes a record's letters as ASCII when they are asked for
        records = tuple(Record(r.id, str(r.seq), r.description.removeprefix(r.id).strip(),
                               headers[k] if k < len(headers) else 0)
                        for k, r in enumerate(SeqIO.parse(io.StringIO(text), "fasta")))
    except ValueError as exc:  # UnicodeError is one: at the first line not ASCII
        line = next((k + 1 for k, text_line in enumerate(lines)
                     if isinstance(exc, UnicodeError) and not text_line.startswith(">")
                     and not text_line.isascii()), 1)
        reason = f"Biopython: {str(exc).splitlines()[0]}"
        return [_parsed(SequenceSet("dna"), [Diagnostic(line, lines[line - 1], reason)])]
    if not records:
        return [_parsed(SequenceSet("dna"), [Diagnostic(1, lines[0], "no '>' record")])]
    empty = next((r for r in records if not r.sequence), None)
    if empty is not None:
        return [_parsed(SequenceSet("dna", records), [Diagnostic(
            empty.line, lines[empty.line - 1], f"record {empty.id!r} has no sequence")])]
    letters = {c.upper() for r in records for c in r.sequence} - set(GAPS)
    alphabet = next((name for name, known in _alphabets() if letters <= known), None)
    diagnostics = []
    if alphabet is None:
        known = set().union(*(k for _, k in _alphabets()))
        bad = next(r for r in records if {c.upper() for c in r.sequence} - known - set(GAPS))
        letter = next(c for c in bad.sequence if c.upper() not in known | set(GAPS))
        line = next((k + 1 for k in range(bad.line, len(lines)) if letter in lines[k]),
                    bad.line)
        diagnostics.append(Diagnostic(line, lines[line - 1], f"{letter!r} is not a DNA, RNA "
                                      f"or protein letter (sequence {bad.id!r})"))
        return [_parsed(SequenceSet("protein", records), diagnostics)]
    model = SequenceSet(alphabet, records)
    if not model.aligned:
        diagnostics.append(Diagnostic(records[0].line, lines[records[0].line - 1],
                                      "sequences of unequal lengths "
                                      f"({min(len(r.sequence) for r in records)}–{model.length}"
                                      "): not an alignment, no logo", "warning"))
    return [_parsed(model, diagnostics)]


def _parsed(model: SequenceSet, diagnostics: list[Diagnostic]) -> Parsed[SequenceSet]:
    return Parsed(0, 1, "fasta", "alignment", model, tuple(diagnostics))


# --- the seeded generator (`baseline:synth`) ------------------------------------------------

#: (sequences, positions) per complexity level.
SIZES = {"low": ((4, 6), (6, 10)), "medium": ((6, 10), (10, 16)), "high": ((10, 16), (16, 24))}


def synth_fasta(rng: random.Random, complexity: str) -> str:
    """A random DNA alignment in FASTA: a motif of random letters, each sequence a copy
    that keeps each position with that position's own conservation (0.4–1.0); "high"
    adds gaps. Sizes per level in `SIZES`."""
    (low_n, high_n), (low_l, high_l) = SIZES[complexity]
    count, length = rng.randint(low_n, high_n), rng.randint(low_l, high_l)
    motif = [rng.choice("ACGT") for _ in range(length)]
    keep = [rng.uniform(0.4, 1.0) for _ in range(length)]
    out = []
    for k in range(count):
        letters = [m if rng.random() < p else rng.choice("ACGT") for m, p in zip(motif, keep,
                                                                                strict=True)]
        if complexity == "high" and rng.random() < 0.3:
            start = rng.randrange(length - 1)
            letters[start:start + 2] = ["-", "-"]
        out.append(f">seq{k + 1}\n{''.join(letters)}\n")
    return "".join(out)
