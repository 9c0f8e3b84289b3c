"""Mermaid erDiagram: entities (declared with attributes, aliased, or implied by
relationships) and relationships with crow's-foot cardinalities."""

from __future__ import annotations

import re

from diagbench.diagram.graph import Entity, GraphDiagram, LineStyle, Member, MemberFlag, Relation
from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.mermaid import statements, unquote

_NAME = r'"[^"]*"|[\w$-]+(?:\[[^\]]*\])?'
_CARDS = {"||": "1", "|o": "0..1", "o|": "0..1", "}|": "1..*", "|{": "1..*", "}o": "0..*",
          "o{": "0..*"}
_CARD_L = _CARD_R = _CARDS
_CARD = r"\|\||\|o|o\||\}\||\|\{|\}o|o\{"
_REL = re.compile(rf"^(?P<a>{_NAME})(?::::[\w-]+)?\s*(?P<l>{_CARD})(?P<body>--|\.\.)"
                  rf"(?P<r>{_CARD})\s*(?P<b>{_NAME})(?::::[\w-]+)?\s*(?::\s*(?P<label>.*))?$")
_ENTITY = re.compile(rf"^(?P<n>{_NAME})\s*(?::::[\w-]+)?\s*(?P<open>\{{)?\s*(?P<rest>.*)$")
_ATTR = re.compile(r'^(?P<t>[\w()\[\],.-]+)\s+(?P<n>[\w*-]+)(?:\s+(?P<k>(?:PK|FK|UK)(?:\s*,\s*'
                   r'(?:PK|FK|UK))*))?(?:\s+"(?P<c>[^"]*)")?\s*$')
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

    def touch(name: str, line: int) -> str:
        ident, alias = _split(name)
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
        if _SKIP.match(text):
            continue
        m = _REL.match(text)
        if m:
            a, b = touch(m.group("a"), n), touch(m.group("b"), n)
            style: LineStyle = "dashed" if m.group("body") == ".." else "solid"
            relations.append(Relation(
                a, b, "identifying" if style == "solid" else "non_identifying", "none",
                unquote(m.group("label") or ""), style=style,
                source_cardinality=_CARD_L[m.group("l")],
                target_cardinality=_CARD_R[m.group("r")], line=n))
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
    return GraphDiagram("mermaid", "er", tuple(
        Entity(i, e["name"], "table", attributes=tuple(e["attrs"]), line=e["line"])
        for i, e in entities.items()), tuple(relations)), diagnostics
