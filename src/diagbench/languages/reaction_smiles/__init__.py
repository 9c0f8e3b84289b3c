"""Reaction SMILES: chemical reactions (one a line), read and drawn by RDKit, in the
styles of SMILES (RDKit's depiction options)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from diagbench.languages.record import Drawn, Language
from diagbench.languages.smiles import first_words, is_smiles
from diagbench.languages.smiles.styles import STYLES
from diagbench.languages.styled import DrawerStyles

if TYPE_CHECKING:
    from diagbench.compare.scored import Scored
    from diagbench.diagram.facts import Fact
    from diagbench.formats.parsed import Diagram, Parsed
    from diagbench.render.engines import Engine


def recognises(text: str) -> bool:
    """A reaction SMILES source is one reaction a line: each line's first word is three
    parts split by ">" (reactants, agents, products), each empty or SMILES."""
    words = first_words(text)
    return bool(words) and all(
        w.count(">") == 2 and any(w.split(">")) and all(not part or is_smiles(part)
                                                        for part in w.split(">"))
        for w in words)


class ReactionSmiles(DrawerStyles, Language):
    """Reaction SMILES as a `Language`: its parts, each importing what it uses when first called."""

    DRAWER_STYLES = STYLES

    def recognises(self, text: str) -> bool:
        return recognises(text)

    def records(self, text: str) -> list[tuple[int, str]]:
        from diagbench.languages.smiles.read import record_texts

        return record_texts(text)

    def make_engine(self, jobs: int = 2, timeout: float = 20.0) -> Engine:
        from diagbench.languages.smiles.engine import RdkitReactionEngine

        return RdkitReactionEngine(jobs=jobs, timeout=timeout)

    def read(self, text: str) -> Sequence[Parsed[Diagram]]:
        from diagbench.languages.reaction_smiles.read import read_reaction_smiles

        return read_reaction_smiles(text)

    def drawn(self, kind: str, svg: str) -> Drawn:
        from diagbench.languages.smiles.drawn import reaction_statistics

        return Drawn(reaction_statistics(svg))

    def compare(self, gold: Parsed[Diagram], pred: Parsed[Diagram] | None,
                valid: bool) -> Scored:
        from diagbench.languages.reaction_smiles.similarity import compare_reactions

        return compare_reactions(gold, pred, valid)

    def facts(self, diagram: Diagram) -> list[Fact]:
        from diagbench.languages.reaction_smiles.facts import reaction_facts

        return reaction_facts(diagram)

    def generate(self, rng: random.Random, complexity: str) -> str:
        from diagbench.languages.reaction_smiles.synth import synth_reaction

        return synth_reaction(rng, complexity)

    def edit(self, code: str, rng: random.Random) -> str | None:
        """A carbon bonded to the last atom of the first reaction's last product."""
        from diagbench.languages.smiles import with_atom_appended

        changed = with_atom_appended(code)
        return self.readable(changed)

    def rewrite(self, code: str, rng: random.Random) -> str | None:
        """The same reactions: each side's molecules in another order, each written
        from another atom."""
        from diagbench.languages.reaction_smiles.rewrite import another_reaction
        from diagbench.languages.smiles.rewrite import rewrite_lines

        return rewrite_lines(code, rng, another_reaction)


LANGUAGE = ReactionSmiles(
    doc=__doc__ or "",
    name="reaction-smiles",
    title="Reaction SMILES",
    suffixes=(".rxn.smi",),
    domain="chemistry",
    categories=("reaction",),
    kinds=("reaction",),
    engine="rdkit-reaction",
    examples=("reaction-smiles-reaction.rxn.smi",),
    node_limits=(2, 200),
    libraries=("rdkit",),
)
