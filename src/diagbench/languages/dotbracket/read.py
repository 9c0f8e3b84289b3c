"""RNA secondary structures in Vienna dot-bracket notation (`.dbn`), read into
`diagbench.diagram.rna.RnaStructure`.

The field's maintained parsers cannot be imported here (ViennaRNA's Python module: its
licence is not Apache-compatible; forgi: GPL-3), so this module reads the grammar
itself — by one stack per bracket type, as the notation defines a pair (a closing
bracket pairs with the nearest open bracket of its own type), never by regular
expressions, which cannot match nested brackets and would give no column for an
unbalanced one.

A file holds records, each one structure (one `Parsed`):

    >name                      optional header (the text after `>` is the name)
    GGGAAACCC                  the sequence: ONE line of IUPAC nucleotide letters
    (((...)))  (-1.20)         the structure: ONE line, as long as the sequence,
                               optionally followed by blanks and a free energy

The sequence and the structure are one line each (as RNAfold writes them, and the CRW
files of R2DT): a letters-only line cannot be told from a pseudoknot structure line of
letters (`AAaa`), so a split line would be ambiguous. Blank lines and `#` lines (bpRNA's
`#Name:` comments) are skipped. Letters: A C G U T and the IUPAC codes R Y S W K M B D
H V N, either case. Structure: `.` unpaired, `()` `[]` `{}` `<>` pairs, and Vienna's
extended pseudoknot pairs `A…a`, `B…b`, … (an upper-case letter opens, its lower case
closes); every bracket but `()` marks a pseudoknot pair.

Diagnostics (errors, with line and column): a character that is no nucleotide or no
structure symbol; a closing bracket with no open one of its type; an open bracket
never closed; a structure not as long as its sequence; a record with no structure
line, or a structure with no sequence; text after the structure that is no energy.
The model of a record with errors keeps the pairs that could be matched within its
sequence.
"""

from __future__ import annotations

import math
import random
import string
from dataclasses import dataclass, field

from diagbench.diagram.graph import Entity, Relation
from diagbench.diagram.rna import Pair, RnaStructure
from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.parsed import Parsed

NUCLEOTIDES = frozenset("ACGUTRYSWKMBDHVN")
#: Open bracket → its closing bracket.
BRACKETS = {"(": ")", "[": "]", "{": "}", "<": ">"} | dict(
    zip(string.ascii_uppercase, string.ascii_lowercase, strict=True))
_CLOSING = {close: open_ for open_, close in BRACKETS.items()}
_STRUCTURE_START = frozenset(".()[]{}<>")


@dataclass
class _Record:
    """The lines of one record: (1-based line, text) of its header, sequence, structure."""

    header: tuple[int, str] | None = None
    sequence: tuple[int, str] | None = None
    structure: tuple[int, str] | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def first_line(self) -> int:
        return next((at[0] for at in (self.header, self.sequence, self.structure) if at), 1)

    @property
    def last_line(self) -> int:
        return max((at[0] for at in (self.header, self.sequence, self.structure) if at),
                   default=1)


def _records(lines: list[str]) -> list[_Record]:
    """The records of a text's lines: a `>` line starts one; in a record, the first line
    is its sequence (unless it starts like a structure) and the next its structure."""
    records: list[_Record] = []
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        last = records[-1] if records else None
        if line.startswith(">"):
            records.append(_Record(header=(number, line[1:].strip())))
        elif last is not None and last.structure is None and (
                last.sequence is not None or last.header is not None):
            if last.sequence is None and line[0] not in _STRUCTURE_START:
                last.sequence = (number, line)
            else:
                last.structure = (number, line)
        elif line[0] in _STRUCTURE_START:
            records.append(_Record(structure=(number, line)))
        else:
            records.append(_Record(sequence=(number, line)))
    return records


def record_texts(text: str) -> list[tuple[int, str]]:
    """(first line, text) of each record: its lines from its first to its last (blank and
    `#` lines between them kept, so an engine's line numbers count from its first), for
    an engine that draws one structure at a time."""
    lines = text.removeprefix("\ufeff").splitlines()
    return [(r.first_line, "".join(f"{line}\n" for line in lines[r.first_line - 1:r.last_line]))
            for r in _records(lines)]


def read_dotbracket(text: str) -> list[Parsed[RnaStructure]]:
    """Every structure of a dot-bracket source, one `Parsed` each; never raises."""
    text = text.removeprefix("\ufeff")
    lines = text.splitlines()
    records = _records(lines)
    if not records:
        return [Parsed(0, 1, "dotbracket", "rna", RnaStructure("dotbracket", "rna"),
                       (Diagnostic(1, "", "empty source: no structure"),))]
    return [_parsed(k, r, lines) for k, r in enumerate(records)]


def _parsed(index: int, record: _Record, lines: list[str]) -> Parsed[RnaStructure]:
    problems = record.diagnostics
    sequence = _sequence(record, problems)
    structure, pairs, pseudoknots, energy = _structure(record, len(sequence), problems)
    if record.sequence is None and record.structure is not None:
        line = record.structure[0]
        problems.insert(0, Diagnostic(line, lines[line - 1], "a structure with no sequence "
                                      "line before it"))
    elif record.structure is None:
        line = (record.sequence or record.header or (1, ""))[0]
        problems.append(Diagnostic(line, lines[line - 1] if lines else "",
                                   "no structure line after the sequence"))
    name = record.header[1] if record.header else None
    kept = tuple(p for p in pairs if p[1] <= len(sequence))
    model = RnaStructure(
        "dotbracket", "rna",
        tuple(Entity(str(k), letter, "base", line=record.sequence[0] if record.sequence else 0)
              for k, letter in enumerate(sequence, 1)),
        tuple(Relation(str(i), str(j), "base_pair") for i, j in kept),
        name=name, sequence=sequence, structure=structure, pairs=kept,
        pseudoknots=tuple(p for p in pseudoknots if p in kept), energy=energy)
    return Parsed(index, record.first_line, "dotbracket", "rna", model, tuple(problems))


def _sequence(record: _Record, problems: list[Diagnostic]) -> str:
    """The sequence's letters (an unknown one is an error, and left in)."""
    if record.sequence is None:
        return ""
    line, text = record.sequence
    bad = next((k for k, c in enumerate(text) if c.upper() not in NUCLEOTIDES), None)
    if bad is not None:
        problems.append(Diagnostic(line, text, f"{text[bad]!r} is not a nucleotide letter "
                                   "(IUPAC: ACGUT RYSWKMBDHVN)", column=bad + 1))
    return text


def _structure(record: _Record, length: int, problems: list[Diagnostic]
               ) -> tuple[str, list[Pair], list[Pair], float | None]:
    """(structure, pairs, pseudoknot pairs, energy) of the structure line, each pair
    matched by its bracket type's own stack."""
    if record.structure is None:
        return "", [], [], None
    line, text = record.structure
    structure, *rest = text.split(None, 1)
    energy = _energy(rest[0].strip() if rest else "", line, text, len(structure) + 2,
                     problems)
    stacks: dict[str, list[int]] = {}
    pairs: list[Pair] = []
    pseudoknots: list[Pair] = []
    for k, c in enumerate(structure, 1):
        if c == ".":
            continue
        if c in BRACKETS:
            stacks.setdefault(c, []).append(k)
        elif c in _CLOSING and stacks.get(_CLOSING[c]):
            pair = (stacks[_CLOSING[c]].pop(), k)
            pairs.append(pair)
            if c != ")":
                pseudoknots.append(pair)
        elif c in _CLOSING:
            problems.append(Diagnostic(line, text, f"unbalanced {c!r} at column {k}: no "
                                       f"{_CLOSING[c]!r} open before it", column=k))
        else:
            problems.append(Diagnostic(line, text, f"{c!r} at column {k} is not a "
                                       "structure symbol (. ( ) [ ] { } < > or Aa pairs)",
                                       column=k))
    for opened, columns in stacks.items():
        if columns:
            problems.append(Diagnostic(line, text, f"unclosed {opened!r} at column "
                                       f"{columns[0]} ({len(columns)} never closed)",
                                       column=columns[0]))
    if record.sequence is not None and len(structure) != length:
        problems.append(Diagnostic(line, text, f"the structure has {len(structure)} "
                                   f"positions, the sequence {length}",
                                   column=min(len(structure), length) + 1))
    return structure, sorted(pairs), sorted(pseudoknots), energy


def _energy(rest: str, line: int, text: str, column: int, problems: list[Diagnostic]
            ) -> float | None:
    """The free energy written after the structure, `(-12.30)`; None when none is."""
    if not rest:
        return None
    inner = rest[1:-1].strip() if rest.startswith("(") and rest.endswith(")") else ""
    try:
        value = float(inner)
    except ValueError:
        value = math.nan
    if math.isfinite(value):
        return value
    problems.append(Diagnostic(line, text, f"{rest[:40]!r} after the structure is no "
                               "energy such as (-12.30)", column=column))
    return None


# --- the seeded generator (`baseline:synth`) ------------------------------------------------

#: The base pairs a generated sequence uses (Watson–Crick, and G·U wobble less often).
_PAIRS = ("GC", "CG", "AU", "UA", "GC", "CG", "AU", "UA", "GU", "UG")


def synth_dotbracket(rng: random.Random, complexity: str) -> str:
    """A random structure with a sequence that can fold into it (every pair Watson–Crick
    or G·U), as one `>` record: "low" one hairpin (20–31 nt); "medium" two or three
    stems, one of them with an internal loop or a bulge (~50–95 nt); "high" a multiloop
    of three or four branches inside a closing stem (60–100 nt: STRUDEL's limit for an
    RNA structure is 100 bases), half of the time with a pseudoknot (`[]`) between two
    hairpin loops."""
    loops: list[tuple[int, int]] = []  # (start, end) of each hairpin loop, 0-based
    if complexity == "low":
        tokens = _flank(rng, 1, 3)
        tokens += _hairpin(rng, (7, 9), (4, 7), loops, len(tokens)) + _flank(rng, 1, 3)
    elif complexity == "medium":
        tokens = _flank(rng, 2, 5)
        for k in range(rng.randint(2, 3)):
            tokens += (_interrupted(rng, loops, len(tokens)) if k == 0
                       else _hairpin(rng, (5, 8), (5, 8), loops, len(tokens)))
            tokens += _flank(rng, 3, 6)
    else:
        tokens = []
        while not 60 <= len(tokens) <= HIGH_MOST:
            loops.clear()
            tokens = _flank(rng, 2, 4)
            tokens += _multiloop(rng, loops, len(tokens)) + _flank(rng, 2, 4)
    structure = tokens
    if complexity == "high" and len(loops) >= 2 and rng.random() < 0.5:
        (a, _), (_, b) = loops[0], loops[-1]
        for t in range(rng.randint(2, 3)):
            structure[a + 1 + t], structure[b - 1 - t] = "[", "]"
    return f">synth-{complexity}\n{_sequence_for(rng, ''.join(structure))}\n" \
           f"{''.join(structure)}\n"


#: The most bases a "high" structure has (STRUDEL's limit for a secondary structure).
HIGH_MOST = 100


def _flank(rng: random.Random, low: int, high: int) -> list[str]:
    return ["."] * rng.randint(low, high)


def _hairpin(rng: random.Random, stem: tuple[int, int], loop: tuple[int, int],
             loops: list[tuple[int, int]], at: int) -> list[str]:
    """A stem closing a hairpin loop, starting at position `at` (its loop is noted)."""
    s, n = rng.randint(*stem), rng.randint(*loop)
    loops.append((at + s, at + s + n - 1))
    return ["("] * s + ["."] * n + [")"] * s


def _interrupted(rng: random.Random, loops: list[tuple[int, int]], at: int) -> list[str]:
    """An outer stem, then a bulge (one side) or an internal loop (both), then a hairpin."""
    outer = rng.randint(4, 6)
    left = rng.randint(1, 3)
    right = rng.choice([0, rng.randint(1, 3)])
    inner = _hairpin(rng, (3, 6), (4, 7), loops, at + outer + left)
    return ["("] * outer + ["."] * left + inner + ["."] * right + [")"] * outer


def _multiloop(rng: random.Random, loops: list[tuple[int, int]], at: int) -> list[str]:
    """A closing stem around three or four branches (each a hairpin, some interrupted),
    the branches' loops long enough (6–9 nt) to hold a pseudoknot's bases."""
    closing = rng.randint(4, 6)
    tokens = ["("] * closing + _flank(rng, 1, 3)
    for _ in range(rng.randint(3, 4)):
        if rng.random() < 0.5:
            tokens += _interrupted(rng, loops, at + len(tokens))
        else:
            tokens += _hairpin(rng, (4, 7), (6, 9), loops, at + len(tokens))
        tokens += _flank(rng, 1, 3)
    tokens += ["."] * rng.randint(0, 3)
    return tokens + [")"] * closing


def _sequence_for(rng: random.Random, structure: str) -> str:
    """Letters that can pair as `structure` says (pairs from `_PAIRS`, the rest random)."""
    [parsed] = read_dotbracket(f"{'N' * len(structure)}\n{structure}\n")
    letters = [rng.choice("ACGU") for _ in structure]
    for i, j in parsed.diagram.pairs:
        pair = rng.choice(_PAIRS)
        letters[i - 1], letters[j - 1] = pair[0], pair[1]
    return "".join(letters)
