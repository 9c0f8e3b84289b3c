"""The mind map model (`MindMap`, a tree of `MindNode`), made from the node tree Mermaid's
own parser fills (`own.py`), and the Mermaid code of a mind map (`write_mindmap`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

#: Mermaid's node types (`mindmapDb.nodeType`) by name, and how each is written.
SHAPES = ("default", "rounded", "square", "circle", "cloud", "bang", "hexagon")
_BRACKETS = {"default": ("", ""), "rounded": ("(", ")"), "square": ("[", "]"),
             "circle": ("((", "))"), "cloud": (")", "("), "bang": ("))", "(("),
             "hexagon": ("{{", "}}")}


@dataclass(frozen=True, slots=True)
class MindNode:
    """One node: its `label` (the text drawn), `shape` (one of `SHAPES`), `icon` (its
    `::icon(…)` classes, "" for none), `id` as written, and its children in order."""

    label: str
    shape: str = "default"
    icon: str = ""
    id: str = ""
    children: tuple[MindNode, ...] = ()

    def walk(self, depth: int = 0, parent: MindNode | None = None
             ) -> Iterator[tuple[MindNode, int, MindNode | None]]:
        """(node, depth, parent) of this node and every node below it, depth first."""
        yield self, depth, parent
        for child in self.children:
            yield from child.walk(depth + 1, self)


@dataclass(frozen=True, slots=True)
class MindMap:
    """A mind map: its root node (None: no node)."""

    root: MindNode | None = None

    def nodes(self) -> list[tuple[MindNode, int, MindNode | None]]:
        """(node, depth, parent) of every node, depth first; the root at depth 0."""
        return list(self.root.walk()) if self.root else []

    @property
    def depth(self) -> int:
        """The depth of the deepest node (the root's is 0; 0 for no node)."""
        return max((d for _, d, _ in self.nodes()), default=0)

    def counts(self) -> dict[str, int]:
        """What Mermaid draws: the nodes, the edges (one a child) and the tree's depth."""
        n = len(self.nodes())
        return {"nodes": n, "edges": max(0, n - 1), "depth": self.depth}


def _node(data: dict[str, Any]) -> MindNode:
    shape = data["shape"]
    return MindNode(str(data["label"]).strip(),
                    SHAPES[shape] if isinstance(shape, int) and 0 <= shape < len(SHAPES)
                    else "default", str(data.get("icon") or ""), str(data.get("id") or ""),
                    tuple(_node(c) for c in data["children"]))


def from_database(db: dict[str, Any]) -> MindMap:
    """The mind map of Mermaid's mind map database (as `tools/mermaid/render.mjs` gives
    it)."""
    return MindMap(_node(db["root"]) if db.get("root") else None)


def write_mindmap(mind: MindMap, indent: int = 2) -> str:
    """Mermaid code that draws `mind`: one node a line, indented `indent` spaces a
    level, its shape in brackets and its icon below it."""
    lines = ["mindmap"]
    for k, (node, depth, _) in enumerate(mind.nodes()):
        pad = " " * (indent * (depth + 1))
        start, end = _BRACKETS[node.shape]
        text = node.label if not start else f'n{k}{start}"{node.label}"{end}'
        lines.append(pad + text)
        if node.icon:
            lines.append(f"{pad}::icon({node.icon})")
    return "\n".join(lines) + "\n"
