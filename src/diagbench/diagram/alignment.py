"""The typed model of a FASTA file: sequences of one alphabet, and, when they are
aligned (all of one length), the per-position counts and consensus a sequence logo
draws (paper 004 Table 1: DNA sequences).

`SequenceSet.counts()` are what the logo engine draws: `positions` (columns, numbered
1…length on the axis), `letters` (the letters stacked in the columns: every letter
with a non-zero count at a position), `sequences` (the tallest stack when a column has
no gap). Gaps (`-`, `.`) are not letters; letters are counted upper-case.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from diagbench.diagram.facts import Fact

#: The sequences' alphabet, as the reader decides it from their letters.
Alphabet = Literal["dna", "rna", "protein"]
GAPS = "-."


@dataclass(frozen=True, slots=True)
class Record:
    """One sequence: its `id` (the header's first word), the rest of the header, its
    letters as written, and the 1-based line of its header."""

    id: str
    sequence: str
    description: str = ""
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class SequenceSet:
    """The sequences of one FASTA file, in order, and their alphabet."""

    alphabet: Alphabet
    records: tuple[Record, ...] = ()

    @property
    def aligned(self) -> bool:
        """All sequences have one length (a logo can be drawn), and there is one."""
        return bool(self.records) and len({len(r.sequence) for r in self.records}) == 1

    @property
    def length(self) -> int:
        """The alignment's length (the longest sequence's)."""
        return max((len(r.sequence) for r in self.records), default=0)

    def column(self, position: int) -> Counter[str]:
        """The letters at a 0-based position, upper-case, gaps left out."""
        return Counter(c for r in self.records if position < len(r.sequence)
                       for c in [r.sequence[position].upper()] if c not in GAPS)

    def profile(self) -> list[Counter[str]]:
        return [self.column(k) for k in range(self.length)]

    def consensus(self) -> str:
        """The most frequent letter of each position (ties: the alphabetically first;
        `-` for a position of gaps only)."""
        return "".join(min(col, key=lambda c: (-col[c], c)) if col else "-"
                       for col in self.profile())

    def counts(self) -> dict[str, int]:
        return {"sequences": len(self.records), "positions": self.length,
                "letters": sum(len(col) for col in self.profile())}


def alignment_facts(model: SequenceSet) -> list[Fact]:
    """The facts of an aligned set: how many sequences and positions (quantification),
    the most frequent letter at the first, middle and last position where one letter
    is most frequent (identification), and which positions are fully conserved — one
    letter in every sequence (structural)."""
    facts = [
        Fact("quantification", "sequences",
             "How many sequences is the logo drawn from?", len(model.records)),
        Fact("quantification", "length", "How many positions does the logo have?",
             model.length),
    ]
    profile = model.profile()
    unique = [k for k, col in enumerate(profile)
              if col and list(col.values()).count(max(col.values())) == 1]
    for k in dict.fromkeys([unique[0], unique[len(unique) // 2], unique[-1]] if unique else []):
        letter = max(profile[k], key=lambda c: profile[k][c])
        facts.append(Fact("identification", "consensus",
                          f"Which letter is most frequent at position {k + 1}?", letter))
    conserved = tuple(str(k + 1) for k, col in enumerate(profile)
                      if len(col) == 1 and sum(col.values()) == len(model.records))
    facts.append(Fact("structural", "conserved", "Which positions show one letter in every "
                      "sequence (fully conserved)?", conserved))
    return facts
