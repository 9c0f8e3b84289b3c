"""Newick: phylogenetic trees (STRUDEL's biology domain), read by Biopython's Bio.Phylo,
drawn by Bio.Phylo.draw on matplotlib (the `phylo` engine)."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from diagbench.languages.record import Drawn, Language, expect

if TYPE_CHECKING:
    from diagbench.compare.scored import Scored
    from diagbench.diagram.facts import Fact
    from diagbench.formats.parsed import Diagram, Parsed


def recognises(text: str) -> bool:
    """A Newick source starts with `(` and its first tree ends with `;`."""
    stripped = text.removeprefix("\ufeff").strip()
    return stripped.startswith("(") and stripped.endswith(";")


#: A leaf's name: after `(` or `,`, a name of letters, digits and `_` starting with a letter.
_LEAF = re.compile(r"(?<=[(,])\s*[A-Za-z][A-Za-z0-9_]*")


class Newick(Language):
    """Newick as a `Language`: its parts, each importing what it uses when first called."""

    def recognises(self, text: str) -> bool:
        return recognises(text)

    def read(self, text: str) -> Sequence[Parsed[Diagram]]:
        from diagbench.formats.biology.newick import read_newick

        return read_newick(text)

    def drawn(self, kind: str, svg: str) -> Drawn:
        from diagbench.render.phylo import tree_statistics

        return Drawn(tree_statistics(svg))

    def compare(self, gold: Parsed[Diagram], pred: Parsed[Diagram] | None,
                valid: bool) -> Scored:
        from diagbench.compare.phylogeny import compare_trees

        return compare_trees(gold, pred, valid)

    def facts(self, diagram: Diagram) -> list[Fact]:
        from diagbench.diagram.graph import GraphDiagram
        from diagbench.diagram.phylogeny import tree_facts

        return tree_facts(expect(diagram, GraphDiagram))

    def generate(self, rng: random.Random, complexity: str) -> str:
        from diagbench.formats.biology.newick import synth_newick

        return synth_newick(rng, complexity)

    def edit(self, code: str, rng: random.Random) -> str | None:
        """The first leaf renamed."""
        leaf = _LEAF.search(code)
        if leaf is None:
            return None
        changed = code[:leaf.end()] + "_x" + code[leaf.end():]
        return changed if not any(p.errors for p in self.read(changed)) else None


LANGUAGE = Newick(
    doc=__doc__ or "",
    name="newick",
    title="Newick",
    suffixes=(".nwk", ".newick", ".tre", ".tree", ".dnd"),
    domain="biology",
    categories=("phylogenetic-tree",),
    kinds=("tree",),
    engine="phylo",
    examples=("newick-tree.nwk",),
    node_limits=(3, 120),
)
