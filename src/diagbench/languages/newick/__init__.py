"""Newick: phylogenetic trees (STRUDEL's biology domain), read by Biopython's Bio.Phylo,
drawn by Bio.Phylo.draw on matplotlib (the `phylo` engine). Its styles are the
drawing's own options: each subtree of the root in a colour of its own, bold
branches, serif labels."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from diagbench.languages.newick.styles import STYLES
from diagbench.languages.record import Drawn, Language, expect
from diagbench.languages.styled import DrawerStyles

if TYPE_CHECKING:
    from diagbench.compare.scored import Scored
    from diagbench.diagram.facts import Fact
    from diagbench.formats.parsed import Diagram, Parsed
    from diagbench.render.engines import Engine


def recognises(text: str) -> bool:
    """A Newick source starts with `(` and its first tree ends with `;`."""
    stripped = text.removeprefix("\ufeff").strip()
    return stripped.startswith("(") and stripped.endswith(";")


#: A leaf's name: after `(` or `,`, a name of letters, digits and `_` starting with a letter.
_LEAF = re.compile(r"(?<=[(,])\s*[A-Za-z][A-Za-z0-9_]*")


class Newick(DrawerStyles, Language):
    """Newick as a `Language`: its parts, each importing what it uses when first called."""

    DRAWER_STYLES = STYLES

    def recognises(self, text: str) -> bool:
        return recognises(text)

    def make_engine(self, jobs: int = 2, timeout: float = 20.0) -> Engine:
        from diagbench.languages.newick.engine import PhyloEngine

        return PhyloEngine(jobs=jobs, timeout=timeout)

    def records(self, text: str) -> list[tuple[int, str]]:
        """Each tree statement of the file (Bio.Phylo draws one tree at a time)."""
        from diagbench.languages.newick.read import tree_texts

        return tree_texts(text)

    def read(self, text: str) -> Sequence[Parsed[Diagram]]:
        from diagbench.languages.newick.read import read_newick

        return read_newick(text)

    def drawn(self, kind: str, svg: str) -> Drawn:
        from diagbench.languages.newick.engine import tree_statistics

        return Drawn(tree_statistics(svg))

    def compare(self, gold: Parsed[Diagram], pred: Parsed[Diagram] | None,
                valid: bool) -> Scored:
        from diagbench.languages.newick.similarity import compare_trees

        return compare_trees(gold, pred, valid)

    def facts(self, diagram: Diagram) -> list[Fact]:
        from diagbench.diagram.graph import GraphDiagram
        from diagbench.diagram.phylogeny import tree_facts

        return tree_facts(expect(diagram, GraphDiagram))

    def generate(self, rng: random.Random, complexity: str) -> str:
        from diagbench.languages.newick.read import synth_newick

        return synth_newick(rng, complexity)

    def edit(self, code: str, rng: random.Random) -> str | None:
        """The first leaf renamed."""
        leaf = _LEAF.search(code)
        if leaf is None:
            return None
        changed = code[:leaf.end()] + "_x" + code[leaf.end():]
        return self.readable(changed)

    def rewrite(self, code: str, rng: random.Random) -> str | None:
        """The same trees: every node's children in another order, written by
        Biopython (lengths as read, comments left out)."""
        from diagbench.languages.newick.read import reordered

        return reordered(code, rng)


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
    libraries=("biopython", "matplotlib",),
)
