"""SMILES: chemical structures (one molecule a line), read and drawn by RDKit. Its styles
are RDKit's depiction options: the black-and-white atom palette, comic mode, bold bonds
and the drawing turned a quarter."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from diagbench.languages.record import Drawn, Language
from diagbench.languages.smiles.styles import STYLES
from diagbench.languages.styled import DrawerStyles

if TYPE_CHECKING:
    from diagbench.compare.scored import Scored
    from diagbench.diagram.facts import Fact
    from diagbench.formats.parsed import Diagram, Parsed
    from diagbench.render.engines import Engine

#: What a SMILES may hold outside bracket atoms (OpenSMILES: the organic subset, aromatic
#: atoms, bonds, branches, ring closures, dots and the wildcard); "l" and "r" only in
#: "Cl" and "Br".
_OUTSIDE = frozenset("BCNOPSFIbcnops*()=#$:/\\%.-0123456789~")


def is_smiles(word: str) -> bool:
    """Whether `word` is written in SMILES's alphabet (OpenSMILES) and names an atom; a
    bracket atom starts with its isotope (digits) and an element or `*`."""
    atoms, depth, previous = 0, 0, ""
    for k, char in enumerate(word):
        if char == "[":
            depth, atoms = depth + 1, atoms + 1
            element = word[k + 1:].lstrip("0123456789")[:1]
            if not (element.isalpha() or element == "*"):
                return False
        elif char == "]":
            depth -= 1
        elif depth == 0 and not (char in _OUTSIDE or (char, previous) in (("l", "C"),
                                                                          ("r", "B"))):
            return False
        elif depth == 0 and char.isalpha():
            atoms += 1
        previous = char
    return depth == 0 and atoms > 0


def first_words(text: str) -> list[str]:
    """The first word of each non-blank line, without a column header ("SMILES …")."""
    words = [line.split()[0] for line in text.splitlines() if line.strip()]
    return words[1:] if words and words[0].casefold() == "smiles" else words


def recognises(text: str) -> bool:
    """A SMILES source is one molecule a line: each line's first word is written in
    SMILES's alphabet (OpenSMILES) and names an atom; a first line naming its columns
    ("SMILES Name") is allowed."""
    words = first_words(text)
    return bool(words) and all(is_smiles(w) for w in words)


def with_atom_appended(code: str) -> str:
    """`code` with a carbon bonded to the last atom of its first record's SMILES."""
    lines = code.split("\n")
    k = next(n for n, line in enumerate(lines) if line.strip()
             and line.split()[0].casefold() != "smiles")
    word, *rest = lines[k].strip().split(None, 1)
    lines[k] = " ".join([word + "C", *rest])
    return "\n".join(lines)


def with_methyl(code: str, rng: random.Random) -> str | None:
    """`code` with a carbon bonded to one atom of its first record's molecule that holds
    an implicit hydrogen to give and no charge (`rng`'s choice among those whose
    valence takes the bond), written canonically by RDKit: one more carbon,
    its rings and the rest unchanged. None when RDKit does not read that molecule or no
    atom holds a hydrogen."""
    from rdkit import Chem

    lines = code.split("\n")
    k = next((n for n, line in enumerate(lines) if line.strip()
              and line.split()[0].casefold() != "smiles"), None)
    if k is None:
        return None
    word, *rest = lines[k].strip().split(None, 1)
    mol = Chem.MolFromSmiles(word)
    if mol is None:
        return None
    atoms = [a.GetIdx() for a in mol.GetAtoms() if a.GetTotalNumHs() > 0
             and a.GetNumExplicitHs() == 0 and a.GetFormalCharge() == 0]
    rng.shuffle(atoms)
    for atom in atoms:  # the first that takes the bond (RDKit checks the valence)
        edited = Chem.RWMol(mol)
        edited.AddBond(atom, edited.AddAtom(Chem.Atom(6)), Chem.BondType.SINGLE)
        try:
            Chem.SanitizeMol(edited)
        except Chem.rdchem.MolSanitizeException:
            continue
        break
    else:
        return None
    lines[k] = " ".join([Chem.MolToSmiles(edited), *rest])
    return "\n".join(lines)


class Smiles(DrawerStyles, Language):
    """SMILES as a `Language`: its parts, each importing what it uses when first called."""

    DRAWER_STYLES = STYLES

    def recognises(self, text: str) -> bool:
        return recognises(text)

    def records(self, text: str) -> list[tuple[int, str]]:
        from diagbench.languages.smiles.read import record_texts

        return record_texts(text)

    def make_engine(self, jobs: int = 2, timeout: float = 20.0) -> Engine:
        from diagbench.languages.smiles.engine import RdkitEngine

        return RdkitEngine(jobs=jobs, timeout=timeout)

    def read(self, text: str) -> Sequence[Parsed[Diagram]]:
        from diagbench.languages.smiles.read import read_smiles

        return read_smiles(text)

    def drawn(self, kind: str, svg: str) -> Drawn:
        from diagbench.languages.smiles.drawn import molecule_statistics

        return Drawn(molecule_statistics(svg))

    def compare(self, gold: Parsed[Diagram], pred: Parsed[Diagram] | None,
                valid: bool) -> Scored:
        from diagbench.languages.smiles.similarity import compare_smiles

        return compare_smiles(gold, pred, valid)

    def facts(self, diagram: Diagram) -> list[Fact]:
        from diagbench.languages.smiles.facts import molecule_facts

        return molecule_facts(diagram)

    def generate(self, rng: random.Random, complexity: str) -> str:
        from diagbench.languages.smiles.synth import synth_smiles

        return synth_smiles(rng, complexity)

    def edit(self, code: str, rng: random.Random) -> str | None:
        """A carbon bonded to an atom of the first molecule (`with_methyl`)."""
        changed = with_methyl(code, rng)
        return None if changed is None else self.readable(changed)

    def rewrite(self, code: str, rng: random.Random) -> str | None:
        """The same molecules: each written from another atom, half the time in its
        Kekulé form."""
        from diagbench.languages.smiles.rewrite import another_smiles, rewrite_lines

        return rewrite_lines(code, rng, another_smiles)


LANGUAGE = Smiles(
    doc=__doc__ or "",
    name="smiles",
    title="SMILES",
    suffixes=(".smi", ".smiles"),
    domain="chemistry",
    categories=("molecule",),
    kinds=("molecule",),
    engine="rdkit",
    examples=("smiles-molecule.smi",),
    node_limits=(1, 80),
    libraries=("rdkit",),
)
