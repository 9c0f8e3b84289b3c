"""What mermaid-cli drew in a Gantt chart or a mind map (its SVG), keyed as the models
count themselves (`Gantt.counts`, `MindMap.counts`), so that read and drawn compare.

- Gantt: every task is a `rect` of class `task`; a milestone's has class `milestone`,
  a vertical marker's `vert`; each section is titled by a `text` of class
  `sectionTitle` (an empty one for the tasks before any section).
- Mind map: every node is a `g` of class `mindmap-node` (the root's also
  `section-root`), every edge a `path` of class `edge` whose `data-id` is
  `edge_<parent>_<child>`; the depth is the longest chain of edges from the root.
"""

from __future__ import annotations

from typing import Any

_SVG = "{http://www.w3.org/2000/svg}"


def _tree(svg: str) -> Any:
    from defusedxml import ElementTree  # type: ignore[import-untyped]  # no stubs

    return ElementTree.fromstring(svg)


def _classes(element: Any) -> list[str]:
    return str(element.get("class") or "").split()


def gantt_statistics(svg: str) -> dict[str, Any]:
    """The task bars, milestones, markers and titled sections of a drawn Gantt chart,
    with the names drawn on the bars."""
    root = _tree(svg)
    bars = milestones = markers = 0
    for rect in root.iter(f"{_SVG}rect"):
        classes = _classes(rect)
        if "task" not in classes:
            continue
        if "milestone" in classes:
            milestones += 1
        elif "vert" in classes:
            markers += 1
        else:
            bars += 1
    titles = ["".join(t.itertext()).strip() for t in root.iter(f"{_SVG}text")
              if "sectionTitle" in _classes(t)]
    return {"diagram_type": "gantt", "sections": sum(1 for t in titles if t),
            "tasks": bars, "milestones": milestones, "markers": markers,
            "section_names": [t for t in titles if t]}


def mindmap_statistics(svg: str) -> dict[str, Any]:
    """The nodes, edges and depth of a drawn mind map, with the labels drawn."""
    root = _tree(svg)
    nodes, labels, top = [], [], None
    for g in root.iter(f"{_SVG}g"):
        classes = _classes(g)
        if "mindmap-node" in classes:
            ident = str(g.get("id") or "").rsplit("node_", 1)[-1]
            nodes.append(ident)
            labels.append(" ".join("".join(g.itertext()).split()))
            if "section-root" in classes:
                top = ident
    children: dict[str, list[str]] = {}
    edges = 0
    for path in root.iter(f"{_SVG}path"):
        ident = str(path.get("data-id") or "")
        if "edge" in _classes(path) and ident.startswith("edge_"):
            edges += 1
            parent, _, child = ident.removeprefix("edge_").partition("_")
            children.setdefault(parent, []).append(child)
    depth, level, seen = 0, [top] if top is not None else [], set()
    while level:
        seen.update(level)
        level = [c for p in level for c in children.get(p, []) if c not in seen]
        depth += bool(level)
    return {"diagram_type": "mindmap", "nodes": len(nodes), "edges": edges, "depth": depth,
            "labels": labels}
