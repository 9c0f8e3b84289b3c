"""Read PlantUML's non-sequence diagrams into `GraphDiagram` models.

`parse_graph(text)` never raises: each `@startuml … @enduml` block gives a
`Parsed` record (see `diagbench.formats.parsed`) holding the model and the
diagnostics (line, text, reason) of what could not be read.

This module holds the statement loop (comments, preprocessor lines,
skinparams, styles, titles and legends skipped) and the statements every kind
shares: links, notes, clusters (`package X {` … `}`). The model under
construction (`GraphBuilder`) and what links mean (`link_relation`) live
below it, in `graph_builder`. The statements of each kind family live in
their own module, tried in order: `c4` (macro calls), `state`, `classes`
(class, object, ER `entity` with `er` for columns) and `component`
(component, deployment, use case); they import `graph_builder`, never this
module.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import cast

from diagbench.diagram.graph import (
    ClusterKind,
    EntityKind,
    GraphDiagram,
    GraphKind,
    Note,
    NotePosition,
    Relation,
)
from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.parsed import Parsed
from diagbench.formats.plantuml import c4, classes, component, state
from diagbench.formats.plantuml.blocks import Block, split_blocks
from diagbench.formats.plantuml.graph_builder import (
    ENDPOINT,
    LINK,
    GraphBuilder,
    endpoint,
    link_relation,
    link_shape,
    stereotypes_of,
    unquote,
)

#: A statement reader: (builder, stripped line, line number, all lines, index) → index of
#: the last line it consumed, or None when the line is not its statement.
Statement = Callable[["GraphBuilder", str, int, list[str], int], "int | None"]

# ---------------------------------------------------------------------------- statements

_SKIP_BLOCKS = (
    (re.compile(r"^skinparam\b[^{]*\{\s*$", re.I), re.compile(r"^\}\s*$")),
    (re.compile(r"^<style>", re.I), re.compile(r"</style>\s*$", re.I)),
    # a legend is a block; a header or footer is one only with no text on its line
    # (`footer text` is a footer of its own, read as ignored)
    (re.compile(r"^(?:legend(?:\s+(?:top|bottom|left|right|center))*|"
                r"(?:(?:left|right|center)\s+)?(?:header|footer))\s*$", re.I),
     re.compile(r"^end\s*(?:legend|header|footer)\s*$", re.I)),
    (re.compile(r"^title\s*$", re.I), re.compile(r"^end\s*title\s*$", re.I)),
    (re.compile(r"^sprite\b.*\{\s*$", re.I), re.compile(r"^\}\s*$")),
)
_IGNORED = re.compile(
    r"^(?:(?:skinparam|hide|show|scale|caption|footer|header|(?:left|right|center)\s+"
    r"(?:header|footer)|allowmixing|allow_mixing|"
    r"sprite|mainframe|newpage|page|skin|"
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
_SEPARATOR = re.compile(r"^set\s+(?:namespace)?separator\s+(\S+)\s*$", re.I)


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
    m = _SEPARATOR.match(line)
    if m:
        if builder.namespaces is not None:
            value = m.group(1)
            builder.namespaces.separator = None if value.lower() == "none" else value
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
        if alias and builder.namespaces is None:
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
