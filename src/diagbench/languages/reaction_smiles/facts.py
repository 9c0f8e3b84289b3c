"""The facts STRUDEL's task types ask about a reaction's drawing, read off the model
RDKit gave (`diagbench.diagram.reaction.Reaction`), with their exact answers.

- identification: whether reagents are drawn over the arrow; which elements the
  products hold;
- quantification: how many reactants, products and reagents are drawn; how many
  atoms (hydrogens in labels not counted) the reactants and the products have;
- structural: which functional groups (`languages.smiles.read.FUNCTIONAL_GROUPS`) the
  products have that no reactant has (formed), and which the reactants have that no
  product has (consumed).
"""

from __future__ import annotations

from typing import Any

from diagbench.diagram.facts import Fact
from diagbench.diagram.molecule import Molecule
from diagbench.diagram.reaction import Reaction


def _groups(molecules: tuple[Molecule, ...]) -> set[str]:
    return {name for m in molecules for name, _ in m.groups}


def reaction_facts(model: Any) -> list[Fact]:
    """The facts of one reaction (none when `model` is not a `Reaction` with molecules)."""
    if not isinstance(model, Reaction) or not (model.reactants or model.products):
        return []
    before, after = _groups(model.reactants), _groups(model.products)
    return [
        Fact("identification", "reagents", "Are reagents or conditions drawn over the "
             "reaction arrow?", bool(model.agents)),
        Fact("identification", "product_elements", "Which chemical elements do the "
             "products contain (element symbols)?",
             tuple(sorted({e for m in model.products for e in m.elements()}))),
        Fact("quantification", "reactants", "How many reactant molecules are drawn left "
             "of the arrow?", len(model.reactants)),
        Fact("quantification", "products", "How many product molecules are drawn right "
             "of the arrow?", len(model.products)),
        Fact("quantification", "reagents_count", "How many molecules are drawn over the "
             "arrow?", len(model.agents)),
        Fact("quantification", "reactant_atoms", "How many atoms do the reactants have in "
             "all (not counting hydrogens shown in labels)?",
             sum(len(m.entities) for m in model.reactants)),
        Fact("quantification", "product_atoms", "How many atoms do the products have in "
             "all (not counting hydrogens shown in labels)?",
             sum(len(m.entities) for m in model.products)),
        Fact("structural", "groups_formed", "Which functional groups do the products have "
             "that no reactant has?", tuple(sorted(after - before))),
        Fact("structural", "groups_consumed", "Which functional groups do the reactants "
             "have that no product has?", tuple(sorted(before - after))),
    ]
