"""A phylogenetic tree as diagbench models it: a `GraphDiagram` of kind "tree" whose
entities are nodes ("leaf" or "internal", in pre-order, the root first) and whose
relations are branches (type "branch", parent → child). A node's branch length and
support are kept as its entity's properties ("length", "support"), as written.

`Phylogeny` is the read-only view the similarity and the facts need (children,
leaves under a node, clades, depth), and `tree_facts` the questions STRUDEL's task
types ask of a tree (paper 004 §3.4), answered from the reader's model.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from diagbench.diagram.facts import Fact
from diagbench.diagram.graph import Entity, GraphDiagram


@dataclass(frozen=True)
class Phylogeny:
    """The tree of a Newick `GraphDiagram` (its first entity is the root)."""

    diagram: GraphDiagram

    @cached_property
    def children(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {e.id: [] for e in self.diagram.entities}
        for r in self.diagram.relations:
            out[r.source].append(r.target)
        return out

    @cached_property
    def parent(self) -> dict[str, str]:
        return {r.target: r.source for r in self.diagram.relations}

    @property
    def root(self) -> Entity | None:
        return self.diagram.entities[0] if self.diagram.entities else None

    @property
    def leaves(self) -> list[Entity]:
        return [e for e in self.diagram.entities if e.kind == "leaf"]

    @cached_property
    def _below(self) -> dict[str, tuple[list[str], int]]:
        """Per node: the names of the leaves under it (itself for a leaf), in order, and
        its height in branches; computed bottom-up (entities are in pre-order), so deep
        trees need no recursion."""
        out: dict[str, tuple[list[str], int]] = {}
        for e in reversed(self.diagram.entities):
            kids = self.children[e.id]
            if not kids:
                out[e.id] = ([e.name], 0)
            else:
                out[e.id] = ([n for k in kids for n in out[k][0]],
                             1 + max(out[k][1] for k in kids))
        return out

    def leaf_names(self, node: str) -> list[str]:
        """The names of the leaves under `node` (itself when it is a leaf), in order."""
        return self._below[node][0]

    def clades(self) -> list[frozenset[str]]:
        """The leaf-name sets of the internal nodes below the root that hold more than one
        leaf: the tree's non-trivial clusters (as a rooted Robinson–Foulds distance counts
        them)."""
        root = self.root
        out = []
        for e in self.diagram.entities:
            if e.kind == "internal" and root is not None and e.id != root.id:
                names = frozenset(self.leaf_names(e.id))
                if len(names) > 1:
                    out.append(names)
        return out

    def depth(self) -> int:
        """Branches on the longest path from the root down to a leaf (0: one node), the
        root's own branch included when one is drawn (a root with a length: the drawing
        starts it at the left edge)."""
        if self.root is None:
            return 0
        return self._below[self.root.id][1] + (self.drawn_lengths()[self.root.id] > 0)

    def drawn_lengths(self) -> dict[str, float]:
        """The length each node's branch is drawn with, as `Bio.Phylo.draw` draws it: its
        length (none given: 0); a tree without any length draws each branch below the
        root one unit long (the root's none)."""
        given = {e.id: self.length(e) or 0.0 for e in self.diagram.entities}
        if any(given.values()):
            return given
        root = self.root.id if self.root is not None else ""
        return {node: 0.0 if node == root else 1.0 for node in given}

    def branches_seen(self, share: float = 0.02) -> bool:
        """Whether every branch of the drawing can be seen: each branch below the root,
        and the root's own if it has one, at least `share` of the drawing's width (the
        longest distance from the left edge to a leaf). Where one cannot (0.007 beside
        900), two nodes are drawn on one spot and the branches of a path cannot be
        counted."""
        lengths = self.drawn_lengths()
        x: dict[str, float] = {}
        for e in self.diagram.entities:  # pre-order: a parent before its children
            x[e.id] = x.get(self.parent.get(e.id, ""), 0.0) + lengths[e.id]
        width = max(x.values(), default=0.0)
        root = self.root.id if self.root is not None else ""
        return width > 0 and all(length >= share * width for node, length in lengths.items()
                                 if node != root or length > 0)

    @staticmethod
    def length(entity: Entity) -> float | None:
        """The length of the branch above `entity`, or None when not given."""
        value = dict(entity.properties).get("length")
        return float(value) if value is not None else None


#: The longest branch is asked only when it is this much longer than the second (a
#: 10 % longer line is told apart by eye; 885.3 against 879.5 is not).
LONGEST_MARGIN = 1.10


def tree_facts(diagram: GraphDiagram) -> list[Fact]:
    """The facts of a tree: how many leaves and how deep (quantification), which leaf has
    the longest branch (identification), which leaves form the smallest clade with the
    first leaf and whether two leaves are sisters (structural). What the drawing must
    show for a question to be asked: the depth, only when every branch can be seen
    (`Phylogeny.branches_seen`: each at least 2 % of the drawing's width), counting the
    root's own branch when one is drawn; questions naming leaves, only when every leaf
    has a name of its own (else the image is ambiguous); the longest branch, only when
    every leaf's length is given and the longest is at least `LONGEST_MARGIN` times the
    second."""
    tree = Phylogeny(diagram)
    leaves = tree.leaves
    facts = [Fact("quantification", "leaves", "How many leaves (tips) does the tree have?",
                  len(leaves))]
    if tree.branches_seen():
        root = tree.root
        rooted = root is not None and tree.drawn_lengths()[root.id] > 0
        facts.append(Fact("quantification", "depth", "How many branches are on the longest "
                          "path from the root to a leaf"
                          + (" (the root's own branch, at the left edge, included)?"
                             if rooted else "?"), tree.depth()))
    names = [e.name for e in leaves]
    if len(leaves) < 3 or "" in names or len(set(names)) < len(names):
        return facts
    lengths = [(tree.length(e), e.name) for e in leaves]
    known = sorted((x, n) for x, n in lengths if x is not None)
    if len(known) == len(leaves) and known[-1][0] >= LONGEST_MARGIN * known[-2][0]:
        facts.append(Fact("identification", "longest-branch",
                          "Which leaf has the longest branch?", known[-1][1]))
    first = leaves[0]
    clade = tree.leaf_names(tree.parent[first.id])
    facts.append(Fact("structural", "clade",
                      f"Which other leaves form the smallest clade that contains {first.name}?",
                      tuple(sorted(n for n in clade if n != first.name))))
    for other in (leaves[1], leaves[-1]):
        sisters = (tree.parent[other.id] == tree.parent[first.id]
                   and len(tree.children[tree.parent[first.id]]) == 2)
        facts.append(Fact("structural", "sisters",
                          f"Are {first.name} and {other.name} sister taxa (the only two "
                          "leaves of a clade)?", sisters))
    return facts
