"""C4-PlantUML diagrams: the macro calls of `C4_Context`, `C4_Container`,
`C4_Component`, `C4_Deployment` and `C4_Dynamic`.

Elements: `Person`, `System`, `Container`, `Component` with their `Db`/`Queue`
variants and `_Ext` forms (`ContainerDb_Ext(alias, label, techn, descr)`);
boundaries `Boundary`, `Enterprise_Boundary`, `System_Boundary`,
`Container_Boundary` (clusters when followed by `{`); deployment nodes
`Deployment_Node`, `Node`, `Node_L`, `Node_R` (clusters with `{`, entities
without); relations `Rel`, `Rel_U/D/L/R`, `Rel_Up/Down/Left/Right`, `Rel_Back`,
`Rel_Neighbor`, `Rel_Back_Neighbor`, `Rel_(…, direction)`, the `BiRel*` forms
(drawn with two heads) and the dynamic `RelIndex*` forms (index first, as `Rel_` once
C4_Dynamic is included).
`Lay_*` only steers the layout: no relation. Named arguments (`$tags="…"`)
are accepted anywhere. The include lines themselves are preprocessor lines;
`diagbench.render.graph_stats.map_c4_includes` maps them to PlantUML's stdlib
for rendering.
"""

from __future__ import annotations

import re

from diagbench.diagram.graph import EntityKind, Relation
from diagbench.formats.plantuml.graph_builder import GraphBuilder, endpoint, unquote

_CALL = re.compile(
    r"^(?P<macro>[A-Za-z]\w*)\s*\((?P<args>.*)\)\s*(?P<open>\{)?\s*(?P<close>\})?\s*$")
_ELEMENT = re.compile(r"^(?P<level>Person|System|Container|Component)(?P<variant>Db|Queue)?"
                      r"(?P<ext>_Ext)?$")
_BOUNDARY = re.compile(r"^(?:Enterprise_|System_|Container_)?Boundary$")
_NODE = re.compile(r"^(?:Deployment_Node|Node)(?:_L|_R)?$")
_REL = re.compile(r"^(?P<bi>Bi)?Rel(?P<index>Index)?(?P<rest>_\w*)?$")
_DYNAMIC = re.compile(r"^\s*!include\w*\s+\S*C4_Dynamic", re.I)


def split_arguments(text: str) -> tuple[list[str], dict[str, str]]:
    """Positional and named (`$name=value`) arguments of a macro call, unquoted."""
    parts: list[str] = []
    depth, quoted = 0, False
    current: list[str] = []
    for ch in text:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "([":
            depth += 1
        elif not quoted and ch in ")]":
            depth -= 1
        if ch == "," and not quoted and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(ch)
    if current or parts:
        parts.append("".join(current))
    positional: list[str] = []
    named: dict[str, str] = {}
    for part in parts:
        part = part.strip()
        m = re.match(r"^\$(\w+)\s*=\s*(.*)$", part, re.S)
        if m:
            named[m.group(1).lower()] = unquote(m.group(2))
        else:
            positional.append(unquote(part))
    return positional, named


def _arg(positional: list[str], named: dict[str, str], k: int, *names: str) -> str:
    for name in names:
        if name in named:
            return named[name]
    return positional[k] if k < len(positional) else ""


def statement(builder: GraphBuilder, line: str, number: int, lines: list[str],
              i: int) -> int | None:
    m = _CALL.match(line)
    if m is None:
        return None
    if m.group("macro") == "SHOW_FLOATING_LEGEND":  # the legend is drawn as an entity
        builder.entity("LEGEND()", "Legend", "label", "SHOW_FLOATING_LEGEND", number)
        return i
    macro = m.group("macro")
    positional, named = split_arguments(m.group("args"))
    element = _ELEMENT.match(macro)
    boundary = _BOUNDARY.match(macro)
    node = _NODE.match(macro)
    rel = _REL.match(macro)
    if not (element or boundary or node or rel):
        return None
    alias = _arg(positional, named, 0, "alias")
    if not alias and not rel:
        builder.error(number, line, f"{macro} without an alias")
        return i
    label = _arg(positional, named, 1, "label")
    if element:
        level = element.group("level").lower()
        kind: EntityKind = level  # type: ignore[assignment]
        if level in ("person", "system"):
            descr, techn = _arg(positional, named, 2, "descr"), ""
            if level == "system" or level == "person":
                techn = named.get("type", "")
        else:
            techn = _arg(positional, named, 2, "techn")
            descr = _arg(positional, named, 3, "descr")
        stereo = tuple(t for t in named.get("tags", "").split("+") if t)
        eid = builder.entity(alias, label, kind, macro, number, stereotypes=stereo)
        entity = builder.entities.get(eid)
        if entity is not None:
            entity.description, entity.technology = descr, techn
        if m.group("open"):
            builder.open_brace()
            if m.group("close"):
                builder.close(number, line)
        return i
    if boundary or node:
        if m.group("open"):
            kind_name = "boundary" if boundary else "node"
            builder.open_cluster(alias, label, kind_name, macro, number,  # type: ignore[arg-type]
                                 tuple(t for t in named.get("tags", "").split("+") if t),
                                 as_entity="rectangle" if boundary else "node")
            cluster = builder.clusters[builder.cluster_id or alias]
            cluster.description = _arg(positional, named, 3 if node else 2, "descr") \
                if node else ""
            if m.group("close"):
                builder.close(number, line)
            return i
        if node:
            builder.entity(alias, label, "node", macro, number)
            return i
        builder.warn(number, line, f"{macro} without '{{': not drawn")
        return i
    assert rel is not None
    rest = rel.group("rest") or ""
    # C4_Dynamic's Rel_ takes the index first too (Rel_("1", a, b, label, direction))
    dynamic = rest == "_" and any(_DYNAMIC.match(before) for before in lines[:i])
    args = positional[1:] if rel.group("index") or dynamic else positional
    if len(args) < 2:
        builder.error(number, line, f"{macro} needs a source and a target")
        return i
    source = endpoint(builder, args[0], number, "a")
    target = endpoint(builder, args[1], number, "b")
    label = named.get("label", args[2] if len(args) > 2 else "")
    if rest == "_":
        techn = args[3] if len(args) > 4 else ""
    else:
        techn = named.get("techn", args[3] if len(args) > 3 else "")
    double = bool(rel.group("bi"))
    builder.relation(Relation(source, target, "flow", "double" if double else "single", label,
                              "arrow" if double else "none", "arrow", "solid",
                              technology=techn, reversed="Back" in rest), number)
    return i
