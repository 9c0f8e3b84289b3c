"""PlantUML component, deployment and use-case diagrams: element declarations.

`component C`, `[C]`, `[Long name] as C`, `interface I`, `() "I" as I`, `actor A`,
`:A:`, `actor :Long: as A`, `usecase (U)`, `(Long) as U`, `node N`, `database D`,
any other description keyword (`cloud`, `folder`, `artifact`, …), a keyword
followed by a multi-line description in `[` … `]`. Containers with content
(`node N {`) are clusters, read by `plantuml.graph.common_statement`.
"""

from __future__ import annotations

import re

from diagbench.diagram.graph import EntityKind
from diagbench.formats.plantuml.graph_builder import GraphBuilder, stereotypes_of, unquote

_KINDS: dict[str, EntityKind] = {
    "actor": "actor", "actor/": "actor", "usecase": "usecase", "usecase/": "usecase",
    "component": "component", "interface": "interface", "node": "node",
    "database": "database", "queue": "queue", "artifact": "artifact", "cloud": "cloud",
    "folder": "folder", "frame": "frame", "file": "file", "package": "package",
    "rectangle": "rectangle", "card": "card", "storage": "storage", "stack": "stack",
    "hexagon": "hexagon", "agent": "agent", "collections": "collections", "label": "label",
    "port": "port", "portin": "port", "portout": "port", "boundary": "boundary",
    "control": "control", "entity": "entity", "person": "person", "circle": "circle",
    "action": "action", "process": "process",
}
_NAME = r'(?:"[^"]*"|\[[^\]]*\]|\([^)]*\)|:[^:]+:|[^\s"<#\[\]({]+)'
_DECLARATION = re.compile(
    r"^(?P<kw>" + "|".join(re.escape(k) for k in sorted(_KINDS, key=len, reverse=True)) +
    rf")\s+(?P<name>{_NAME})(?:\s+as\s+(?P<alias>{_NAME}))?"
    r"\s*(?P<stereo>(?:<<[^>]*>>\s*)*)(?:#[\w#:;.]+\s*)?(?:\[\[[^\]]*\]\]\s*)?"
    r"(?P<desc>\[.*)?$", re.I)
_SHORT = re.compile(
    rf"^(?P<name>\[[^\]]+\]|\([^)]+\)|:[^:]+:|\(\)\s*(?:\"[^\"]*\"|[\w.]+))"
    rf"(?:\s+as\s+(?P<alias>{_NAME}))?\s*(?P<stereo>(?:<<[^>]*>>\s*)*)(?:#[\w#:;.]+\s*)?$")


def _strip_name(raw: str) -> tuple[str, str]:
    """(name, bracket form) of `[X]`, `(X)`, `:X:`, `"X"`, `() X`, `X`."""
    raw = raw.strip()
    if raw.startswith("()"):
        return unquote(raw[2:]), "()"
    if len(raw) >= 2 and raw[0] + raw[-1] in ("[]", "()", "::"):
        return raw[1:-1].strip(), raw[0] + raw[-1]
    return unquote(raw), ""


def _kind_of_form(form: str) -> EntityKind:
    return {"[]": "component", "()": "usecase", "::": "actor"}.get(form, "component")  # type: ignore[return-value]


def statement(builder: GraphBuilder, line: str, number: int, lines: list[str],
              i: int) -> int | None:
    m = _DECLARATION.match(line)
    if m:
        kw = m.group("kw").lower()
        kind = _KINDS[kw]
        name, _ = _strip_name(m.group("name"))
        alias = None
        if m.group("alias"):
            alias, form = _strip_name(m.group("alias"))
            if m.group("alias").strip()[:1] in '"[(:' and m.group("name").strip()[:1] not in '"[(:':
                name, alias = alias, name
        eid = builder.entity(name, name, kind, kw, number,
                             stereotypes=stereotypes_of(m.group("stereo") or ""), alias=alias)
        desc = m.group("desc")
        end = i
        if desc:
            text = desc[1:]
            if "]" in text:
                text = text[:text.rindex("]")]
            else:
                parts = [text]
                j = i + 1
                while j < len(lines) and not lines[j].strip().startswith("]"):
                    parts.append(lines[j].strip())
                    j += 1
                if j >= len(lines):
                    builder.error(number, lines[i], "description never closed (no ']')")
                    j = len(lines) - 1
                text, end = "\n".join(p for p in parts if p), j
            builder.entities[eid].description = text.strip()
        return end
    m = _SHORT.match(line)
    if m:
        name, form = _strip_name(m.group("name"))
        short: EntityKind = "circle" if form == "()" and line.startswith("()") else \
            _kind_of_form(form)
        alias = _strip_name(m.group("alias"))[0] if m.group("alias") else None
        builder.entity(name, name, short, form, number,
                       stereotypes=stereotypes_of(m.group("stereo") or ""), alias=alias)
        return i
    return None
