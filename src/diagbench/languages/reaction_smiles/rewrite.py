"""Another writing of the same reactions (`Language.rewrite`): each side's molecules in
another order, each written from another atom."""

from __future__ import annotations

import random

from diagbench.languages.smiles.rewrite import another_smiles


def another_reaction(word: str, rng: random.Random) -> str | None:
    """A reaction SMILES written another way (`Language.rewrite`): each side's molecules
    in another order, each written from another atom (`smiles.rewrite.another_smiles`);
    None for one it cannot read, or one grouping molecules in parentheses ("(A.B)",
    kept together)."""
    sides = word.split(">")
    if len(sides) != 3 or any(part.startswith("(") for part in sides):
        return None
    out = []
    for side in sides:
        molecules = [another_smiles(m, rng) for m in side.split(".") if m]
        if any(m is None for m in molecules):
            return None
        rng.shuffle(molecules)
        out.append(".".join(m for m in molecules if m))
    return ">".join(out)
