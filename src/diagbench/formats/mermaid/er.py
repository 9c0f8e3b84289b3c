"""Mermaid erDiagram: entities (declared with attributes, aliased, or implied by
relationships) and relationships with crow's-foot cardinalities."""

from __future__ import annotations

import re

from diagbench.diagram.graph import (
    Cluster,
    Entity,
    GraphDiagram,
    LineStyle,
    Member,
    MemberFlag,
    Relation,
)
from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.mermaid import one_self_loop, statements, unquote

_NAME = r'"[^"]*"|[\w$*-]+(?:\[[^\]]*\])?'
#: Cardinality words and symbols in the order Mermaid's lexer tries them (first match
#: wins), with the UML multiplicity each means; `u` is the MD_PARENT marker.
CARDINALITIES: tuple[tuple[str, str], ...] = (
    ("one or zero", "0..1"), ("one or more", "1..*"), ("one or many", "1..*"), ("1+", "1..*"),
    ("|o", "0..1"), ("zero or one", "0..1"), ("zero or more", "0..*"), ("zero or many", "0..*"),
    ("0+", "0..*"), ("}o", "0..*"), ("many(0)", "0..*"), ("many(1)", "1..*"), ("many", "0..*"),
    ("}|", "1..*"), ("one", "1"), ("only one", "1"), ("1", "1"), ("||", "1"), ("o|", "0..1"),
    ("o{", "0..*"), ("|{", "1..*"), ("u", "1"))
_CARDS = dict(CARDINALITIES)
_CARD = "|".join(re.escape(c) + (r"\b" if c[-1].isalnum() or c in ("|o", "}o") else "")
                 for c, _ in CARDINALITIES)
#: `--` and `to` identify; `..`, `.-`, `-.` and `optionally to` do not.
_RELTYPE = r"--|\.\.|\.-|-\.|optionally\s+to\b|to\b"
_REL = re.compile(rf"^(?P<a>{_NAME})(?::::[\w-]+)?\s*(?P<l>{_CARD})\s*(?P<body>{_RELTYPE})"
                  rf"\s*(?P<r>{_CARD})\s*(?P<b>{_NAME})(?::::[\w-]+)?\s*(?::\s*(?P<label>.*))?$",
                  re.I)
_ENTITY = re.compile(rf"^(?P<n>{_NAME})\s*(?::::[\w-]+)?\s*(?P<open>\{{)?\s*(?P<rest>.*)$")
_ATTR = re.compile(r'^(?P<t>[\w()\[\],.-]+)\s+(?P<n>[\w*-]+)(?:\s+(?P<k>(?:PK|FK|UK)(?:\s*,\s*'
                   r'(?:PK|FK|UK))*))?(?:\s+"(?P<c>[^"]*)")?\s*$')
_SUBGRAPH = re.compile(r'^subgraph\s+(?P<id>[^\[]+?)\s*(?:\[\s*(?P<title>"[^"]*"|[^\]]*)\s*\])?$')
_SKIP = re.compile(r"^(classDef|class|style|direction|accTitle|accDescr)\b")


def _split(name: str) -> tuple[str, str]:
    m = re.match(r'^([\w$-]+)\[(.*)\]$', name)
    if m:
        return m.group(1), unquote(m.group(2))
    return unquote(name), ""


def read(lines: list[str], first: int, header: str) -> tuple[GraphDiagram, list[Diagnostic]]:
    entities: dict[str, dict] = {}
    relations: list[Relation] = []
    diagnostics: list[Diagnostic] = []
    body_of: str | None = None
    # subgraphs: open ones (id, title, line, names mentioned), closed ones in order
    open_: list[tuple[str, str, int, list[str]]] = []
    closed: list[Cluster] = []
    parent: dict[str, str] = {}
    outer_of: dict[str, str] = {}

    def touch(name: str, line: int, end: bool = False) -> str:
        ident, alias = _split(name)
        if open_:
            open_[-1][3].append(ident)
        if end and any(c.id == ident for c in closed):
            return ident  # a relationship to a subgraph drawn before
        if ident not in entities:
            entities[ident] = {"name": "", "attrs": [], "line": line}
        if alias:
            entities[ident]["name"] = alias
        return ident

    for n, text in statements(lines, first):
        if body_of is not None:
            if text.startswith("}"):
                body_of = None
                continue
            m = _ATTR.match(text)
            if m:
                keys = [k.strip().lower() for k in (m.group("k") or "").split(",") if k.strip()]
                flags: tuple[MemberFlag, ...] = tuple(
                    f for f in ("pk", "fk", "uk") if f in keys)
                entities[body_of]["attrs"].append(Member(m.group("n"), m.group("t"), flags=flags,
                                                         note=m.group("c") or "", text=text))
            else:
                diagnostics.append(Diagnostic(n, text, "not an attribute (type name [keys])"))
            continue
        sub = _SUBGRAPH.match(text)
        if sub:
            ident = sub.group("id").strip()
            open_.append((ident, unquote(sub.group("title") or ""), n, []))
            continue
        if re.match(r"^end\b", text) and open_:
            ident, title, line, names = open_.pop()
            if open_:
                open_[-1][3].append(ident)
                outer_of[ident] = open_[-1][0]
            # a subgraph holds what its statements name and no subgraph closed before holds
            mine = [e for e in dict.fromkeys(names) if e in entities and e not in parent]
            for e in mine:
                parent[e] = ident
            closed.append(Cluster(ident, "" if title in ("", ident) else title, "subgraph",
                                  members=tuple(mine), line=line))
            continue
        if _SKIP.match(text):
            continue
        m = _REL.match(text)
        if m:
            a, b = touch(m.group("a"), n, True), touch(m.group("b"), n, True)
            body = m.group("body").lower()
            style: LineStyle = "solid" if body in ("--", "to") else "dashed"
            relations.append(Relation(
                a, b, "identifying" if style == "solid" else "non_identifying", "none",
                unquote(m.group("label") or ""), style=style,
                source_cardinality=_CARDS[m.group("l").lower()],
                target_cardinality=_CARDS[m.group("r").lower()], line=n))
            continue
        m = _ENTITY.match(text)
        if m and (m.group("open") or not m.group("rest")):
            ident = touch(m.group("n"), n)
            if m.group("open") and not m.group("rest").startswith("}"):
                body_of = ident
            continue
        diagnostics.append(Diagnostic(n, text, "not an ER statement"))
    if body_of is not None:
        diagnostics.append(Diagnostic(first, "", f"entity {body_of!r}: body never closed"))
    for ident, _, line, _ in open_:
        diagnostics.append(Diagnostic(line, "", f"subgraph {ident!r} is never closed with 'end'"))
    # a subgraph holding nothing is drawn as an entity box (in its parent, if any)
    empty = {c.id for c in closed if not c.members and c.id not in outer_of.values()}
    closed.sort(key=lambda c: c.line)
    clusters = tuple(Cluster(c.id, c.name, c.kind, parent=outer_of.get(c.id),
                             members=c.members + tuple(d.id for d in closed if d.id in empty
                                                       and outer_of.get(d.id) == c.id),
                             line=c.line) for c in closed if c.id not in empty)
    return GraphDiagram("mermaid", "er", tuple(
        Entity(i, e["name"], "table", attributes=tuple(e["attrs"]), parent=parent.get(i),
               line=e["line"])
        for i, e in entities.items() if i not in empty) + tuple(
        Entity(c.id, c.name, "table", parent=outer_of.get(c.id), line=c.line)
        for c in {c.id: c for c in reversed(closed) if c.id in empty}.values()),
        one_self_loop(relations, diagnostics),
        clusters), diagnostics

