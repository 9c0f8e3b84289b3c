"""The graph diagram under construction, and what PlantUML's links mean.

Shared by `plantuml.graph` (the statement loop) and the statement readers of each
kind family (`c4`, `classes`, `component`, `state`), which sit above this module:
`GraphBuilder` (entities, clusters, notes, relations, diagnostics), `link_relation`
(the relation meant by `a LEFT body RIGHT b`), `endpoint`, `unquote`, `stereotypes_of`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import cast

from diagbench.diagram.graph import (
    Cluster,
    ClusterKind,
    Direction,
    Entity,
    EntityKind,
    GraphDiagram,
    GraphKind,
    Head,
    LineStyle,
    Member,
    Note,
    NotePosition,
    Relation,
    RelationType,
)
from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.plantuml.blocks import Block
from diagbench.formats.plantuml.namespaces import Namespaces, Path

# ---------------------------------------------------------------------------- links

#: An end of a link: quoted name, [component], (use case), :actor:, [*] / [H] pseudo-states,
#: () interface, or a plain name (dots, `::` member references).
ENDPOINT = (r'(?:"[^"\n]*"|\[\*\]|\[H\*?\]|\[[^\]\n]+\]|\(\)\s*"[^"]+"|\(\)\s*[\w.]+|'
            r'\([^)\n]+\)|:[^:\n]+:|[\w.$@\\]+(?:::[\w$]+)?)')
_LEFT_HEADS = r"(?:<\|\||<\||<<|\|o|\|\||\}o|\}\||o\{|\|\{|[<*o+#x}^0()])"
_RIGHT_HEADS = r"(?:\|\|>|\|>|>>|o\||\|\||o\{|\|\{|\}o|\}\||[>*o+#x{^0()])"
_BODY = (r"[-.=~]+(?:\[[^\]\n]*\])?[-.=~]*(?:(?i:up|down|left|right|le|ri|do|u|d|l|r)"
         r"(?:\[[^\]\n]*\])?[-.=~]+)?")
LINK = re.compile(
    rf"^(?P<a>{ENDPOINT})\s*(?:\"(?P<ma>[^\"]*)\"\s*)?"
    rf"(?P<left>{_LEFT_HEADS})?(?P<body>{_BODY})(?P<right>{_RIGHT_HEADS})?"
    rf"\s*(?:\"(?P<mb>[^\"]*)\"\s*)?(?P<b>{ENDPOINT})\s*(?P<stereo>(?:<<[^>]*>>\s*)*)"
    r"(?:#[\w#]+\s*)?(?::\s*(?P<label>.*))?$")
_STYLE_WORDS = re.compile(r"\[([^\]]*)\]")
_HEAD_OF = {"<|": "triangle", "|>": "triangle", "<||": "triangle", "||>": "triangle",
            "<": "arrow", ">": "arrow", "<<": "arrow", ">>": "arrow", "^": "triangle",
            "*": "filled_diamond", "o": "diamond", "+": "plus", "#": "square", "x": "cross",
            "0": "circle", "(": "socket", ")": "socket", "}": "arrow", "{": "arrow"}
#: crow's-foot ends → UML multiplicity.
_CROWS = {"||": "1", "|o": "0..1", "o|": "0..1", "}|": "1..*", "|{": "1..*", "}o": "0..*",
          "o{": "0..*"}


@dataclass(frozen=True, slots=True)
class LinkShape:
    """A link's drawing: heads at each end, line style, hidden or not."""

    left: str
    right: str
    dotted: bool
    hidden: bool
    style: LineStyle


def link_shape(left: str, body: str, right: str) -> LinkShape:
    styles = " ".join(_STYLE_WORDS.findall(body)).lower()
    hidden = "hidden" in styles
    dotted = "." in body.replace("[", "").split("]")[-1] or "." in body.split("[")[0] \
        or "dashed" in styles or "dotted" in styles
    style: LineStyle = "dotted" if "dotted" in styles else "dashed" if dotted else \
        "bold" if "bold" in styles or "=" in body else "solid"
    return LinkShape(left, right, dotted, hidden, style)


def _head(text: str) -> Head:
    return cast(Head, _HEAD_OF.get(text, "none"))


def link_relation(a: str, b: str, shape: LinkShape, family: str, label: str = "",
                  stereotypes: tuple[str, ...] = (), ma: str = "", mb: str = "") -> Relation:
    """The relation meant by `a LEFT body RIGHT b` in a diagram of `family`."""
    left, right, dotted = shape.left, shape.right, shape.dotted
    decorated = (left != "") + (right != "")
    direction: Direction = ("none", "single", "double")[decorated]
    kind: RelationType
    swap = False
    if left in _CROWS or right in _CROWS:
        kind = "non_identifying" if dotted else "identifying"
        return Relation(a, b, kind, direction, label, "none", "none", shape.style,
                        _CROWS.get(left, ma), _CROWS.get(right, mb), stereotypes=stereotypes)
    if right in ("|>", "||>", "^") or left in ("<|", "<||", "^"):
        kind = "realization" if dotted else "inheritance"
        swap = right not in ("|>", "||>", "^")
    elif left in ("*", "o") or right in ("*", "o"):
        kind = "composition" if "*" in (left, right) else "aggregation"
        swap = left not in ("*", "o")
    elif left == "+" or right == "+":
        kind, swap = "containment", left != "+"
    elif right in (">", ">>") or left in ("<", "<<"):
        swap = right not in (">", ">>")
        words = " ".join(stereotypes).lower() + " " + label.lower()
        if family == "state":
            kind = "transition"
        elif "<<include>>" in words and family != "class":
            kind = "include"
        elif "<<extend>>" in words and family != "class":
            kind = "extend"
        elif family == "c4":
            kind = "flow"
        else:
            kind = "dependency" if dotted else "association"
    elif family == "state":
        kind = "transition"
    else:
        kind = "dependency" if dotted and family == "class" and decorated else "association"
    heads = (_head(left), _head(right))
    if swap:
        a, b, heads, ma, mb = b, a, (heads[1], heads[0]), mb, ma
    return Relation(a, b, kind, direction, label, heads[0], heads[1], shape.style, ma, mb,
                    stereotypes=stereotypes, reversed=swap)


# ---------------------------------------------------------------------------- builder

#: the kinds whose names live in PlantUML's namespaces (`plantuml.namespaces`)
QUALIFIED = ("class", "object", "er")

@dataclass(slots=True)
class _Entity:
    id: str
    name: str
    kind: EntityKind
    shape: str
    line: int
    declared: bool
    stereotypes: list[str] = field(default_factory=list)
    attributes: list[Member] = field(default_factory=list)
    methods: list[Member] = field(default_factory=list)
    description: str = ""
    technology: str = ""
    parent: str | None = None


@dataclass(slots=True)
class _Cluster:
    id: str
    name: str
    kind: ClusterKind
    shape: str
    line: int
    parent: str | None
    stereotypes: tuple[str, ...] = ()
    description: str = ""
    #: a description-diagram container with `{ }` and nothing inside is drawn as an entity
    as_entity: EntityKind | None = None
    content: int = 0


class GraphBuilder:
    """The diagram under construction, and the diagnostics so far."""

    def __init__(self, block: Block, family: str) -> None:
        self.block = block
        self.family = family
        self.entities: dict[str, _Entity] = {}
        self.aliases: dict[str, str] = {}
        self.relations: list[Relation] = []
        self.clusters: dict[str, _Cluster] = {}
        self.notes: list[Note] = []
        self.note_ids: set[str] = set()
        self.stack: list[str | None] = []  # open `{`: cluster id, or None for other braces
        self.diagnostics: list[Diagnostic] = []
        self.title = ""
        self.direction = ""
        self.last_entity: str | None = None
        self.removed: set[str] = set()
        #: a scope's start and end pseudo-states: (scope, region, "start"|"end") → entity id
        self.pseudo: dict[tuple[str | None, int, str], str] = {}
        #: the concurrent region (`--`, `||`) each composite state is in now
        self.region: dict[str | None, int] = {}
        #: class, object and ER diagrams name their entities and packages in namespaces
        self.namespaces = Namespaces() if family in QUALIFIED else None
        self.path_of: dict[str, Path] = {}

    # -- diagnostics
    def error(self, number: int, text: str, reason: str) -> None:
        self.diagnostics.append(Diagnostic(number, text, reason))

    def warn(self, number: int, text: str, reason: str) -> None:
        self.diagnostics.append(Diagnostic(number, text, reason, "warning"))

    # -- scopes
    @property
    def cluster_id(self) -> str | None:
        for cid in reversed(self.stack):
            if cid is not None:
                return cid
        return None

    def open_cluster(self, cid: str, name: str, kind: ClusterKind, shape: str, number: int,
                     stereotypes: tuple[str, ...] = (), as_entity: EntityKind | None = None,
                     description: str = "") -> None:
        if self.namespaces is not None:
            self._open_package(cid, name, kind, shape, number, stereotypes)
            return
        parent = self.cluster_id
        if parent is not None:
            self.clusters[parent].content += 1
        cid = self.resolve(cid)
        if cid in self.clusters:
            cid = f"{cid}#{number}"
        if cid in self.entities:  # referred to (or declared plainly) before: now a container
            old = self.entities.pop(cid)
            if old.parent is not None and old.parent in self.clusters:
                self.clusters[old.parent].content -= 1
        self.clusters[cid] = _Cluster(cid, name, kind, shape, number, parent, stereotypes,
                                      description, as_entity)
        self.stack.append(cid)

    def _open_package(self, code: str, name: str, kind: ClusterKind, shape: str, number: int,
                      stereotypes: tuple[str, ...]) -> None:
        """A package or namespace of a class diagram: the node its name means (reopened when
        it exists)."""
        cid, path = self._locate(code, reuse=False)
        if cid not in self.clusters:
            self.entities.pop(cid, None)  # referred to before: now a package
            self.clusters[cid] = _Cluster(cid, path[-1] if name == code else name, kind, shape,
                                          number, self._parent_of(path), stereotypes)
        self.stack.append(cid)

    def _locate(self, code: str, reuse: bool) -> tuple[str, Path]:
        assert self.namespaces is not None
        current = self.path_of.get(self.cluster_id or "", ())
        path = self.namespaces.locate(current, code, reuse)
        key = self.namespaces.key(path)
        self.path_of[key] = path
        return key, path

    def _parent_of(self, path: Path) -> str | None:
        assert self.namespaces is not None
        return self.namespaces.key(path[:-1]) if len(path) > 1 else None

    def open_brace(self) -> None:
        self.stack.append(None)

    def close(self, number: int, text: str) -> None:
        if not self.stack:
            self.error(number, text, "'}' without an open block")
            return
        cid = self.stack.pop()
        if cid is None:
            return
        if self.namespaces is not None:
            return  # what a package holds is known at the end (`_drawn_packages`)
        cluster = self.clusters[cid]
        if cluster.content == 0 and cluster.as_entity is not None:
            del self.clusters[cid]
            self.entity(cid, cluster.name, cluster.as_entity, cluster.shape, cluster.line,
                        stereotypes=cluster.stereotypes)

    # -- entities
    def resolve(self, ref: str) -> str:
        if self.namespaces is not None:
            return self._locate(ref, reuse=True)[0]
        return self.aliases.get(ref, ref)

    def entity(self, eid: str, name: str | None = None, kind: EntityKind | None = None,
               shape: str = "", number: int = 0, declared: bool = True,
               stereotypes: tuple[str, ...] = (), alias: str | None = None,
               reuse: bool | None = None) -> str:
        """Declare (or refer to) an entity; returns its id. In a class diagram a reference
        (`reuse`, by default when not `declared`) may name an entity of another package."""
        parent = self.cluster_id
        if self.namespaces is not None:
            code = alias or eid
            eid, path = self._locate(code, not declared if reuse is None else reuse)
            parent = self._parent_of(path)
            if name is not None and not alias and name.startswith(code):
                name = path[-1] + name[len(code):]  # displayed by its last part
            elif name is None:
                name = path[-1]
        elif alias:
            self.aliases[eid] = alias
            eid = alias
        if self.namespaces is None:
            eid = self.resolve(eid) if not alias else eid
        found = self.entities.get(eid)
        if eid in self.clusters and found is None:
            return eid  # a link to a cluster
        if found is None:
            if parent is not None and self.namespaces is None:
                self.clusters[parent].content += 1
            found = _Entity(eid, name if name is not None else eid,
                            kind or self.default_kind, shape, number, declared, parent=parent)
            self.entities[eid] = found
        elif declared:
            if kind is not None and (not found.declared or kind != found.kind):
                found.kind = kind
                found.shape = shape or found.shape
            if name is not None:
                found.name = name
            if not found.declared:
                found.declared = True
                found.line = number or found.line
        found.stereotypes.extend(s for s in stereotypes if s not in found.stereotypes)
        if declared:
            self.last_entity = eid
        return eid

    @property
    def default_kind(self) -> EntityKind:
        return {"class": "class", "object": "object", "er": "table", "state": "state",
                "usecase": "usecase", "c4": "system"}.get(self.family, "component")  # type: ignore[return-value]

    def pseudo_state(self, which: str, number: int) -> str:
        scope = self.cluster_id
        region = self.region.get(scope, 0)
        key = (scope, region, which)
        if key not in self.pseudo:
            eid = f"{scope or ''}{'/' + str(region) if region else ''}[*]{which}"
            self.pseudo[key] = eid
            parent = scope
            if parent is not None:
                self.clusters[parent].content += 1
            self.entities[eid] = _Entity(eid, "", cast(EntityKind, which), "[*]", number, True,
                                         parent=parent)
        return self.pseudo[key]

    def relation(self, relation: Relation, number: int) -> None:
        self.relations.append(_with_line(relation, number))

    def note(self, text: str, targets: tuple[str, ...], position: NotePosition, number: int,
             nid: str = "") -> None:
        if nid:
            self.note_ids.add(nid)
        self.notes.append(Note(text, targets, position, nid, self.cluster_id, number))

    def _drawn_packages(self) -> None:
        """A class diagram's packages as PlantUML draws them: a node named with a
        separator but never declared is a package of its own; a package holding nothing
        (no entity, note or package) is not drawn."""
        assert self.namespaces is not None
        named: list[tuple[str, int]] = [(e.id, e.line) for e in self.entities.values()]
        named += [(c.id, c.line) for c in self.clusters.values()]
        for item, line in named:
            path = self.path_of.get(item, ())
            for k in range(len(path) - 1, 0, -1):
                key = self.namespaces.key(path[:k])
                if key in self.clusters or key in self.entities:
                    break
                self.clusters[key] = _Cluster(key, path[k - 1], "package", "package", line,
                                              self._parent_of(path[:k]))
        holding = {e.parent for e in self.entities.values()} | \
            {n.parent for n in self.notes} | {c.parent for c in self.clusters.values()}
        for cid in [c for c in self.clusters if c not in holding]:
            del self.clusters[cid]

    def freeze(self, kind: GraphKind) -> GraphDiagram:
        for cid in [c for c in self.stack if c is not None]:
            self.error(self.clusters[cid].line, cid, "block never closed")
        if self.namespaces is not None:
            self._drawn_packages()
        members: dict[str, list[str]] = {}
        entities = []
        for e in self.entities.values():
            if e.id in self.removed:
                continue
            if e.parent is not None:
                members.setdefault(e.parent, []).append(e.id)
            entities.append(Entity(e.id, e.name, e.kind, e.shape, tuple(e.stereotypes),
                                   tuple(e.attributes), tuple(e.methods), e.description,
                                   e.technology, e.parent, (), e.line))
        clusters = tuple(Cluster(c.id, c.name, c.kind, c.shape, c.parent,
                                 tuple(members.get(c.id, ())), c.stereotypes, c.description,
                                 (), c.line) for c in self.clusters.values())
        relations = tuple(r for r in self.relations
                          if r.source not in self.removed and r.target not in self.removed)
        return GraphDiagram("plantuml", kind, tuple(entities), relations, clusters,
                            tuple(self.notes), self.block.name, self.title, self.direction)


def _with_line(relation: Relation, number: int) -> Relation:
    return replace(relation, line=number)


# ---------------------------------------------------------------------------- shared text

def unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1]
    return text


def stereotypes_of(text: str) -> tuple[str, ...]:
    return tuple(s.strip() for s in re.findall(r"<<\s*([^<>]*?)\s*>>", text or ""))


#: The entity a bracketed end of a link declares, by its brackets.
_BRACKETED: dict[str, EntityKind] = {"[]": "component", "()": "usecase"}


def endpoint(builder: GraphBuilder, raw: str, number: int, end: str) -> str:
    """The entity id an end of a link names, declaring it when new."""
    raw = raw.strip()
    if raw == "[*]":
        return builder.pseudo_state("start" if end == "a" else "end", number)
    if raw in ("[H]", "[H*]"):
        eid = f"{builder.cluster_id or ''}{raw}"
        return builder.entity(eid, "", "history" if raw == "[H]" else "deep_history", raw,
                              number, declared=False)
    if raw.startswith("()"):
        name = unquote(raw[2:])
        return builder.entity(name, name, "circle", "()", number, declared=False)
    brackets = raw[:1] + raw[-1:]
    if brackets in _BRACKETED:  # [component], (use case)
        name = raw[1:-1].strip()
        ref = builder.resolve(name)
        if ref in builder.entities:
            return ref
        return builder.entity(name, name, _BRACKETED[brackets], brackets, number,
                              declared=False)
    if raw.startswith(":") and raw.endswith(":") and len(raw) > 2:
        name = raw[1:-1].strip()
        ref = builder.resolve(name)
        if ref in builder.entities:
            return ref
        return builder.entity(name, name, "actor", "::", number, declared=False)
    name = unquote(raw)
    separator = builder.namespaces.separator if builder.namespaces else None
    if "::" in name and builder.family in QUALIFIED and separator != "::":
        name = name.split("::")[0]
    return builder.entity(name, None, None, "", number, declared=False)
