"""Seeded, valid molecules for `baseline:synth`: rings and chains joined with RDKit.

A molecule is built from `RINGS` and `SUBSTITUENTS` (fragments written in SMILES):
the complexity chooses how many rings (low 1, medium 1–2, high 2–3, rings joined by a
bond or a short linker) and how many substituents (low 1–2, medium 2–4, high 4–6); each
fragment is bonded to a carbon atom of the molecule that still has a hydrogen. RDKit
sanitises the result (valences, aromaticity); a draw it rejects is drawn again. The
code is the canonical SMILES, so the same seed gives the same line.
"""

from __future__ import annotations

import random
from typing import Any

from diagbench.languages.smiles.read import rdkit_log

#: Ring systems (the first atom is where a linker or bond may attach).
RINGS: tuple[str, ...] = (
    "c1ccccc1", "c1ccncc1", "c1ccoc1", "c1ccsc1", "c1cc[nH]c1", "C1CCCCC1", "C1CCCC1",
    "C1CCNCC1", "C1COCCN1", "c1cnc[nH]1", "c1ccc2ccccc2c1", "C1CC1", "c1ncncn1",
)
#: Substituents and chains (bonded through their first atom).
SUBSTITUENTS: tuple[str, ...] = (
    "C", "CC", "CCC", "C(C)C", "O", "N", "F", "Cl", "Br", "C(=O)O", "C(=O)OC", "C(=O)N",
    "C#N", "[N+](=O)[O-]", "OC", "C=C", "C#C", "C=O", "S", "C(F)(F)F", "NC(C)=O", "CO",
)
#: Linkers between two rings ("" is a direct bond).
LINKERS: tuple[str, ...] = ("", "C", "CC", "O", "N", "C(=O)N", "C=C")
_PLAN = {"low": ((1, 1), (1, 2)), "medium": ((1, 2), (2, 4)), "high": ((2, 3), (4, 6))}


def synth_smiles(rng: random.Random, complexity: str) -> str:
    """One valid molecule's canonical SMILES, drawn with `rng` at `complexity`
    ("low", "medium" or "high")."""
    from rdkit import Chem

    (ring_low, ring_high), (sub_low, sub_high) = _PLAN[complexity]
    while True:
        mol = Chem.MolFromSmiles(rng.choice(RINGS))
        for _ in range(rng.randint(ring_low, ring_high) - 1):
            linker = rng.choice(LINKERS)
            mol = attach(rng, mol, linker + rng.choice(RINGS)) if linker else \
                attach(rng, mol, rng.choice(RINGS))
        for _ in range(rng.randint(sub_low, sub_high)):
            mol = attach(rng, mol, rng.choice(SUBSTITUENTS))
        if mol is not None:
            return str(Chem.MolToSmiles(mol))


def attach(rng: random.Random, mol: Any, fragment: str) -> Any:
    """`mol` with `fragment`'s first atom bonded to one of its carbons that has a
    hydrogen (None when `mol` is None or no carbon has one)."""
    from rdkit import Chem

    if mol is None:
        return None
    part = Chem.MolFromSmiles(fragment)
    free = [a.GetIdx() for a in mol.GetAtoms()
            if a.GetSymbol() == "C" and a.GetTotalNumHs() > 0 and not a.GetNoImplicit()]
    if not free or part is None:
        return None
    site = rng.choice(free)
    joined = Chem.RWMol(Chem.CombineMols(mol, part))
    joined.AddBond(site, mol.GetNumAtoms(), Chem.BondType.SINGLE)
    try:
        with rdkit_log():
            Chem.SanitizeMol(joined)
    except Exception:  # a valence RDKit rejects: this fragment does not fit here
        return mol
    return joined.GetMol()
