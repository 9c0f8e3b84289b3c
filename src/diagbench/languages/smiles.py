"""SMILES: chemical structures (one molecule a line), read and drawn by RDKit."""

from __future__ import annotations

from diagbench.languages.record import Language

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


LANGUAGE = Language(
    doc=__doc__ or "",
    name="smiles",
    title="SMILES",
    suffixes=(".smi", ".smiles"),
    domain="chemistry",
    categories=("molecule",),
    kinds=("molecule",),
    reader="diagbench.formats.smiles:read_smiles",
    engine="rdkit",
    statistics="diagbench.render.rdkit_svg:molecule_statistics",
    similarity="diagbench.compare.molecules:compare_smiles",
    synth="diagbench.formats.smiles_synth:synth_smiles",
    facts="diagbench.formats.smiles_facts:molecule_facts",
    examples=("smiles-molecule.smi",),
    recognises=recognises,
    node_limits=(1, 80),
)
