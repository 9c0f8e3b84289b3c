"""Mermaid flowchart/graph: nodes of every shape, links of every form, chains
(`A --> B --> C`), `&` groups (`A & B --> C`: one link per pair), subgraphs.

Entities are the nodes (a subgraph's id used as a link end is the subgraph, not a
node; a link's id `e1@-->` named later, `e1@{ animate: true }`, is the link's data);
relations the links, except `~~~` (drawn invisible); clusters the subgraphs.
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
from diagbench.formats.mermaid.reading import one_self_loop, statements, unquote

#: opening delimiter → (closing delimiter, kind); longest first.
SHAPES: list[tuple[str, str, EntityKind]] = [
    ("(((", ")))", "end"), ("((", "))", "process"), ("([", "])", "terminal"),
    ("[[", "]]", "subroutine"), ("[(", ")]", "database"), ("{{", "}}", "hexagon"),
    ("[/", "/]", "io"), ("[/", "\\]", "io"), ("[\\", "\\]", "io"), ("[\\", "/]", "io"),
    ("(", ")", "process"), ("[", "]", "process"), ("{", "}", "decision"), (">", "]", "process"),
]
_ID = re.compile(r"[^\s\[\](){}<>|&;:\"'`=~.-][^\s\[\](){}<>|&;\"'`=~]*?"
                 r"(?=$|[\s\[\](){}<>|&;\"'`=~]|-[-.>ox]|:::|@\{)")
#: A whole link token as Mermaid's lexer reads it (tried before a link with text:
#: `A o--o B` is a link, not `o--` + text + `--o`).
_LINK = re.compile(r"(?:(?P<eid>\w+)@)?"
                   r"(?P<tok>[xo<]?--+[-xo>]|[xo<]?==+[=xo>]|[xo<]?-?\.+-[xo>]?|~~~+)")
_TEXT_LINK = re.compile(
    r"(?:(?P<eid>\w+)@)?(?P<l>[<ox])?(?P<open>--|==|-\.)(?![-=.>])\s*(?P<text>[^|\n]*?)\s*"
    r"(?P<close>-{2,}>|-{3,}|={2,}>|={3,}|-?\.+-[xo>]?|-{2,}[ox](?!\w)|={2,}[ox](?!\w))")
#: A node id Mermaid's lexer reads as a number (its own token) followed by a link
#: starting with a head (`o`, `x`).
_NUM_LINK = re.compile(r"\d+(?=[xo](?:--|==|-?\.))")
#: `:::name` after a node; a `-` in the name goes on only where it starts no link.
_CLASS_SUFFIX = re.compile(r":::(?:\w|-(?![>\-.]))+")
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
        self.mentions: dict[str, list[str]] = {}
        self.owner: dict[str, str] = {}
        self.stack: list[str] = []
        self.hidden: list[tuple[str, int]] = []
        self.edge_ids: set[str] = set()
        self.diagnostics: list[Diagnostic] = []

    def node(self, ident: str, label: str | None, kind: EntityKind | None, shape: str,
             line: int) -> None:
        if ident in self.edge_ids:
            return  # `e1@{ animate: true }` after a link `e1@-->`: the link's data, no node
        old = self.nodes.get(ident)
        if old is None:
            self.nodes[ident] = Entity(ident, label or "", kind or "process", shape, line=line)
        elif label is not None or kind is not None:
            self.nodes[ident] = Entity(ident, label if label is not None else old.name,
                                       kind or old.kind, shape or old.shape, line=old.line)
        if self.stack:
            self.mentions[self.stack[-1]].append(ident)

    def close(self) -> None:
        """Mermaid's addSubGraph: a subgraph holds the nodes its statements name that no
        subgraph closed before holds (an inner one closes first)."""
        ident = self.stack.pop()
        mine = [i for i in dict.fromkeys(self.mentions[ident]) if i not in self.owner]
        for i in mine:
            self.owner[i] = ident
        self.members[ident] = mine


def _node(text: str, pos: int) -> tuple[str, str | None, EntityKind | None, str, int] | None:
    """(id, label, kind, shape, end) of the node at `pos`, or None."""
    m = _ID.match(text, pos)
    if m is None:
        return None
    ident, end = m.group(0), m.end()
    digits = _NUM_LINK.match(text, pos)
    if digits and digits.end() < end:  # `10o--o x`: a number, then a link with its head
        ident, end = digits.group(0), digits.end()
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
        found: tuple[int, str, str, EntityKind] | None = None
        for opening, closing, k in SHAPES:
            if found is not None and opening != found[1]:
                break  # the longest opening that closes; of its closings the nearest
            if text.startswith(opening, end):
                start = end + len(opening)
                if text.startswith('"', start):
                    q = text.find('"', start + 1)
                    close = text.find(closing, q + 1 if q >= 0 else start)
                else:
                    close = text.find(closing, start)
                if close >= 0 and (found is None or close < found[0]):
                    found = (close, opening, closing, k)
        if found is not None:
            close, opening, closing, kind = found
            start = end + len(opening)
            label, shape = unquote(text[start:close]), opening
            end = close + len(closing)
    m2 = _CLASS_SUFFIX.match(text, end)
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
        m = _LINK.match(text, pos)
        if m is not None:
            body = m.group("tok")
            lhead = body[0] if body[0] in "xo<" else None
            rhead = body[-1] if body[-1] in "xo>" and len(body) > 1 else None
        else:
            m = _TEXT_LINK.match(text, pos)
            if m is None or not m.group("text"):
                return f"unexpected text {text[pos:pos + 20]!r}"
            lhead, close = m.group("l"), m.group("close")
            rhead = close[-1] if close[-1] in ">ox" and not close.endswith("--") else None
            body = m.group("open") + close
            label = m.group("text")
        pos = m.end()
        pipe = _PIPE.match(text, pos)
        if pipe:
            label, pos = pipe.group("text").strip(), pipe.end()
        right_found = _group(text, pos, b, line)
        if right_found is None:
            return f"a link without a target: {text[pos:pos + 20]!r}"
        right, pos = right_found
        if m.group("eid"):
            b.edge_ids.add(m.group("eid"))
        if "~" in body:  # invisible; a self-loop still hides an earlier one
            b.hidden += [(a, len(b.relations) - 1) for a in left for c in right if a == c]
        else:
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
            style = re.match(r"^style\s+([^\s,]+)", text)
            if style and style.group(1) not in b.nodes and style.group(1) not in b.members:
                # `style X …` declares X (and names it in no subgraph)
                b.nodes[style.group(1)] = Entity(style.group(1), "", "process", line=n)
            continue
        sub = _SUBGRAPH.match(text)
        if sub:
            spec = sub.group(1).strip()
            m = re.match(r'^([^\s\["]+)\s*\[(.*)\]\s*$', spec)
            if m:
                ident, title = m.group(1), unquote(m.group(2))
            else:  # a title holding a space is no id: Mermaid makes one up
                title = unquote(spec)
                ident = title if title and not re.search(r"\s", title) \
                    else f"subGraph{len(b.clusters)}"
            b.clusters.append(Cluster(ident, title if title != ident else "", "subgraph",
                                      parent=b.stack[-1] if b.stack else None, line=n))
            b.members[ident] = []
            b.mentions[ident] = []
            b.stack.append(ident)
            continue
        if text == "end":
            if b.stack:
                b.close()
            else:
                b.diagnostics.append(Diagnostic(n, text, "'end' without a subgraph"))
            continue
        reason = _statement(text, b, n)
        if reason:
            b.diagnostics.append(Diagnostic(n, text, reason))
    for ident in b.stack:
        b.diagnostics.append(Diagnostic(first, "", f"subgraph {ident!r} is never closed "
                                                   "with 'end'"))
    while b.stack:
        b.close()
    # a subgraph holding nothing is drawn as a node (in its parent, if any)
    empty = {c.id for c in b.clusters
             if not b.members[c.id] and not any(d.parent == c.id for d in b.clusters)}
    subgraphs = {c.id for c in b.clusters} - empty
    entities = tuple(Entity(e.id, e.name, e.kind, e.shape, parent=b.owner.get(e.id),
                            line=e.line)
                     for e in b.nodes.values() if e.id not in subgraphs and e.id not in empty)
    # (named inside a subgraph, it is that subgraph's node)
    parent_of = {c.id: b.owner.get(c.id, c.parent) for c in b.clusters if c.id in empty}
    entities += tuple(Entity(c.id, c.name, "process", parent=parent_of[c.id], line=c.line)
                      for c in b.clusters if c.id in empty)
    clusters = tuple(Cluster(c.id, c.name, c.kind, c.shape, c.parent, tuple(dict.fromkeys(
        [m for m in b.members[c.id] if m not in subgraphs]
        + [e for e, parent in parent_of.items() if parent == c.id])),
        line=c.line) for c in b.clusters if c.id not in empty)
    return GraphDiagram("mermaid", "flowchart", entities,
                        one_self_loop(b.relations, b.diagnostics, tuple(b.hidden)), clusters, (),
                        direction=direction), b.diagnostics
