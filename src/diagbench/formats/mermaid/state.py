"""Mermaid stateDiagram(-v2): states (declared, described or implied by transitions),
the `[*]` start and end of each scope (one start, one end per composite state or the
root, as Mermaid draws them), `<<fork>>`/`<<join>>`/`<<choice>>`, composite states
(clusters, not entities) with their concurrent regions (`--`, drawn as containers of
their own), transitions and notes. `state X` alone declares nothing (Mermaid's grammar
gives it no action): a transition or description does."""

from __future__ import annotations

import re

from diagbench.diagram.graph import Cluster, Entity, EntityKind, GraphDiagram, Note, Relation
from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.mermaid.reading import one_self_loop, statements, unquote

#: A state id as Mermaid's lexer reads it: anything up to a colon, space, `-` or `{`.
_ID = r"[^:\s\-{}\"]+"
_NAME = rf"\[\*\]|{_ID}"
_TRANS = re.compile(rf"^(?P<a>{_NAME}?)(?::::{_ID})?\s*-->\s*(?P<b>{_NAME}?)(?::::{_ID})?"
                    r"\s*(?::\s*(?P<label>.*))?$")
_STATE = re.compile(rf'^state\s+(?:"(?P<d>[^"]*)"\s+as\s+)?(?P<n>{_ID}?)\s*'
                    r"(?:<<(?P<s>\w+)>>|\[\[(?P<s2>\w+)\]\])?\s*(?P<open>\{)?\s*"
                    r"(?::\s*(?P<desc>.*))?$")
_DESC = re.compile(rf"^(?P<n>{_ID})\s*:\s*(?P<d>.*)$")
_NOTE = re.compile(rf"^note\s+(?P<p>left|right)\s+of\s+(?P<n>{_ID})\s*(?::\s*(?P<t>.*))?$")
_FLOATING_NOTE = re.compile(r'^note\s+"[^"]*"\s+as\s+\S+$')
#: A comment: `%%` anywhere before a description's colon (a `:::` class is no
#: colon), `#` where a token starts.
_COMMENT = re.compile(r'^(?P<code>(?:"[^"]*"|:::|[^:%#"]|%(?!%)|(?<=\S)#)*?)\s*'
                      r"(?:%%|(?<!\S)#)(?!\{)")
_SKIP = re.compile(r"^(classDef|class|style|direction|accTitle|accDescr|hide)\b")
_KINDS: dict[str, EntityKind] = {"fork": "fork", "join": "join", "choice": "choice"}


def read(lines: list[str], first: int, header: str) -> tuple[GraphDiagram, list[Diagnostic]]:
    states: dict[str, dict] = {}
    clusters: dict[str, dict] = {}
    relations: list[Relation] = []
    notes: list[Note] = []
    diagnostics: list[Diagnostic] = []
    stack: list[str] = []  # composite states (and regions) open
    note_of: tuple[str, str, int, list[str]] | None = None
    regions: dict[str, int] = {}

    def scope() -> str | None:
        return stack[-1] if stack else None

    def touch(name: str, line: int, end: bool) -> str:
        if name == "[*]":
            owner = scope()
            base = owner.split("#")[0] if owner else "root"
            ident = f"{base}_{'end' if end else 'start'}"
            if owner and "#" in owner:
                ident = f"{owner}_{'end' if end else 'start'}"
            kind: EntityKind = "end" if end else "start"
        else:
            ident, kind = name, "state"
        if ident in clusters:
            return ident
        if ident not in states:
            states[ident] = {"kind": kind, "desc": [], "parent": scope(), "line": line,
                             "name": ""}
        return ident

    for n, text in statements(lines, first):
        if note_of is not None:
            if text.lower() in ("end note", "endnote"):
                notes.append(Note("\n".join(note_of[3]), (note_of[0],), note_of[1],  # type: ignore[arg-type]
                                  line=note_of[2]))
                note_of = None
            else:
                note_of[3].append(text)
            continue
        comment = _COMMENT.match(text)
        if comment:
            text = comment.group("code")
            if not text:
                continue
        if _FLOATING_NOTE.match(text):
            continue  # a note of no state: Mermaid's grammar keeps it nowhere
        if text == "}":
            if stack:
                top = stack.pop()
                if "#" in top and stack:
                    stack.pop()
            else:
                diagnostics.append(Diagnostic(n, text, "'}' without a composite state"))
            continue
        if text == "--" and stack:
            owner = stack[-1].split("#")[0]
            if "#" not in stack[-1]:  # the first region holds what was read so far
                count = 0
                first_region = f"{owner}#0"
                clusters[first_region] = {"name": "", "kind": "region", "parent": owner,
                                          "line": n}
                for s in states.values():
                    if s["parent"] == owner:
                        s["parent"] = first_region
                for c in clusters.values():
                    if c["parent"] == owner and c is not clusters[first_region]:
                        c["parent"] = first_region
                regions[owner] = count
                stack.append(first_region)
            stack.pop()
            regions[owner] = regions.get(owner, 0) + 1
            region = f"{owner}#{regions[owner]}"
            clusters[region] = {"name": "", "kind": "region", "parent": owner, "line": n}
            stack.append(region)
            continue
        if _SKIP.match(text):
            continue
        m = _NOTE.match(text)
        if m:
            target = touch(m.group("n"), n, False)
            if m.group("t") is not None:
                notes.append(Note(m.group("t"), (target,), m.group("p"), line=n))  # type: ignore[arg-type]
            else:
                note_of = (target, m.group("p"), n, [])
            continue
        m = _STATE.match(text)
        if m:
            name = m.group("n")
            if m.group("open"):
                clusters[name] = {"name": m.group("d") or "", "kind": "composite_state",
                                  "parent": scope(), "line": n}
                states.pop(name, None)
                stack.append(name)
                continue
            kind = m.group("s") or m.group("s2")
            if not (kind or m.group("d") or m.group("desc")):
                continue  # `state X` alone declares nothing: a transition may
            ident = touch(name, n, False)
            if kind:
                states[ident]["kind"] = _KINDS.get(kind.lower(), "state")
            if m.group("d"):
                states[ident]["name"] = m.group("d")
            if m.group("desc"):
                states[ident]["desc"].append(m.group("desc"))
            continue
        m = _TRANS.match(text)
        if m:
            a = touch(m.group("a"), n, False)
            b = touch(m.group("b"), n, True)
            relations.append(Relation(a, b, "transition", "single", unquote(m.group("label") or ""),
                                      target_head="arrow", line=n))
            continue
        m = _DESC.match(text)
        if m:
            ident = touch(m.group("n"), n, False)
            if ident in states:
                states[ident]["desc"].append(m.group("d"))
            continue
        if re.match(rf"^({_NAME})$", text):
            touch(text, n, False)
            continue
        diagnostics.append(Diagnostic(n, text, "not a state diagram statement"))
    if note_of is not None:
        diagnostics.append(Diagnostic(note_of[2], "", "note never closed with 'end note'"))
    for ident in stack:
        diagnostics.append(Diagnostic(first, "", f"composite state {ident!r} never closed"))
    entities = tuple(Entity(i, s["name"], s["kind"], description="\n".join(s["desc"]),
                            parent=s["parent"], line=s["line"])
                     for i, s in states.items() if i not in clusters)
    members: dict[str, list[str]] = {c: [] for c in clusters}
    for e in entities:
        if e.parent in members:
            members[e.parent].append(e.id)
    drawn = tuple(Cluster(i, c["name"], c["kind"], parent=c["parent"],
                          members=tuple(members[i]), line=c["line"])
                  for i, c in clusters.items())
    return GraphDiagram("mermaid", "state", entities, one_self_loop(relations, diagnostics), drawn,
                        tuple(notes)), diagnostics
