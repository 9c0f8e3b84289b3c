"""DendroPy's reading of a Newick tree: the independent oracle of the Newick reader."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class OracleTree:
    nodes: int
    leaves: int
    leaf_names: tuple[str, ...]
    clades: frozenset[frozenset[str]]


def dendropy_trees(text: str) -> list[OracleTree]:
    """Every tree of `text` as DendroPy reads it (labels as written: underscores kept)."""
    import dendropy

    out = []
    for tree in dendropy.TreeList.get(data=text, schema="newick", preserve_underscores=True,
                                      suppress_internal_node_taxa=True,
                                      suppress_leaf_node_taxa=False):
        nodes = list(tree.preorder_node_iter())
        leaves = [n for n in nodes if n.is_leaf()]
        names = tuple((n.taxon.label if n.taxon is not None else "") or "" for n in leaves)
        clades = frozenset(
            frozenset((x.taxon.label if x.taxon is not None else "") or ""
                      for x in n.leaf_iter())
            for n in nodes if not n.is_leaf() and n is not tree.seed_node
            and len(list(n.leaf_iter())) > 1)
        out.append(OracleTree(len(nodes), len(leaves), names, clades))
    return out
