"""Mermaid flowchart/graph: nodes of every shape, links of every form, chains
(`A --> B --> C`), `&` groups (`A & B --> C`: one link per pair), subgraphs.

Entities are the nodes (a subgraph's id used as a link end is the subgraph, not a
node); relations the links, except `~~~` (drawn invisible); clusters the subgraphs.
Styling statements (`classDef`, `class`, `style`, `linkStyle`, `click`, `accTitle`,
`accDescr`) draw nothing and are skipped.
"""

from __future__ import annotations

import re

from diagbench.diagram.graph import (
    Cluster,
    Entity,
    EntityKind,
    GraphDiagram,
    Head,
    LineStyle,
    Relation,
)
from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.mermaid import statements, unquote

#: opening delimiter → (closing delimiter, kind); longest first.
SHAPES: list[tuple[str, str, EntityKind]] = [
    ("(((", ")))", "end"), ("((", "))", "process"), ("([", "])", "terminal"),
    ("[[", "]]", "subroutine"), ("[(", ")]", "database"), ("{{", "}}", "hexagon"),
    ("[/", "/]", "io"), ("[\\", "\\]", "io"), ("[/", "\\]", "io"), ("[\\", "/]", "io"),
    ("(", ")", "process"), ("[", "]", "process"), ("{", "}", "decision"), (">", "]", "process"),
]
_ID = re.compile(r"[^\s\[\](){}<>|&;:\"'`=~.-][^\s\[\](){}<>|&;\"'`=~]*?"
                 r"(?=$|[\s\[\](){}<>|&;\"'`=~]|-[-.>ox]|:::|@\{)")
_LINK = re.compile(
    r"(?:\w+@)?(?P<l>[<ox])?(?P<body>-{2,}|={2,}|-\.+-|~{3,})(?P<r>>|[ox](?![\w]))?")
_TEXT_LINK = re.compile(
    r"(?:\w+@)?(?P<l>[<ox])?(?P<open>--|==|-\.)(?![-=.>])\s*(?P<text>[^|\n]*?)\s*"
    r"(?P<close>-{2,}>|-{3,}|={2,}>|={3,}|\.-+>|\.-+|-{2,}[ox](?!\w)|={2,}[ox](?!\w))")
_PIPE = re.compile(r"\s*\|(?P<text>[^|]*)\|")
_SKIP = re.compile(r"^(classDef|class|style|linkStyle|click|accTitle|accDescr|direction)\b")
_SUBGRAPH = re.compile(r"^subgraph\b\s*(.*)$")
_HEADS: dict[str, Head] = {">": "arrow", "<": "arrow", "o": "circle", "x": "cross"}


class _Builder:
    def __init__(self) -> None:
        self.nodes: dict[str, Entity] = {}
        self.relations: list[Relation] = []
        self.clusters: list[Cluster] = []
        self.members: dict[str, list[str]] = {}
        self.stack: list[str] = []
        self.diagnostics: list[Diagnostic] = []

    def node(self, ident: str, label: str | None, kind: EntityKind | None, shape: str,
             line: int) -> None:
        parent = self.stack[-1] if self.stack else None
        old = self.nodes.get(ident)
        if old is None:
            self.nodes[ident] = Entity(ident, label or "", kind or "process", shape,
                                       parent=parent, line=line)
        elif label is not None or kind is not None:
            self.nodes[ident] = Entity(ident, label if label is not None else old.name,
                                       kind or old.kind, shape or old.shape,
                                       parent=old.parent, line=old.line)
        if parent is not None:
            for members in self.members.values():
                if ident in members:
                    members.remove(ident)
            self.members[parent].append(ident)
            node = self.nodes[ident]
            if node.parent != parent:
                self.nodes[ident] = Entity(node.id, node.name, node.kind, node.shape,
                                           parent=parent, line=node.line)


def _node(text: str, pos: int) -> tuple[str, str | None, EntityKind | None, str, int] | None:
    """(id, label, kind, shape, end) of the node at `pos`, or None."""
    m = _ID.match(text, pos)
    if m is None:
        return None
    ident, end = m.group(0), m.end()
    label: str | None = None
    kind: EntityKind | None = None
    shape = ""
    if text.startswith("@{", end):  # ident@{ shape: …, label: "…" }
        close = text.find("}", end)
        close = len(text) - 1 if close < 0 else close
        body = text[end + 2:close]
        lab = re.search(r'label:\s*("([^"]*)"|[^,}]*)', body)
        shp = re.search(r"shape:\s*([\w-]+)", body)
        label = unquote(lab.group(1)) if lab else None
        shape = shp.group(1) if shp else ""
        kind = "decision" if shape in ("diam", "diamond", "decision", "question") else "process"
        end = close + 1
    else:
        for opening, closing, k in SHAPES:
            if text.startswith(opening, end):
                start = end + len(opening)
                if text.startswith('"', start):
                    q = text.find('"', start + 1)
                    close = text.find(closing, q + 1 if q >= 0 else start)
                else:
                    close = text.find(closing, start)
                if close < 0:
                    continue
                label, kind, shape = unquote(text[start:close]), k, opening
                end = close + len(closing)
                break
    m2 = re.compile(r":::[\w-]+").match(text, end)
    if m2:
        end = m2.end()
    return ident, label, kind, shape, end


def _group(text: str, pos: int, b: _Builder, line: int) -> tuple[list[str], int] | None:
    """The `&`-separated nodes at `pos` (declared in the builder) and the end."""
    ids = []
    while True:
        while pos < len(text) and text[pos] == " ":
            pos += 1
        found = _node(text, pos)
        if found is None:
            return None
        ident, label, kind, shape, pos = found
        ids.append((ident, label, kind, shape))
        m = re.compile(r"\s*&\s*").match(text, pos)
        if not m:
            break
        pos = m.end()
    for ident, label, kind, shape in ids:
        b.node(ident, label, kind, shape, line)
    return [i[0] for i in ids], pos


def _statement(text: str, b: _Builder, line: int) -> str | None:
    """Read a node/link statement; the reason when it cannot be read."""
    found = _group(text, 0, b, line)
    if found is None:
        return "not a node or link statement"
    left, pos = found
    while True:
        while pos < len(text) and text[pos] == " ":
            pos += 1
        if pos >= len(text):
            return None
        label = ""
        m = _TEXT_LINK.match(text, pos)
        if m and m.group("text"):
            lhead, close = m.group("l"), m.group("close")
            rhead = close[-1] if close[-1] in ">ox" and not close.endswith("--") else None
            body = m.group("open") + close
            label = m.group("text")
        else:
            m = _LINK.match(text, pos)
            if m is None:
                return f"unexpected text {text[pos:pos + 20]!r}"
            lhead, rhead, body = m.group("l"), m.group("r"), m.group("body")
        pos = m.end()
        pipe = _PIPE.match(text, pos)
        if pipe:
            label, pos = pipe.group("text").strip(), pipe.end()
        right_found = _group(text, pos, b, line)
        if right_found is None:
            return f"a link without a target: {text[pos:pos + 20]!r}"
        right, pos = right_found
        if "~" not in body:
            style: LineStyle = "dotted" if "." in body else "bold" if "=" in body else "solid"
            source_head: Head = _HEADS[lhead] if lhead else "none"
            target_head: Head = _HEADS[rhead] if rhead else "none"
            heads = (source_head != "none") + (target_head != "none")
            for a in left:
                for c in right:
                    b.relations.append(Relation(
                        a, c, "flow" if heads else "link",
                        "double" if heads == 2 else "single" if heads else "none",
                        unquote(label), source_head, target_head, style, line=line))
        left = right


def read(lines: list[str], first: int, header: str) -> tuple[GraphDiagram, list[Diagnostic]]:
    b = _Builder()
    direction = header
    for n, text in statements(lines, first):
        if _SKIP.match(text) and not re.match(r"^(class|style|click)\s*(-|=|&|\[|\(|$)", text):
            continue
        sub = _SUBGRAPH.match(text)
        if sub:
            spec = sub.group(1).strip()
            m = re.match(r'^([^\s\["]+)\s*\[(.*)\]\s*$', spec)
            if m:
                ident, title = m.group(1), unquote(m.group(2))
            elif spec.startswith('"'):
                ident = title = unquote(spec)
            else:
                ident, title = spec or f"subGraph{len(b.clusters)}", spec
            b.clusters.append(Cluster(ident, title if title != ident else "", "subgraph",
                                      parent=b.stack[-1] if b.stack else None, line=n))
            b.members[ident] = []
            b.stack.append(ident)
            continue
        if text == "end":
            if b.stack:
                b.stack.pop()
            else:
                b.diagnostics.append(Diagnostic(n, text, "'end' without a subgraph"))
            continue
        reason = _statement(text, b, n)
        if reason:
            b.diagnostics.append(Diagnostic(n, text, reason))
    for ident in b.stack:
        b.diagnostics.append(Diagnostic(first, "", f"subgraph {ident!r} is never closed "
                                                   "with 'end'"))
    subgraphs = {c.id for c in b.clusters}
    entities = tuple(e for e in b.nodes.values() if e.id not in subgraphs)
    clusters = tuple(Cluster(c.id, c.name, c.kind, c.shape, c.parent,
                             tuple(m for m in b.members[c.id] if m not in subgraphs),
                             line=c.line) for c in b.clusters)
    return GraphDiagram("mermaid", "flowchart", entities, tuple(b.relations), clusters, (),
                        direction=direction), b.diagnostics
