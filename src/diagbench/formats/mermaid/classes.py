"""Mermaid classDiagram: classes (declared, with bodies, or implied by relations),
members, annotations, relations with their meaning and cardinalities, namespaces
(clusters) and notes."""

from __future__ import annotations

import re

from diagbench.diagram.graph import (
    Cluster,
    Entity,
    EntityKind,
    GraphDiagram,
    Head,
    LineStyle,
    Member,
    Note,
    Relation,
    RelationType,
)
from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.mermaid.reading import one_self_loop, statements, unquote

_NAME = r"`[^`]+`|[\w.$-]+(?:~[^~]*~)?"
_REL = re.compile(
    rf"^(?P<a>{_NAME})\s*(?:\"(?P<ca>[^\"]*)\"\s*)?(?P<l><\||\*|o|<|\(\))?(?P<body>--|\.\.)"
    rf"(?P<r>\|>|\*|o|>|\(\))?\s*(?:\"(?P<cb>[^\"]*)\"\s*)?(?P<b>{_NAME})\s*(?::\s*(?P<label>.*))?$")
_CLASS = re.compile(rf"^class\s+(?P<n>{_NAME})\s*(?:\[\"?(?P<label>[^\]\"]*)\"?\])?\s*"
                    r"(?::::[\w-]+)?\s*(?P<open>\{)?\s*(?P<rest>.*)$")
_NAMESPACE = re.compile(r'^namespace\s+(?P<n>[\w.$-]+)\s*(?:\[(?P<label>[^\]]*)\])?\s*\{\s*$')
_MEMBER = re.compile(rf"^(?P<n>{_NAME})\s*:\s*(?P<m>.+)$")
_ANNOTATION = re.compile(rf"^<<\s*(?P<a>[^>]+?)\s*>>\s*(?P<n>{_NAME})?$")
_NOTE = re.compile(r'^note\s+(?:for\s+(?P<n>\S+)\s+)?"(?P<t>[^"]*)"\s*$')
_SKIP = re.compile(r"^(classDef|cssClass|style|click|callback|link|direction|accTitle|accDescr"
                   r"|class\s+\S+(?:\s*,\s*\S+)*\s*:::)\b")
_HEADS: dict[str, Head] = {"<|": "triangle", "|>": "triangle", "*": "filled_diamond",
                           "o": "diamond", "<": "arrow", ">": "arrow", "()": "circle"}
_KINDS: dict[str, EntityKind] = {"interface": "interface", "abstract": "abstract",
                                 "enumeration": "enum", "enum": "enum", "service": "class"}


def _id(name: str) -> str:
    return unquote(name.strip("`")).split("~")[0]


def _member(text: str) -> Member:
    text = text.strip()
    vis = text[0] if text and text[0] in "+-#~" else ""
    body = text[1:] if vis else text
    if "(" in body:
        name, _, rest = body.partition("(")
        params, _, ret = rest.partition(")")
        return Member(name.strip(), ret.strip(" $*"), vis, (), params, text=text)  # type: ignore[arg-type]
    parts = body.split()
    name, type_ = (parts[-1], " ".join(parts[:-1])) if len(parts) > 1 else (body, "")
    return Member(name, type_, vis, text=text)  # type: ignore[arg-type]


def read(lines: list[str], first: int, header: str) -> tuple[GraphDiagram, list[Diagnostic]]:
    classes: dict[str, dict] = {}
    relations: list[Relation] = []
    clusters: list[str] = []
    cluster_of: dict[str, Cluster] = {}
    explicit: set[str] = set()  # namespaces declared as such, not only dotted prefixes
    notes: list[Note] = []
    interfaces: list[Entity] = []
    diagnostics: list[Diagnostic] = []
    stack: list[str] = []
    body_of: str | None = None
    body_line = 0

    def touch(name: str, line: int) -> str:
        ident = _id(name)
        if ident not in classes:
            classes[ident] = {"name": "", "kind": "class", "attrs": [], "methods": [],
                              "stereo": [], "parent": None, "line": line}
        return ident

    def open_namespace(name: str, label: str, line: int) -> None:
        """Mermaid's addNamespace: the id is qualified by the enclosing namespace, and
        each dotted prefix of it is a namespace of its own (drawn nested)."""
        qualified = f"{stack[-1]}.{name}" if stack else name
        parts = qualified.split(".")
        for k in range(1, len(parts) + 1):
            ident = ".".join(parts[:k])
            leaf = k == len(parts)
            if ident not in cluster_of:
                title = label if leaf and label else parts[k - 1]
                cluster_of[ident] = Cluster(ident, "" if title == ident else title,
                                            "namespace", parent=".".join(parts[:k - 1]) or None,
                                            line=line)
                clusters.append(ident)
            if leaf:
                explicit.add(ident)
            if leaf and label:
                c = cluster_of[ident]
                cluster_of[ident] = Cluster(c.id, label, c.kind, c.shape, c.parent, line=c.line)
        stack.append(qualified)

    def add_member(ident: str, text: str) -> None:
        text = text.strip()
        if not text:
            return
        if text.startswith("<<") and text.endswith(">>"):
            set_annotation(ident, text[2:-2].strip())
            return
        m = _member(text)
        classes[ident]["methods" if m.is_method else "attrs"].append(m)

    def set_annotation(ident: str, text: str) -> None:
        classes[ident]["stereo"].append(text)
        kind = _KINDS.get(text.lower())
        if kind:
            classes[ident]["kind"] = kind

    for n, text in statements(lines, first):
        if body_of is not None:
            if text.startswith("}"):
                body_of = None
                continue
            add_member(body_of, text)
            continue
        if text == "}" and stack:
            stack.pop()
            continue
        ns = _NAMESPACE.match(text)
        if ns:
            open_namespace(ns.group("n"), unquote(ns.group("label") or ""), n)
            continue
        m = _CLASS.match(text)
        if m:
            ident = touch(m.group("n"), n)
            if stack:  # a class declared in a namespace is drawn in it
                classes[ident]["parent"] = stack[-1]
            if m.group("label"):
                classes[ident]["name"] = m.group("label")
            rest = m.group("rest").strip()
            if m.group("open"):
                if rest.endswith("}"):
                    for part in rest[:-1].split("\n"):
                        add_member(ident, part)
                else:
                    body_of, body_line = ident, n
                    add_member(ident, rest)
            continue
        m = _ANNOTATION.match(text)
        if m and m.group("n"):
            set_annotation(touch(m.group("n"), n), m.group("a"))
            continue
        m = _NOTE.match(text)
        if m:
            notes.append(Note(m.group("t"), (_id(m.group("n")),) if m.group("n") else (),
                              "right" if m.group("n") else "floating", line=n))
            continue
        if _SKIP.match(text):
            continue
        m = _REL.match(text)
        if m:
            left, right = m.group("l") or "", m.group("r") or ""
            dashed = m.group("body") == ".."
            if (left == "()") != (right == "()") and "" in (left, right):
                # a lollipop: its interface end is a node of its own per relation
                # (Mermaid's addInterface), not a class
                lollipop_left = left == "()"
                label = _id(m.group("a") if lollipop_left else m.group("b"))
                ident = f"interface{len(interfaces)}"
                interfaces.append(Entity(ident, label, "circle", "()", line=n))
                owner = touch(m.group("b") if lollipop_left else m.group("a"), n)
                ca, cb = m.group("ca") or "", m.group("cb") or ""
                relations.append(Relation(
                    owner, ident, "realization", "single", unquote(m.group("label") or ""),
                    "none", "circle", "dashed" if dashed else "solid",
                    cb if lollipop_left else ca, ca if lollipop_left else cb,
                    reversed=lollipop_left, line=n))
                continue
            a, b = touch(m.group("a"), n), touch(m.group("b"), n)
            rtype, source, target, reverse = _meaning(left, right, dashed)
            src, dst = (b, a) if reverse else (a, b)
            ca, cb = m.group("ca") or "", m.group("cb") or ""
            heads = (left != "") + (right != "")
            style: LineStyle = "dashed" if dashed else "solid"
            relations.append(Relation(
                src, dst, rtype, "double" if heads == 2 else "single" if heads else "none",
                unquote(m.group("label") or ""), source, target, style,
                cb if reverse else ca, ca if reverse else cb, reversed=reverse, line=n))
            continue
        m = _MEMBER.match(text)
        if m and not text.startswith("class "):
            add_member(touch(m.group("n"), n), m.group("m"))
            continue
        diagnostics.append(Diagnostic(n, text, "not a class diagram statement"))
    if body_of is not None:
        diagnostics.append(Diagnostic(body_line, "", f"class {body_of!r}: body never closed"))
    for ident in stack:
        diagnostics.append(Diagnostic(first, "", f"namespace {ident!r} never closed"))
    if header == "flat":  # hierarchicalNamespaces: false draws the declared ones, unnested
        clusters = [i for i in clusters if i in explicit]
        for i in clusters:
            old = cluster_of[i]
            cluster_of[i] = Cluster(old.id, "", old.kind, old.shape, None, line=old.line)
        for cls in classes.values():
            while cls["parent"] is not None and cls["parent"] not in explicit:
                cls["parent"] = cluster_of[cls["parent"]].parent
    entities = tuple(Entity(i, c["name"], c["kind"], stereotypes=tuple(c["stereo"]),
                            attributes=tuple(c["attrs"]), methods=tuple(c["methods"]),
                            parent=c["parent"], line=c["line"]) for i, c in classes.items()
                     ) + tuple(interfaces)
    drawn = tuple(Cluster(c.id, c.name, c.kind, c.shape, c.parent,
                          tuple(e.id for e in entities if e.parent == c.id), line=c.line)
                  for c in (cluster_of[i] for i in clusters))
    return GraphDiagram("mermaid", "class", entities, one_self_loop(relations, diagnostics), drawn,
                        tuple(notes)), diagnostics


def _meaning(left: str, right: str, dashed: bool) -> tuple[RelationType, Head, Head, bool]:
    """(type, head at source, head at target, written target-first) of a link."""
    rtype: RelationType
    lh, rh = _HEADS.get(left, "none"), _HEADS.get(right, "none")
    if "triangle" in (lh, rh):  # the triangle is at the parent, the target: A <|-- B
        rtype = "realization" if dashed else "inheritance"
        return (rtype, rh, lh, True) if lh == "triangle" else (rtype, lh, rh, False)
    for head, rtype in (("filled_diamond", "composition"), ("diamond", "aggregation")):
        if head in (lh, rh):  # the diamond is at the whole, the source: A *-- B
            return (rtype, lh, rh, False) if lh == head else (rtype, rh, lh, True)
    rtype = "dependency" if dashed and "arrow" in (lh, rh) else "association"
    if lh == "arrow" and rh == "none":
        return rtype, "none", "arrow", True
    return rtype, lh, rh, False
