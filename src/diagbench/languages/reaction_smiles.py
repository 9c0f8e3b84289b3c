"""Reaction SMILES: chemical reactions (one a line), read and drawn by RDKit."""

from __future__ import annotations

from diagbench.languages.record import Language
from diagbench.languages.smiles import first_words, is_smiles


def recognises(text: str) -> bool:
    """A reaction SMILES source is one reaction a line: each line's first word is three
    parts split by ">" (reactants, agents, products), each empty or SMILES."""
    words = first_words(text)
    return bool(words) and all(
        w.count(">") == 2 and any(w.split(">")) and all(not part or is_smiles(part)
                                                        for part in w.split(">"))
        for w in words)


LANGUAGE = Language(
    doc=__doc__ or "",
    name="reaction-smiles",
    title="Reaction SMILES",
    suffixes=(".rxn.smi",),
    domain="chemistry",
    categories=("reaction",),
    kinds=("reaction",),
    reader="diagbench.formats.reaction_smiles:read_reaction_smiles",
    engine="rdkit-reaction",
    statistics="diagbench.render.rdkit_svg:reaction_statistics",
    similarity="diagbench.compare.reactions:compare_reactions",
    synth="diagbench.formats.reaction_synth:synth_reaction",
    facts="diagbench.formats.reaction_facts:reaction_facts",
    examples=("reaction-smiles-reaction.rxn.smi",),
    recognises=recognises,
    node_limits=(2, 200),
)
