"""The typed model of a chemical reaction: its reactants, agents and products, each a
`Molecule`, and all their atoms and bonds as one graph.

A `Reaction` is a `GraphDiagram` (language "reaction-smiles", kind "reaction") whose
entities and relations are the atoms and bonds of every molecule drawn (reactants,
agents, products), with ids prefixed by the molecule's role and place: "r1.a3" is the
third atom of the first reactant, "g1." an agent's, "p2." the second product's.
"""

from __future__ import annotations

from dataclasses import dataclass

from diagbench.diagram.graph import GraphDiagram
from diagbench.diagram.molecule import Molecule


@dataclass(frozen=True, slots=True)
class Reaction(GraphDiagram):
    """One reaction read from one reaction SMILES (its `name`: the title after it)."""

    reactants: tuple[Molecule, ...] = ()
    agents: tuple[Molecule, ...] = ()
    products: tuple[Molecule, ...] = ()

    def counts(self) -> dict[str, int]:
        """Atoms (`entities`) and bonds (`relations`) of all its molecules, the atoms
        that are a bond's end (`bonded_atoms`: what RDKit's reaction drawing marks), and
        how many reactants, agents and products."""
        ends = {end for r in self.relations for end in r.endpoints}
        return GraphDiagram.counts(self) | {
            "bonded_atoms": len(ends), "reactants": len(self.reactants),
            "agents": len(self.agents), "products": len(self.products)}

    def roles(self) -> tuple[tuple[str, tuple[Molecule, ...]], ...]:
        """(role, molecules) for "reactant", "agent" and "product", in that order."""
        return (("reactant", self.reactants), ("agent", self.agents),
                ("product", self.products))
