"""The typed model of a molecule: a graph of atoms and bonds with its chemistry.

A `Molecule` is a `GraphDiagram` (language "smiles", kind "molecule"), so the graph
comparison and counts apply: each atom is an `Entity` of kind "atom" whose `name` is
its element symbol, each bond a `Relation` whose `type` is its order
("single_bond", "double_bond", "triple_bond", "quadruple_bond", "aromatic_bond",
"dative_bond"). Atom ids are "a1", "a2", … in the order of the SMILES (the reader's
atom index plus one). Hydrogens that the SMILES leaves implicit are no atoms (the
drawing shows them inside labels such as "OH"): an atom's `Entity.properties` keep
its ("charge", "+1"), ("hydrogens", "2"), ("aromatic", "yes") and ("isotope", "13")
where they are not zero. An aromatic bond is drawn as the single or double bond of a
Kekulé structure: its ("drawn", "double_bond") property says which.

What the field adds to the graph: `smiles` (canonical, as RDKit writes it), `formula`
(Hill order, hydrogens included), `rings` (the smallest set of smallest rings, each
as its atoms' ids in ring order), which of them are aromatic, the formal charge, and
the functional groups found (`groups`: name and how many times).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from diagbench.diagram.graph import GraphDiagram

Ring = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Molecule(GraphDiagram):
    """One molecule read from one SMILES (its `name`: the title after the SMILES)."""

    smiles: str = ""
    formula: str = ""
    rings: tuple[Ring, ...] = ()
    aromatic_rings: tuple[Ring, ...] = ()
    charge: int = 0
    groups: tuple[tuple[str, int], ...] = ()

    def counts(self) -> dict[str, int]:
        """What the engine draws — atoms (`entities`) and bonds (`relations`) — and the
        rings, aromatic rings and charged atoms the drawing shows."""
        return GraphDiagram.counts(self) | {
            "rings": len(self.rings),
            "aromatic_rings": len(self.aromatic_rings),
            "charged_atoms": sum(1 for e in self.entities if _property(e.properties, "charge")),
        }

    def elements(self) -> Counter[str]:
        """How many atoms of each element (implicit hydrogens not counted)."""
        return Counter(e.name for e in self.entities)

    def bond_orders(self) -> Counter[str]:
        """How many bonds of each type (`Relation.type`)."""
        return Counter(r.type for r in self.relations)

    def drawn_bond_orders(self) -> Counter[str]:
        """How many bonds of each type the 2D drawing shows (aromatic rings in a Kekulé
        structure: as single and double bonds)."""
        return Counter(_property(r.properties, "drawn") or r.type for r in self.relations)

    def neighbours(self, atom: str) -> tuple[str, ...]:
        """The ids of the atoms bonded to `atom`, in bond order."""
        return tuple(r.target if r.source == atom else r.source for r in self.relations
                     if atom in r.endpoints)


def _property(properties: tuple[tuple[str, str], ...], key: str) -> str:
    return next((v for k, v in properties if k == key), "")


def atom_property(molecule: Molecule, atom: str, key: str) -> str:
    """An atom's property ("charge", "hydrogens", "aromatic", "isotope"), "" when zero."""
    entity = molecule.entity(atom)
    return "" if entity is None else _property(entity.properties, key)
