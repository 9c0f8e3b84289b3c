"""What Graphviz, DBML (drawn by Graphviz) and Mermaid drew, read off their SVG: the oracle
of the DOT, DBML and Mermaid readers (PlantUML's is `graph_stats`).

Counts follow `diagbench parse`'s meanings: **entities** are the nodes/boxes drawn
(notes excluded), **relations** the edges drawn between them (a note's connector
excluded), **clusters** the containers drawn, **notes** the notes.

- Graphviz (`dot -Tsvg`) wraps each drawn element in `<g class="node|edge|cluster">`
  whose `<title>` is the node name, `tail->head` (`--` undirected; ports kept) or the
  subgraph name. Invisible nodes and edges (`style=invis`) and empty clusters get no
  group: they are not drawn.
- Mermaid (mermaid-cli 11, one `<svg aria-roledescription=…>` per diagram) draws nodes
  as `<g class="node …" id="<render id>-<prefix>-<name>-<n>">` (`rough-node` in the
  hand-drawn look, an ER entity's backing `…-background` not counted; prefix `flowchart`,
  `classId`, `entity`, `state`), edges as `<path data-edge="true" data-id=…>`, and
  containers as `<g class="cluster …">` (flowchart subgraphs, class namespaces) or
  `<g class="statediagram-state statediagram-cluster">` (composite states, and with
  `statediagram-cluster-alt` the regions of a concurrent state, drawn as containers
  of their own). Notes are nodes with an id `note<n>` (class
  diagram) or the class `statediagram-note` (state diagram); their connectors are
  the edges `edgeNote<n>` and `…note-edge`. A flowchart link `~~~` is drawn as an
  invisible path (class `edge-thickness-invisible`): not a relation.
"""

from __future__ import annotations

import html
import re
from typing import TypedDict


class GraphStats(TypedDict):
    """Counts (and, where the SVG names them, the names) of what an engine drew."""

    diagram_type: str | None
    entities: int
    relations: int
    clusters: int
    notes: int
    entity_names: list[str]
    relation_ends: list[tuple[str, str]]
    cluster_names: list[str]


_GV_GROUP = re.compile(
    r'<g id="[^"]*" class="(node|edge|cluster)( [^"]*)?">\s*<title>(.*?)</title>', re.S)
_GV_EDGE = re.compile(r"^(.*?)(?:->|--)(.*)$", re.S)


def graphviz_statistics(svg: str) -> GraphStats:
    """What `dot -Tsvg` drew: nodes, edges and clusters, with their titles."""
    names: dict[str, list[str]] = {"node": [], "edge": [], "cluster": []}
    notes = 0
    for kind, classes, title in _GV_GROUP.findall(svg):
        if kind == "node" and "dbmlnote" in classes.split():
            notes += 1  # a DBML sticky note (render/dbml.py)
            continue
        names[kind].append(html.unescape(title))
    ends = []
    for title in names["edge"]:
        m = _GV_EDGE.match(title)
        ends.append((m.group(1), m.group(2)) if m else (title, ""))
    return GraphStats(diagram_type="graph", entities=len(names["node"]),
                      relations=len(names["edge"]), clusters=len(names["cluster"]), notes=notes,
                      entity_names=names["node"], relation_ends=ends,
                      cluster_names=names["cluster"])


_MM_ROLE = re.compile(r'<svg\b[^>]*\baria-roledescription="([^"]*)"')
_MM_ROOT_ID = re.compile(r'<svg\b[^>]*\bid="([^"]*)"')
_MM_G = re.compile(r'<g\b[^>]*\bclass="([^"]*)"[^>]*>')
_MM_PATH = re.compile(r'<path\b[^>]*\bdata-edge="true"[^>]*>')
_ATTR = {name: re.compile(rf'\b{name}="([^"]*)"') for name in ("id", "data-id", "class")}
#: The prefix of a node's id after the render id, per diagram type.
_MM_PREFIX = re.compile(r"(?:^|-)(flowchart|classId|entity|state)-(.*)-\d+$")
_MM_TYPES = {"flowchart-v2": "flowchart", "flowchart": "flowchart", "graph": "flowchart",
             "classDiagram": "class", "class": "class", "er": "er", "erDiagram": "er",
             "stateDiagram": "state", "state": "state"}


def _attr(tag: str, name: str) -> str:
    m = _ATTR[name].search(tag)
    return html.unescape(m.group(1)) if m else ""


def mermaid_statistics(svg: str) -> GraphStats:
    """What mermaid-cli drew in a flowchart, class, ER or state diagram."""
    role = _MM_ROLE.search(svg)
    kind = _MM_TYPES.get(role.group(1), role.group(1)) if role else None
    root = _MM_ROOT_ID.search(svg)
    prefix = root.group(1) + "-" if root else ""
    entities: list[str] = []
    clusters: list[str] = []
    notes = 0
    for m in _MM_G.finditer(svg):
        tag, classes = m.group(0), m.group(1).split()
        ident = _attr(tag, "id")
        if {"node", "rough-node", "icon-shape", "image-shape"} & set(classes):
            if ident.endswith("-background"):  # a hand-drawn ER entity's backing
                continue
            if "statediagram-note" in classes or re.search(r"(?:^|-)note\d+$", ident):
                notes += 1
                continue
            named = _MM_PREFIX.search(ident)
            entities.append(named.group(2) if named else ident)
        elif "cluster" in classes or "statediagram-cluster" in classes:
            clusters.append(_attr(tag, "data-id") or ident.removeprefix(prefix))
    relations: list[tuple[str, str]] = []
    for m in _MM_PATH.finditer(svg):
        tag = m.group(0)
        classes = _attr(tag, "class").split()
        ident = _attr(tag, "data-id")
        if "note-edge" in classes or ident.startswith("edgeNote") \
                or "edge-thickness-invisible" in classes:
            continue
        relations.append(_edge_ends(ident))
    return GraphStats(diagram_type=kind, entities=len(entities), relations=len(relations),
                      clusters=len(clusters), notes=notes, entity_names=entities,
                      relation_ends=relations, cluster_names=clusters)


def _edge_ends(ident: str) -> tuple[str, str]:
    """The ends a Mermaid edge id names, where it names them (`L_A_B_0`, `id_A_B_1`);
    ("", "") otherwise (state transitions are `edge<n>`). Names holding `_` are ambiguous:
    the split is at the first `_`."""
    m = re.match(r"^id_entity-(.*)-\d+_entity-(.*)-\d+_\d+$", ident) \
        or re.match(r"^(?:L|id)_(.*?)_(.*)_\d+$", ident)
    return (m.group(1), m.group(2)) if m else ("", "")
