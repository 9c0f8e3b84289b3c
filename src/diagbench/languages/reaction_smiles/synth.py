"""Seeded, valid reactions for `baseline:synth`: a named reaction run by RDKit on
generated reactants.

A reaction is one of `REACTIONS` (written as reaction SMARTS with atom maps); each
reactant is a generated molecule (`languages.smiles.synth`) with the group the reaction
needs bonded to it, and RDKit runs the reaction (`RunReactants`) to make the product
(the first, in canonical order, when several sites react). Low: one reactant, one
product; medium: two reactants, one product; high: larger reactants, the reagents
over the arrow and the by-product (water) among the products. The code is each
molecule's canonical SMILES, so the same seed gives the same line.
"""

from __future__ import annotations

import random

from diagbench.languages.smiles.synth import attach, synth_smiles

#: (name, reaction SMARTS, the group each reactant carries, reagents, by-product).
REACTIONS: dict[str, tuple[tuple[str, str, tuple[str, ...], str, str], ...]] = {
    "low": (
        ("alcohol oxidation", "[CH2:1][OH:2]>>[CH1:1]=[O:2]", ("CO",), "", ""),
        ("ketone reduction", "[#6:3][C:1](=[O:2])[CH3:4]>>[#6:3][C:1]([OH:2])[CH3:4]",
         ("C(C)=O",), "", ""),
        ("nitrile reduction", "[C:1]#[N:2]>>[CH2:1][NH2:2]", ("C#N",), "", ""),
    ),
    "medium": (
        ("amide coupling", "[C:1](=[O:2])[OH].[NH2:3][CH2:4]>>[C:1](=[O:2])[NH:3][CH2:4]",
         ("C(=O)O", "CN"), "", ""),
        ("esterification", "[C:1](=[O:2])[OH].[OH][CH2:3]>>[C:1](=[O:2])O[CH2:3]",
         ("C(=O)O", "CO"), "", ""),
    ),
    "high": (
        ("amide coupling", "[C:1](=[O:2])[OH].[NH2:3][CH2:4]>>[C:1](=[O:2])[NH:3][CH2:4]",
         ("C(=O)O", "CN"), "CCN(CC)CC.CN(C)C=O", "O"),
        ("esterification", "[C:1](=[O:2])[OH].[OH][CH2:3]>>[C:1](=[O:2])O[CH2:3]",
         ("C(=O)O", "CO"), "OS(=O)(=O)O", "O"),
    ),
}
_CORES = {"low": "low", "medium": "low", "high": "medium"}


def synth_reaction(rng: random.Random, complexity: str) -> str:
    """One valid reaction SMILES, drawn with `rng` at `complexity` ("low", "medium" or
    "high")."""
    from rdkit import Chem
    from rdkit.Chem import rdChemReactions

    while True:
        _, smarts, groups, reagents, byproduct = rng.choice(REACTIONS[complexity])
        reactants = [attach(rng, Chem.MolFromSmiles(synth_smiles(rng, _CORES[complexity])),
                            group) for group in groups]
        if any(r is None for r in reactants):
            continue
        template = rdChemReactions.ReactionFromSmarts(smarts)
        outcomes = set()
        for products in template.RunReactants(tuple(reactants)):
            try:
                for product in products:
                    Chem.SanitizeMol(product)
                outcomes.add(".".join(Chem.MolToSmiles(p) for p in products))
            except Exception:  # RDKit's sanitisation: this site gives no valid product
                continue
        if not outcomes:
            continue
        left = ".".join(Chem.MolToSmiles(r) for r in reactants)
        right = sorted(outcomes)[0] + (f".{byproduct}" if byproduct else "")
        return f"{left}>{reagents}>{right}"
