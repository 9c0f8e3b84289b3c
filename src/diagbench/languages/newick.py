"""Newick: phylogenetic trees (STRUDEL's biology domain), read by Biopython's Bio.Phylo,
drawn by Bio.Phylo.draw on matplotlib (the `phylo` engine)."""

from __future__ import annotations

from diagbench.languages.record import Language


def recognises(text: str) -> bool:
    """A Newick source starts with `(` and its first tree ends with `;`."""
    stripped = text.removeprefix("\ufeff").strip()
    return stripped.startswith("(") and stripped.endswith(";")


LANGUAGE = Language(
    doc=__doc__ or "",
    name="newick",
    title="Newick",
    suffixes=(".nwk", ".newick", ".tre", ".tree", ".dnd"),
    domain="biology",
    categories=("phylogenetic-tree",),
    kinds=("tree",),
    reader="diagbench.formats.biology.newick:read_newick",
    engine="phylo",
    statistics="diagbench.render.phylo:tree_statistics",
    similarity="diagbench.compare.phylogeny:compare_trees",
    synth="diagbench.formats.biology.newick:synth_newick",
    facts="diagbench.diagram.phylogeny:tree_facts",
    examples=("newick-tree.nwk",),
    recognises=recognises,
    node_limits=(3, 120),
)
