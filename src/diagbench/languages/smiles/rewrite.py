"""Another writing of the same molecules (`Language.rewrite`): each SMILES written from
another atom (RDKit's random atom order, seeded), half the time in its Kekulé form
(explicit single and double bonds instead of aromatic lower-case atoms). Titles, blank
lines and a column header are kept."""

from __future__ import annotations

import random
from collections.abc import Callable

from diagbench.languages.smiles.read import parse_line


def another_smiles(smiles: str, rng: random.Random) -> str | None:
    """`smiles` written from another atom order, maybe kekulised (None: not read)."""
    from rdkit import Chem

    mol, _ = parse_line(smiles)
    if mol is None:
        return None
    kekule = rng.random() < 0.5
    if kekule:
        Chem.Kekulize(mol, clearAromaticFlags=True)
    [written] = Chem.MolToRandomSmilesVect(mol, 1, randomSeed=rng.randrange(1, 2**31),
                                           kekuleSmiles=kekule)
    return str(written)


def rewrite_lines(code: str, rng: random.Random,
                  write: Callable[[str, random.Random], str | None]) -> str | None:
    """`code` with the first word of each record (not a blank line nor a "SMILES …"
    header) written by `write` (None from it: None)."""
    lines = code.split("\n")
    header = True
    for k, line in enumerate(lines):
        if not line.strip() or (header and line.split()[0].casefold() == "smiles"):
            continue
        header = False
        first, *rest = line.strip().split(None, 1)
        written = write(first, rng)
        if written is None:
            return None
        lines[k] = " ".join([written, *rest])
    return "\n".join(lines)
