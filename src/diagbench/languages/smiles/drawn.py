"""What RDKit drew in its SVG: atoms and bonds counted from the marks on the drawing.

RDKit's `MolDraw2DSVG` gives every path it draws a class: a bond's line(s) are
`bond-N atom-I atom-J`, an atom's label glyphs `atom-I` (carbons in a chain carry
no label: they are the bond ends). So the drawn atoms are the distinct `atom-I` named
anywhere, the drawn bonds the distinct `bond-N`. The metadata RDKit adds
(`<rdkit:atom atom-smiles="[NH2]">`, `<rdkit:bond bond-smiles="=">`) says what each
drawn atom and bond is: the elements and the bond orders are counted from it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any

_RDKIT = "{http://www.rdkit.org/xml}"
_ORDERS = {"-": "single_bond", "=": "double_bond", "#": "triple_bond", "$": "quadruple_bond",
           ":": "aromatic_bond", "->": "dative_bond", "<-": "dative_bond"}


def molecule_statistics(svg: str) -> dict[str, Any]:
    """{"entities": atoms drawn, "relations": bonds drawn, "clusters": 0, "notes": 0,
    "elements": {symbol: n}, "bonds": {bond type: n}} of an RDKit SVG (the keys of
    `GraphDiagram.counts()`; an SVG that does not parse: zeros)."""
    try:
        root = ET.fromstring(svg.encode("utf-8"))
    except ET.ParseError:
        return {"entities": 0, "relations": 0, "clusters": 0, "notes": 0, "elements": {},
                "bonds": {}}
    atoms: set[str] = set()
    bonds: set[str] = set()
    for element in root.iter():
        for mark in element.get("class", "").split():
            if mark.startswith("atom-"):
                atoms.add(mark)
            elif mark.startswith("bond-"):
                bonds.add(mark)
    elements: Counter[str] = Counter()
    orders: Counter[str] = Counter()
    for element in root.iter(f"{_RDKIT}atom"):
        elements[_symbol(element.get("atom-smiles", ""))] += 1
    for element in root.iter(f"{_RDKIT}bond"):
        orders[_ORDERS.get(element.get("bond-smiles", ""), "single_bond")] += 1
    return {"entities": len(atoms), "relations": len(bonds), "clusters": 0, "notes": 0,
            "elements": dict(elements), "bonds": dict(orders)}


def _symbol(atom_smiles: str) -> str:
    """The element of one atom's SMILES ("[13CH3]" → "C", "[nH]" → "N", "Cl" → "Cl")."""
    from rdkit import Chem

    atom = Chem.AtomFromSmiles(atom_smiles) if atom_smiles else None
    return atom.GetSymbol() if atom is not None else "?"


def reaction_statistics(svg: str) -> dict[str, Any]:
    """{"bonded_atoms": atoms drawn as a bond's end, "relations": bonds drawn,
    "clusters": 0, "notes": 0} of an RDKit reaction SVG (keys of `Reaction.counts()`).
    Its bonds, and the atoms a bond's class names, are numbered across the whole
    reaction; an atom's label is numbered within its molecule, so a molecule of one
    atom (water, an ion) is a label the SVG does not tell apart: only atoms at a bond's
    end are counted (the reader's `bonded_atoms`)."""
    try:
        root = ET.fromstring(svg.encode("utf-8"))
    except ET.ParseError:
        return {"bonded_atoms": 0, "relations": 0, "clusters": 0, "notes": 0}
    atoms: set[str] = set()
    bonds: set[str] = set()
    for element in root.iter():
        marks = element.get("class", "").split()
        if marks and marks[0].startswith("bond-"):
            bonds.add(marks[0])
            atoms.update(m for m in marks[1:] if m.startswith("atom-"))
    return {"bonded_atoms": len(atoms), "relations": len(bonds), "clusters": 0, "notes": 0}
