"""Read PlantUML's non-sequence diagrams into `GraphDiagram` models.

`parse_graph(text)` never raises: each `@startuml … @enduml` block gives a
`Parsed` record (see `diagbench.formats.parsed`) holding the model and the
diagnostics (line, text, reason) of what could not be read.

This module holds what the kinds share: the statement loop (comments,
preprocessor lines, skinparams, styles, titles and legends skipped), links
and what they mean (`link_relation`), notes, clusters (`package X {` … `}`)
and the model under construction (`GraphBuilder`). The statements of each
kind family live in their own module, tried in order: `c4` (macro calls),
`state`, `classes` (class, object, ER `entity` with `er` for columns) and
`component` (component, deployment, use case).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
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
from diagbench.formats.parsed import Parsed
from diagbench.formats.plantuml.blocks import Block, split_blocks

#: A statement reader: (builder, stripped line, line number, all lines, index) → index of
#: the last line it consumed, or None when the line is not its statement.
Statement = Callable[["GraphBuilder", str, int, list[str], int], "int | None"]

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
    from dataclasses import replace
    return replace(relation, line=number)


# ---------------------------------------------------------------------------- shared text

def unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1]
    return text


def stereotypes_of(text: str) -> tuple[str, ...]:
    return tuple(s.strip() for s in re.findall(r"<<\s*([^<>]*?)\s*>>", text or ""))


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
    if raw.startswith("[") and raw.endswith("]"):
        name = raw[1:-1].strip()
        ref = builder.resolve(name)
        if ref in builder.entities:
            return ref
        return builder.entity(name, name, "component", "[]", number, declared=False)
    if raw.startswith("(") and raw.endswith(")"):
        name = raw[1:-1].strip()
        ref = builder.resolve(name)
        if ref in builder.entities:
            return ref
        return builder.entity(name, name, "usecase", "()", number, declared=False)
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


# ---------------------------------------------------------------------------- statements

_SKIP_BLOCKS = (
    (re.compile(r"^skinparam\b[^{]*\{\s*$", re.I), re.compile(r"^\}\s*$")),
    (re.compile(r"^<style>", re.I), re.compile(r"</style>\s*$", re.I)),
    (re.compile(r"^(?:legend|header|footer|center\s+header|right\s+footer)\b(?!.*:)[^\n]*$",
                re.I), re.compile(r"^end\s*(?:legend|header|footer)\s*$", re.I)),
    (re.compile(r"^title\s*$", re.I), re.compile(r"^end\s*title\s*$", re.I)),
    (re.compile(r"^sprite\b.*\{\s*$", re.I), re.compile(r"^\}\s*$")),
)
_IGNORED = re.compile(
    r"^(?:(?:skinparam|hide|show|scale|caption|footer|header|allowmixing|allow_mixing|"
    r"set\s+namespaceseparator|set\s+separator|sprite|mainframe|newpage|page|skin|"
    r"autonumber)\b|legend\s+\w+\s*:|!|'|"
    r"(?:AddElementTag|AddRelTag|AddBoundaryTag|AddPersonTag|AddContainerTag|AddComponentTag|"
    r"AddExternal\w*Tag|AddNodeTag|AddSystemTag|UpdateElementStyle|UpdateRelStyle|"
    r"UpdateBoundaryStyle|UpdateLegendTitle|UpdateSkinparamsAndLegendEntry|"
    r"SHOW_(?!FLOATING_LEGEND)\w+|HIDE_\w+|LAYOUT_\w+|SetPropertyHeader|"
    r"WithoutPropertyHeader|AddProperty|SetDefaultLegendEntries|SetSketchStyle|"
    r"Update\w*Style|Lay_\w*|increment|setIndex|LEGEND|RESET_\w*)\s*\()")
_TITLE = re.compile(r"^title\s+(.*)$", re.I)
_DIRECTION = re.compile(r"^(left\s+to\s+right|top\s+to\s+bottom)\s+direction\s*$", re.I)
_REMOVE = re.compile(r"^remove\s+(\S+)\s*$", re.I)
_NOTE_ON = re.compile(
    r"^note\s+(?P<pos>left|right|top|bottom)(?:\s+of\s+(?P<target>\"[^\"]*\"|\[[^\]]+\]|"
    r"\([^)]+\)|[^\s:#\"]+(?:::[^\s:#]+)?))?\s*(?:#\S+\s*)?"
    r"(?::\s*(?P<text>.*))?$", re.I)
_NOTE_LINK = re.compile(r"^note\s+(?:(?:left|right|top|bottom)\s+)?on\s+link\s*(?:#\S+\s*)?"
                        r"(?::\s*(?P<text>.*))?$", re.I)
_NOTE_FREE = re.compile(
    r'^note\s+(?:"(?P<text>[^"]*)"\s+as\s+(?P<id1>[\w.]+)|as\s+(?P<id2>[\w.]+)|'
    r'(?P<id3>[\w.]+)\s+as\s+"(?P<text3>[^"]*)")\s*(?:#\S+\s*)?$', re.I)
_END_NOTE = re.compile(r"^end\s*note\s*$", re.I)
_CLUSTER_KEYWORDS: dict[str, tuple[ClusterKind, EntityKind | None]] = {
    "package": ("package", None), "namespace": ("namespace", None),
    "node": ("node", "node"), "component": ("component", "component"),
    "rectangle": ("group", "rectangle"), "folder": ("group", "folder"),
    "frame": ("group", "frame"), "cloud": ("group", "cloud"),
    "database": ("group", "database"), "card": ("group", "card"),
    "artifact": ("group", "artifact"), "storage": ("group", "storage"),
    "queue": ("group", "queue"), "stack": ("group", "stack"), "file": ("group", "file"),
    "hexagon": ("group", "hexagon"), "agent": ("group", "agent"),
}
_CLUSTER = re.compile(
    r"^(?P<kw>" + "|".join(_CLUSTER_KEYWORDS) + r")\s+"
    r'(?P<name>"[^"]*"|[^\s{<#"]+)(?:\s+as\s+(?P<alias>"[^"]*"|[^\s{<#]+))?'
    r"\s*(?P<stereo>(?:<<[^>]*>>\s*)*)(?:#[\w#:;.]+\s*)?(?:\[\[[^\]]*\]\]\s*)?\{\s*(?P<close>\})?\s*$",
    re.I)
_TOGETHER = re.compile(r"^together\s*\{\s*$", re.I)


def _note_text_block(lines: list[str], i: int, builder: GraphBuilder, number: int
                     ) -> tuple[str, int]:
    body: list[str] = []
    j = i + 1
    while j < len(lines):
        if _END_NOTE.match(lines[j].strip()):
            return "\n".join(body), j
        body.append(lines[j].strip())
        j += 1
    builder.error(number, lines[i], "note never closed (no 'end note')")
    return "\n".join(body), len(lines) - 1


def common_statement(builder: GraphBuilder, line: str, number: int, lines: list[str],
                     i: int) -> int | None:
    """Titles, direction, notes, clusters and braces: statements every kind shares."""
    lower = line.lower()
    if lower.startswith("note"):
        return _note(builder, line, number, lines, i)
    m = _TITLE.match(line)
    if m:
        builder.title = m.group(1).strip()
        return i
    m = _DIRECTION.match(line)
    if m:
        builder.direction = " ".join(m.group(1).lower().split())
        return i
    m = _REMOVE.match(line)
    if m:
        builder.removed.add(builder.resolve(m.group(1).strip('"[]()')))
        return i
    if _TOGETHER.match(line):
        builder.open_brace()
        return i
    m = _CLUSTER.match(line)
    if m:
        kw = m.group("kw").lower()
        kind, as_entity = _CLUSTER_KEYWORDS[kw]
        if builder.family in ("class", "object", "er") and kind != "namespace":
            kind, as_entity = "package", None
        if builder.family == "state":
            return None
        name = unquote(m.group("name"))
        alias = unquote(m.group("alias")) if m.group("alias") else None
        if alias and m.group("alias").startswith('"') and not m.group("name").startswith('"'):
            name, alias = alias, name
        stereo = stereotypes_of(m.group("stereo") or "")
        builder.open_cluster(alias or name, name, kind, kw, number, stereo, as_entity)
        if alias:
            builder.aliases[name] = alias
        if m.group("close"):
            builder.close(number, line)
        return i
    if line == "}" or (line.startswith("}") and line.strip("} ") == ""):
        for _ in range(line.count("}")):
            builder.close(number, line)
        return i
    return None


def _note(builder: GraphBuilder, line: str, number: int, lines: list[str], i: int) -> int | None:
    m = _NOTE_LINK.match(line)
    if m:
        text, end = (m.group("text"), i) if m.group("text") is not None else \
            _note_text_block(lines, i, builder, number)
        last = builder.relations[-1].endpoints if builder.relations else ()
        builder.note(text.strip(), tuple(last), "link", number)
        return end
    m = _NOTE_ON.match(line)
    if m:
        target = m.group("target")
        if target is not None:
            ref = target.strip()
            ref = ref[1:-1] if ref[:1] in "[(" and ref[-1:] in "])" else unquote(ref)
            ref = ref.split("::")[0]
            tid = builder.resolve(ref)
            targets: tuple[str, ...] = (tid,)
        else:
            targets = (builder.last_entity,) if builder.last_entity else ()
        text, end = (m.group("text"), i) if m.group("text") is not None else \
            _note_text_block(lines, i, builder, number)
        builder.note(text.strip(), targets, cast(NotePosition, m.group("pos").lower()), number)
        return end
    m = _NOTE_FREE.match(line)
    if m:
        nid = m.group("id1") or m.group("id2") or m.group("id3") or ""
        text = m.group("text") if m.group("text") is not None else m.group("text3")
        end = i
        if text is None:
            text, end = _note_text_block(lines, i, builder, number)
        builder.note(text, (), "floating", number, nid)
        return end
    return None


def link_statement(builder: GraphBuilder, line: str, number: int, lines: list[str],
                   i: int) -> int | None:
    m = LINK.match(line)
    if m is None:
        return None
    a_raw, b_raw = m.group("a"), m.group("b")
    shape = link_shape(m.group("left") or "", m.group("body"), m.group("right") or "")
    # a note's connector (`N1 .. A`) is part of the note
    if unquote(a_raw) in builder.note_ids or unquote(b_raw) in builder.note_ids:
        other = unquote(b_raw) if unquote(a_raw) in builder.note_ids else unquote(a_raw)
        nid = unquote(a_raw) if unquote(a_raw) in builder.note_ids else unquote(b_raw)
        if other not in builder.note_ids:
            target = endpoint(builder, other if other == b_raw.strip() else b_raw, number, "b")
            builder.notes[:] = [n if n.id != nid else Note(n.text, (*n.targets, target),
                                                          n.position, n.id, n.parent, n.line)
                                for n in builder.notes]
        return i
    a = endpoint(builder, a_raw, number, "a")
    b = endpoint(builder, b_raw, number, "b")
    if shape.hidden:
        return i
    label = (m.group("label") or "").strip()
    relation = link_relation(a, b, shape, builder.family, label,
                             stereotypes_of(m.group("stereo") or ""),
                             m.group("ma") or "", m.group("mb") or "")
    builder.relation(relation, number)
    return i


# ---------------------------------------------------------------------------- kinds

_C4_CALL = re.compile(r"^(?:Person|System|Container|Component|Deployment_Node|Node|Rel|BiRel|"
                      r"Enterprise_Boundary|System_Boundary|Container_Boundary|Boundary)\w*\s*\(",
                      re.M)
_C4_INCLUDE = re.compile(r"^\s*!include\w*\s+\S*C4", re.M | re.I)
_STATE = re.compile(r"^\s*(?:state\s|\[\*\]|\[H\*?\])", re.M | re.I)
_CLASS = re.compile(r"^\s*(?:abstract\s+class|abstract|class|enum|annotation|struct|"
                    r"record|exception|protocol|metaclass|stereotype|dataclass)\s", re.M | re.I)
_OBJECT = re.compile(r"^\s*(?:object|map|json)\s", re.M | re.I)
_ENTITY = re.compile(r"^\s*entity\s+\S+.*\{\s*$", re.M | re.I)
_USECASE = re.compile(r"^\s*(?:usecase\s|actor\s|\([^)]+\)|:[^:]+:)", re.M | re.I)
_DESCRIPTION = re.compile(
    r"^\s*(?:component|node|cloud|rectangle|folder|frame|artifact|database|queue|storage|"
    r"card|file|stack|hexagon|agent|boundary|control|collections|person|port|portin|portout|"
    r"label|\[)", re.M | re.I)


def family_of(text: str) -> GraphKind:
    """The kind a block is, guessed from its statements as PlantUML does."""
    if _C4_INCLUDE.search(text) or _C4_CALL.search(text):
        return "c4"
    if _STATE.search(text):
        return "state"
    if _ENTITY.search(text) and not _CLASS.search(text):
        return "er"
    if _CLASS.search(text):
        return "class"
    if re.search(r"^\s*interface\s", text, re.M | re.I) and not _DESCRIPTION.search(text):
        return "class"
    if _OBJECT.search(text):
        return "object"
    if _USECASE.search(text) and not re.search(r"^\s*(?:component|node|\[)", text, re.M | re.I):
        return "usecase"
    if re.search(r"^\s*(?:node|artifact|cloud|database|storage)\s", text, re.M | re.I) and \
            not re.search(r"^\s*component\s|^\s*\[", text, re.M | re.I):
        return "deployment"
    if _DESCRIPTION.search(text):
        return "component"
    if _USECASE.search(text):
        return "usecase"
    return "class"


def _statements(family: str) -> list[Statement]:
    from diagbench.formats.plantuml import c4, classes, component, state
    found: list[Statement] = [common_statement]
    if family == "c4":
        found.append(c4.statement)
    if family == "state":
        found.append(state.statement)
    if family in ("class", "object", "er"):
        found.append(classes.statement)
        found.append(component.statement)
    else:
        found.append(component.statement)
        if family != "state":
            found.append(classes.statement)
    found.append(link_statement)
    found.append(lollipop_statement)
    return found


def _brace_on_next_line(lines: list[str]) -> list[str]:
    """`class A` + `{` on the next line is `class A {` (line numbers kept)."""
    out = list(lines)
    previous = -1
    for k, line in enumerate(out):
        stripped = line.strip()
        if stripped == "{" and previous >= 0 and not out[previous].rstrip().endswith("{") \
                and not out[previous].strip().startswith("'"):
            out[previous] = out[previous].rstrip() + " {"
            out[k] = ""
        if stripped:
            previous = k
    return out


_LOLLIPOP = re.compile(rf"^(?P<a>{ENDPOINT})\s*\(\)(?P<body>[-.]+)\s*(?P<b>{ENDPOINT})"
                       r"\s*(?::\s*(?P<label>.*))?$")


def lollipop_statement(builder: GraphBuilder, line: str, number: int, lines: list[str],
                       i: int) -> int | None:
    """`I ()- C`: the interface I drawn as a circle, linked to C."""
    m = _LOLLIPOP.match(line)
    if m is None:
        return None
    a = builder.entity(unquote(m.group("a")), None, "circle", "()", number)
    b = endpoint(builder, m.group("b"), number, "b")
    builder.relation(Relation(a, b, "association", "none", (m.group("label") or "").strip(),
                              style="dashed" if "." in m.group("body") else "solid"), number)
    return i


def read_block(block: Block) -> tuple[GraphDiagram, list[Diagnostic]]:
    """The graph diagram of one block, and the diagnostics of the lines it could not read."""
    text = "\n".join(block.lines)
    family = family_of(text)
    lines = _brace_on_next_line(block.lines)
    builder = GraphBuilder(block, family)
    statements = _statements(family)
    i = 0
    while i < len(lines):
        number = block.first_line + i
        line = lines[i].strip()
        if not line or line.startswith("'"):
            i += 1
            continue
        if line.startswith("/'"):
            rest = line[2:]
            while "'/" not in rest and i + 1 < len(lines):
                i += 1
                rest = lines[i]
            i += 1
            continue
        skipped = False
        for start, end in _SKIP_BLOCKS:
            if start.match(line) and not (end.search(line) and start.pattern.startswith("^<")
                                          and "</style>" in line.lower()):
                j = i + 1
                while j < len(lines) and not end.search(lines[j].strip()):
                    j += 1
                if j >= len(lines):
                    builder.error(number, lines[i], "block never closed")
                i = j + 1
                skipped = True
                break
            if start.match(line):
                i += 1
                skipped = True
                break
        if skipped:
            continue
        if _IGNORED.match(line):
            i += 1
            continue
        line = re.sub(r"\s+'[^']*$", "", line) if " '" in line and '"' not in line else line
        for statement in statements:
            try:
                end_index = statement(builder, line, number, lines, i)
            except Exception as exc:
                builder.error(number, lines[i], f"internal error: {exc!r}")
                end_index = i
            if end_index is not None:
                i = end_index + 1
                break
        else:
            builder.error(number, lines[i], "statement not understood")
            i += 1
    diagram = builder.freeze(family)
    return diagram, builder.diagnostics


def parse_graph(text: str) -> list[Parsed[GraphDiagram]]:
    """Every block of `text` read as a non-sequence diagram."""
    out = []
    for index, block in enumerate(split_blocks(text)):
        if block.kind != "uml":
            out.append(Parsed(index, block.first_line, "plantuml", block.kind,
                              GraphDiagram("plantuml", "class", name=block.name),
                              tuple(block.diagnostics)))
            continue
        diagram, diagnostics = read_block(block)
        found = sorted(block.diagnostics + diagnostics, key=lambda d: d.line)
        out.append(Parsed(index, block.first_line, "plantuml", diagram.kind, diagram,
                          tuple(found)))
    return out
