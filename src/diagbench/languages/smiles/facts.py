"""The facts STRUDEL's task types ask about a molecule's drawing, read off the model
RDKit gave (`diagbench.diagram.molecule.Molecule`), with their exact answers.

- identification: which elements are drawn; whether there is an aromatic ring; which
  functional groups (`languages.smiles.read.FUNCTIONAL_GROUPS`) it has;
- quantification: how many atoms of each element (hydrogens in labels such as "OH"
  not counted: they are no atoms of the drawing), how many rings, aromatic rings,
  double and triple bonds as drawn (aromatic rings in the Kekulé structure the
  drawing shows), charged atoms;
- structural: for each element drawn exactly once other than carbon, the elements of
  the atoms bonded to it (so the question names one atom).
"""

from __future__ import annotations

from typing import Any

from diagbench.diagram.facts import Fact
from diagbench.diagram.molecule import Molecule


def element_name(symbol: str) -> str:
    """The English name of an element ("Cl" → "chlorine"), as RDKit's periodic table
    gives it."""
    from rdkit import Chem

    table = Chem.GetPeriodicTable()
    return str(table.GetElementName(table.GetAtomicNumber(symbol))).lower()


def molecule_facts(model: Any) -> list[Fact]:
    """The facts of one molecule (none when `model` is not a `Molecule` with atoms)."""
    if not isinstance(model, Molecule) or not model.entities:
        return []
    elements = model.elements()
    drawn = model.drawn_bond_orders()
    facts = [
        Fact("identification", "elements", "Which chemical elements are drawn in the "
             "structure (element symbols)?", tuple(sorted(elements))),
        Fact("identification", "aromatic", "Does the molecule contain an aromatic ring?",
             bool(model.aromatic_rings)),
        Fact("identification", "groups", "Which functional groups does the molecule contain?",
             tuple(name for name, _ in model.groups)),
        Fact("quantification", "rings", "How many rings does the molecule contain?",
             len(model.rings)),
        Fact("quantification", "aromatic_rings", "How many aromatic rings does the molecule "
             "contain?", len(model.aromatic_rings)),
        Fact("quantification", "double_bonds", "How many double bonds are drawn?",
             drawn["double_bond"]),
        Fact("quantification", "triple_bonds", "How many triple bonds are drawn?",
             drawn["triple_bond"]),
        Fact("quantification", "charged_atoms", "How many atoms carry a formal charge?",
             model.counts()["charged_atoms"]),
    ]
    for symbol, count in sorted(elements.items()):
        facts.append(Fact("quantification", f"atoms:{symbol}",
                          f"How many {element_name(symbol)} atoms ({symbol}) does the "
                          "molecule contain (not counting hydrogens shown in labels)?",
                          count))
    for entity in model.entities:
        if entity.name != "C" and elements[entity.name] == 1:
            names = {e.id: e.name for e in model.entities}
            bonded = {names[n] for n in model.neighbours(entity.id)}
            facts.append(Fact("structural", f"bonded:{entity.name}",
                              f"Which elements are the atoms bonded to the "
                              f"{element_name(entity.name)} atom ({entity.name})? "
                              "Give each element once.", tuple(sorted(bonded))))
    return facts
