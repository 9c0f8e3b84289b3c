"""Newick trees drawn by Biopython's `Bio.Phylo.draw` on matplotlib (Agg), PNG and SVG
from one drawing, in worker processes (`render.drawing`: time-out, memory limit).

Valid means the Newick reader reads the file (`languages.newick.read.parse_trees`:
its grammar check on Biopython's tokens, then Biopython, on the text as Biopython joins
it, comments left out); their error is the engine's error. A file's first tree is
drawn (rectangular cladogram, root on the left), leaves labelled with their names, no
internal labels or support values (so every text of the SVG is a leaf's label), axes
hidden. Trees over `MAX_LEAVES` leaves are refused (the drawing grows with the leaves).
A source in an envelope (`languages.styled`) is drawn in its style: each subtree of
the root in its own colour (matplotlib's tab10 cycle), branches three times as wide,
or labels in a serif font.

What the SVG shows (`tree_statistics`): matplotlib writes each line `Phylo.draw` draws
as its own `<g id="LineCollection_N">` holding one two-point path, and `Phylo.draw`
adds first every node's horizontal line (pre-order; from its parent's x to its own,
the root's from 0 to the root's length, maybe none), then every internal node's
vertical line joining its children (pre-order). A line whose ends differ in x is
horizontal, one whose ends differ in y vertical (a node with two children or more
spans their distinct heights). A point (a zero-length branch, a unary node's vertical
line) between the last horizontal and the first vertical line is horizontal, unless
it sits where the root's line ends: the vertical of a unary root (and those of a chain
of unary nodes below it) comes first among the verticals. (A unary root whose child
has a zero-length branch draws two identical points: read as two verticals.)
Nodes = horizontal lines, internal nodes = vertical lines, branches = nodes − 1; leaf
labels = the `<text>` elements (text kept as text: `svg.fonttype` "none"), so
unnamed leaves are counted as leaves but not as labels.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from diagbench.languages.newick.styles import STYLES
from diagbench.languages.styled import opened
from diagbench.render.drawing import DrawingEngine, figure, images

#: Trees with more leaves are not drawn.
MAX_LEAVES = 1000
_SVG = "{http://www.w3.org/2000/svg}"


def draw_tree(source: str) -> dict[str, Any]:
    """{"svg": bytes, "png": bytes} of the first tree of `source` (runs in a worker), or
    {"error": the reader's or Biopython's message, "line": its line or None}."""
    import matplotlib
    from Bio import Phylo

    from diagbench.languages.newick.read import parse_trees

    style, source = opened(source, STYLES)
    trees, error = parse_trees(source.removeprefix("\ufeff"))
    if error is not None:
        return {"error": f"column {error[1]}: {error[2]}", "line": error[0]}
    if not trees:
        return {"error": "Biopython: no tree", "line": None}
    tree = trees[0]
    leaves = tree.count_terminals()
    if leaves > MAX_LEAVES:
        return {"error": f"{leaves:,} leaves, over the {MAX_LEAVES:,}-leaf drawing limit",
                "line": None, "too_large": True}
    if style == "coloured-clades":
        for k, clade in enumerate(tree.root.clades):
            clade.color = matplotlib.colors.to_hex(f"C{k % 10}")
    elif style == "bold-branches":
        tree.root.width = 3
    font: dict[Any, Any] = {"font.family": "serif"} if style == "serif-labels" else {}
    with matplotlib.rc_context(font), figure(7, 0.6 + 0.25 * leaves) as (fig, axes):
        Phylo.draw(tree, axes=axes, do_show=False,
                   label_func=lambda c: c.name if c.is_terminal() and c.name else None,
                   branch_labels=lambda c: None)
        axes.set_axis_off()
        return images(fig)


class PhyloEngine(DrawingEngine):
    """Render Newick with Bio.Phylo + matplotlib in worker processes (PNG and SVG from
    one drawing: `DrawingEngine`)."""

    name = "phylo"
    drawer = "diagbench.languages.newick.engine:draw_tree"
    preload = ("matplotlib.pyplot", "Bio.Phylo")

    def version(self) -> str:
        return self.versions("biopython", "matplotlib")


def _segments(svg: str) -> tuple[list[tuple[float, float, float, float]], list[str]]:
    """The two-point lines of an SVG's `LineCollection_*` groups, in order, and its texts."""
    root = ET.fromstring(svg)
    lines = []
    for group in root.iter(f"{_SVG}g"):
        if not group.get("id", "").startswith("LineCollection_"):
            continue
        for path in group.iter(f"{_SVG}path"):
            numbers = [float(x) for x in path.get("d", "").replace("M", " ").replace("L", " ")
                       .split()]
            if len(numbers) == 4:
                x1, y1, x2, y2 = numbers
                lines.append((x1, y1, x2, y2))
    texts = ["".join(t.itertext()).strip() for t in root.iter(f"{_SVG}text")]
    return lines, texts


def tree_statistics(svg: str) -> dict[str, Any]:
    """What `Bio.Phylo.draw` drew (see the module's docstring): entities (nodes),
    relations (branches), leaves, internal nodes, and the leaf labels."""
    lines, labels = _segments(svg)
    eps = 1e-3
    last_h = max((k for k, (x1, _, x2, _) in enumerate(lines) if abs(x1 - x2) > eps),
                 default=-1)
    first_v = min((k for k, (_, y1, _, y2) in enumerate(lines) if abs(y1 - y2) > eps),
                  default=len(lines))
    horizontal = max(last_h + 1, min(1, len(lines)))  # the first line is the root's
    for k in range(horizontal, first_v):  # points between: see the docstring
        x, y = lines[k][0], lines[k][1]
        if abs(lines[0][2] - x) <= eps and abs(lines[0][3] - y) <= eps:
            break
        horizontal = k + 1
    internal = len(lines) - horizontal
    return {"entities": horizontal, "relations": max(0, horizontal - 1),
            "leaves": horizontal - internal, "internal": internal,
            "leaf_labels": len(labels), "leaf_names": labels}
