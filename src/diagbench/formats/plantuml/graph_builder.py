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

    def open_brace(self) -> None:
        self.stack.append(None)

    def close(self, number: int, text: str) -> None:
        if not self.stack:
            self.error(number, text, "'}' without an open block")
            return
        cid = self.stack.pop()
        if cid is None:
            return
        cluster = self.clusters[cid]
        if cluster.content == 0 and self.family in ("class", "object", "er"):
            del self.clusters[cid]  # an empty package is not drawn in a class diagram
        elif cluster.content == 0 and cluster.as_entity is not None:
            del self.clusters[cid]
            self.entity(cid, cluster.name, cluster.as_entity, cluster.shape, cluster.line,
                        stereotypes=cluster.stereotypes)

    # -- entities
    def resolve(self, ref: str) -> str:
        return self.aliases.get(ref, ref)

    def entity(self, eid: str, name: str | None = None, kind: EntityKind | None = None,
               shape: str = "", number: int = 0, declared: bool = True,
               stereotypes: tuple[str, ...] = (), alias: str | None = None) -> str:
        """Declare (or refer to) an entity; returns its id."""
        if alias:
            self.aliases[eid] = alias
            eid = alias
        eid = self.resolve(eid) if not alias else eid
        found = self.entities.get(eid)
        if eid in self.clusters and found is None:
            return eid  # a link to a cluster
        if found is None:
            parent = self.cluster_id
            if parent is not None:
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

    def freeze(self, kind: GraphKind) -> GraphDiagram:
        for cid in [c for c in self.stack if c is not None]:
            self.error(self.clusters[cid].line, cid, "block never closed")
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
    if "::" in name and builder.family in ("class", "object", "er"):
        name = name.split("::")[0]
    return builder.entity(name, None, None, "", number, declared=False)
