"""Reaction SMILES: read with RDKit into the reaction model (`diagbench.diagram.reaction`).

A `.rxn.smi` file holds one reaction a line, "REACTANTS>AGENTS>PRODUCTS [title]"
(each side a dot-separated list of SMILES, agents optional: `A.B>>C`), read the way
the SMILES reader reads molecules (`languages.smiles.read.records`: blank lines and a
"SMILES …" header skipped). RDKit's reaction parser (`ReactionFromSmarts`, in SMILES
mode) splits it into molecules; each is read and sanitised as a molecule
(`languages.smiles.read.molecule`). What RDKit rejects — the reaction or one of its molecules
— is one error diagnostic on that line with RDKit's message. Reaction SMARTS with
query atoms are not chemical structures and are rejected the same way.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from diagbench.diagram.molecule import Molecule
from diagbench.diagram.reaction import Reaction
from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.parsed import Parsed
from diagbench.languages.smiles.read import (
    MAX_LINE_CHARS,
    molecule,
    parse_line,
    rdkit_log,
    rdkit_message,
    records,
)

_PREFIX = {"reactant": "r", "agent": "g", "product": "p"}


def parse_reaction(line: str) -> tuple[Any, list[Any], str]:
    """(RDKit reaction, its sanitised molecules by role — reactants, agents, products —
    or None, RDKit's message) of one "REACTION [title]" line."""
    from rdkit import Chem
    from rdkit.Chem import rdChemReactions

    code = line.split()[0]
    with rdkit_log() as log:
        try:
            rxn = rdChemReactions.ReactionFromSmarts(code, useSmiles=True)
        except ValueError as exc:
            return None, [], rdkit_message(log.getvalue(), code) or str(exc)
    sides = []
    for templates in (rxn.GetReactants(), rxn.GetAgents(), rxn.GetProducts()):
        side = []
        for template in templates:
            mol, message = parse_line(Chem.MolToSmiles(template))
            if mol is None:
                return None, [], message
            side.append(mol)
        sides.append(side)
    if not sides[0] and not sides[2]:
        return None, [], "no reactants and no products"
    return rxn, sides, ""


def read_reaction_smiles(text: str) -> list[Parsed[Reaction]]:
    """Every reaction of a `.rxn.smi` text, with diagnostics."""
    found = records(text)
    if not found:
        return [Parsed(0, 1, "reaction-smiles", "reaction",
                       Reaction("reaction-smiles", "reaction"),
                       (Diagnostic(1, "", "no reaction SMILES in the source"),))]
    out: list[Parsed[Reaction]] = []
    for index, (number, line) in enumerate(found):
        if len(line) > MAX_LINE_CHARS:
            rxn, sides = None, list[list[Any]]()
            message = f"reaction of {len(line):,} characters not read: over {MAX_LINE_CHARS:,}"
        else:
            rxn, sides, message = parse_reaction(line)
        if rxn is None:
            out.append(Parsed(index, number, "reaction-smiles", "reaction",
                              Reaction("reaction-smiles", "reaction"),
                              (Diagnostic(number, line, f"reaction not read: {message}"),)))
        else:
            title = line.split(maxsplit=1)[1] if len(line.split()) > 1 else ""
            out.append(Parsed(index, number, "reaction-smiles", "reaction",
                              reaction(sides, title, number)))
    return out


def reaction(sides: list[list[Any]], title: str = "", line: int = 0) -> Reaction:
    """The model of a reaction's molecules by role (reactants, agents, products)."""
    molecules = {role: tuple(molecule(m, line) for m in side)
                 for role, side in zip(_PREFIX, sides, strict=True)}
    entities, relations = [], []
    for role, side in molecules.items():
        for k, m in enumerate(side, 1):
            prefix = f"{_PREFIX[role]}{k}."
            entities += [replace(e, id=prefix + e.id) for e in m.entities]
            relations += [replace(r, source=prefix + r.source, target=prefix + r.target)
                          for r in m.relations]
    return Reaction("reaction-smiles", "reaction", tuple(entities), tuple(relations),
                    name=title or None, reactants=molecules["reactant"],
                    agents=molecules["agent"], products=molecules["product"])


def molecule_key(m: Molecule) -> str:
    """A molecule's identity in a reaction: its canonical SMILES without atom-map
    numbers (they pair atoms across the arrow; they are no part of the structure)."""
    from rdkit import Chem

    mol, _ = parse_line(m.smiles)
    if mol is None:
        return m.smiles
    for atom in mol.GetAtoms():
        atom.SetAtomMapNum(0)
    return str(Chem.MolToSmiles(mol))
