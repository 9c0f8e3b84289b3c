"""Image-to-code similarity of phylogenetic trees (Newick): how much of the gold tree's
topology and taxa a predicted tree gets right.

Both codes are read by the language's reader (`Language.read`); the first tree of each
is compared. Leaf names are matched after Newick's own normalisation (an unquoted `_`
is a space) with case and runs of spaces ignored. The score is
`metrics.tree_score`: 𝟙[valid] · (normalised Robinson–Foulds similarity of the rooted
clusters + leaf-name F1) / 2; a prediction that does not read scores 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from diagbench.compare.graph import Match, match, model_of
from diagbench.diagram.graph import GraphDiagram
from diagbench.diagram.phylogeny import Phylogeny
from diagbench.formats.parsed import Diagram, Parsed
from diagbench.scoring import metrics


def leaf_key(name: str) -> str:
    """A leaf name as compared: `_` as a space, spaces collapsed, case folded."""
    return " ".join(name.replace("_", " ").split()).casefold()


@dataclass(frozen=True, slots=True)
class TreeComparison:
    """The comparison of a predicted tree with the gold one: `leaves` (names matched as
    a multiset), `clades` (non-trivial rooted clusters matched as sets), the two
    similarities and the counts of each side."""

    valid: bool
    leaves: Match
    clades: Match
    rf_similarity: float
    leaf_f1: float
    gold_counts: dict[str, int] = field(default_factory=dict)
    pred_counts: dict[str, int] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    kind = "tree"

    @property
    def score(self) -> float:
        return metrics.tree_score(self.valid, self.rf_similarity, self.leaf_f1)

    @property
    def counts_score(self) -> float:
        return metrics.strudel_count_score(self.valid, self.gold_counts, self.pred_counts)

    @property
    def entities(self) -> Match:
        """The leaves (the graph comparison's name for what is matched as nodes)."""
        return self.leaves

    @property
    def relations(self) -> Match:
        """The clades (their F1 is the Robinson–Foulds similarity)."""
        return self.clades

    def as_dict(self) -> dict[str, Any]:
        return {"status": "ok", "kind": "tree", "valid": self.valid,
                "leaves": self.leaves.as_dict(), "clades": self.clades.as_dict(),
                "rf_similarity": round(self.rf_similarity, 6),
                "leaf_f1": round(self.leaf_f1, 6), "score": round(self.score, 6),
                "counts_score": round(self.counts_score, 6), "warnings": list(self.warnings)}


def _parts(diagram: Any) -> tuple[list[str], list[frozenset[str]], dict[str, int]]:
    """(leaf keys, clusters of leaf keys, counts) of a tree; nothing for no tree."""
    if not isinstance(diagram, GraphDiagram) or not diagram.entities:
        return [], [], {}
    tree = Phylogeny(diagram)
    leaves = [leaf_key(e.name) for e in tree.leaves]
    clades = [frozenset(leaf_key(n) for n in clade) for clade in tree.clades()]
    counts = {"leaves": len(leaves), "internal": len(diagram.entities) - len(leaves)}
    return leaves, clades, counts


def compare_trees(gold_read: Parsed[Diagram], pred_read: Parsed[Diagram] | None,
                  valid: bool) -> TreeComparison:
    """Compare a predicted Newick code with its gold code (both read by its language's reader)."""
    gold, _, _ = model_of(gold_read)
    pred, _, warnings = model_of(pred_read)
    g_leaves, g_clades, g_counts = _parts(gold)
    p_leaves, p_clades, p_counts = _parts(pred)
    leaves = match([(leaf,) for leaf in g_leaves], [(leaf,) for leaf in p_leaves])
    g_set, p_set = set(g_clades), set(p_clades)
    clades = Match(len(g_set), len(p_set), len(g_set & p_set),
                   tuple(sorted(",".join(sorted(c)) for c in g_set - p_set)),
                   tuple(sorted(",".join(sorted(c)) for c in p_set - g_set)))
    return TreeComparison(valid, leaves, clades,
                          metrics.robinson_foulds_similarity(g_set, p_set),
                          metrics.leaf_f1(g_leaves, p_leaves), g_counts, p_counts, warnings)
