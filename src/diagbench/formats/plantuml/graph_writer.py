"""Write a `GraphDiagram` as PlantUML: declarations (inside their clusters), relations,
notes. Reading the output back with `plantuml.graph` gives the same structure
(`structure()`): entities with their kinds, relations with their meaning and drawn
direction, clusters with their nesting and members, notes with their targets.
C4 diagrams are written with C4-PlantUML's macros and PlantUML's stdlib include.
"""

from __future__ import annotations

import re
from dataclasses import replace

from diagbench.diagram.graph import Cluster, Entity, GraphDiagram, Note, Relation

_IDENTIFIER = re.compile(r"^[A-Za-z_][\w]*$")
_CLASS_KEYWORDS = {
    "class": "class", "abstract": "abstract class", "interface": "interface", "enum": "enum",
    "annotation": "annotation", "struct": "struct", "record": "record",
    "exception": "exception", "protocol": "protocol", "metaclass": "metaclass",
    "stereotype": "stereotype", "table": "entity", "object": "object", "map": "map",
    "circle": "circle", "json": "json",
}
_DESCRIPTION_KEYWORDS = {
    "component", "node", "database", "queue", "artifact", "cloud", "folder", "frame", "file",
    "package", "rectangle", "card", "storage", "stack", "hexagon", "agent", "collections",
    "label", "boundary", "control", "entity", "actor", "usecase", "person", "interface",
    "circle",
}
_STATE_STEREOTYPES = {"choice": "choice", "fork": "fork", "join": "join",
                      "entry_point": "entryPoint", "exit_point": "exitPoint",
                      "history": "history", "deep_history": "history*"}
_CLUSTER_KEYWORDS = {"package": "package", "namespace": "namespace", "node": "node",
                     "component": "component", "composite_state": "state"}


def _quoted(text: str) -> str:
    return '"' + text.replace('"', "'").replace("\n", "\\n") + '"'


def _ref(eid: str) -> str:
    return eid if _IDENTIFIER.match(eid) else _quoted(eid)


def _declaration(e: Entity, kind: str) -> list[str]:
    stereo = "".join(f" <<{s}>>" for s in e.stereotypes)
    if kind == "c4":
        macro = e.shape or {"person": "Person", "system": "System", "container": "Container",
                            "component": "Component", "node": "Node"}.get(e.kind, "System")
        if e.kind in ("container", "component"):
            args = [e.id, _quoted(e.label), _quoted(e.technology), _quoted(e.description)]
        elif e.kind == "node":
            args = [e.id, _quoted(e.label)]
        else:
            args = [e.id, _quoted(e.label), _quoted(e.description)]
        while args and args[-1] == '""':
            args.pop()
        if macro.endswith("Boundary"):  # an empty boundary, drawn as a box: braces kept
            return [f"{macro}({', '.join(args[:2])}) {{", "}"]
        return [f"{macro}({', '.join(args)})"]
    if kind == "state":
        if e.kind in ("start", "end"):
            return []
        line = f"state {_quoted(e.label)} as {e.id}" if not _IDENTIFIER.match(e.label) or \
            e.label != e.id else f"state {e.id}"
        if e.kind in _STATE_STEREOTYPES:
            line += f" <<{_STATE_STEREOTYPES[e.kind]}>>"
            stereo = "".join(f" <<{s}>>" for s in e.stereotypes
                             if s.lower().replace(" ", "") != _STATE_STEREOTYPES[e.kind].lower())
        lines = [line + stereo]
        lines += [f"{e.id} : {d}" for d in e.description.splitlines() if d.strip()]
        return lines
    if kind in ("class", "object", "er") or (e.kind in _CLASS_KEYWORDS and \
            e.kind not in _DESCRIPTION_KEYWORDS):
        if e.kind == "diamond":
            return [f"<> {e.id}"]
        keyword = _CLASS_KEYWORDS.get(e.kind, "class")
        code = _local(e.id, e.parent)
        head = f"{keyword} {_quoted(e.label)} as {code}" if e.label != code else \
            f"{keyword} {_ref(code)}"
        members = [m.text or (f"{m.name} : {m.type}" if m.type else m.name)
                   for m in (*e.attributes, *e.methods)]
        if e.kind == "map":
            members = [f"{m.name} => {m.default}" for m in e.attributes]
        if not members:
            return [head + stereo]
        return [head + stereo + " {", *(f"  {m}" for m in members), "}"]
    keyword = e.kind if e.kind in _DESCRIPTION_KEYWORDS else "rectangle"
    if e.kind == "port":
        keyword = "port"
    alias = e.id if _IDENTIFIER.match(e.id) else None
    if kind == "usecase" and e.kind == "actor" and alias and not e.stereotypes \
            and not set(":\n") & set(e.label):
        # `:name: as A`, which no sequence diagram takes: with actors alone and arrows
        # between them, `actor "name" as A` reads as a sequence diagram
        return [f":{e.label}: as {alias}"]
    if alias:
        return [f"{keyword} {_quoted(e.label)} as {alias}{stereo}"]
    return [f"{keyword} {_quoted(e.id)}{stereo}"]


def _cluster_open(c: Cluster, kind: str) -> str:
    if kind == "c4" and c.kind in ("boundary", "node"):
        macro = c.shape or ("System_Boundary" if c.kind == "boundary" else "Node")
        return f"{macro}({c.id}, {_quoted(c.label)}) {{"
    keyword = _CLUSTER_KEYWORDS.get(c.kind) or (c.shape if c.shape and
                                                 c.shape.isalpha() else "rectangle")
    if kind in ("class", "object", "er") and keyword not in ("package", "namespace"):
        keyword = "package"
    stereo = "".join(f" <<{s}>>" for s in c.stereotypes)
    code = _local(c.id, c.parent) if kind in ("class", "object", "er") else c.id
    if c.label != code or not _IDENTIFIER.match(code):
        if _IDENTIFIER.match(code):
            return f"{keyword} {_quoted(c.label)} as {code}{stereo} {{"
        return f"{keyword} {_quoted(code)}{stereo} {{"
    return f"{keyword} {code}{stereo} {{"


def _qualified_for_writing(diagram: GraphDiagram, lines: list[str]) -> GraphDiagram:
    """A class diagram whose names hold dots (written under `set separator none` or
    another separator) written under `set separator ::`: relations and notes then name
    entities by their package path joined with `::` (ids are joined with `.`)."""
    parents = {c.id: c.parent for c in diagram.clusters}
    parents.update({e.id: e.parent for e in diagram.entities})
    if not any("." in _local(x, p) for x, p in parents.items()):
        return diagram
    lines.append("set separator ::")

    def ref(x: str) -> str:
        parent = parents.get(x)
        return x if not parent else f"{ref(parent)}::{_local(x, parent)}"

    relations = tuple(replace(r, source=ref(r.source), target=ref(r.target))
                      for r in diagram.relations)
    notes = tuple(replace(n, targets=tuple(ref(t) for t in n.targets)) for n in diagram.notes)
    return replace(diagram, relations=relations, notes=notes)


def _local(qualified: str, parent: str | None) -> str:
    """A class diagram's name written inside its package: its qualified name (the
    package's and its own, `plantuml.namespaces`) without the package's."""
    if parent and qualified.startswith(parent + "."):
        return qualified[len(parent) + 1:]
    return qualified


_ARROWS = {
    "inheritance": ("--|>", "<|--"), "realization": ("..|>", "<|.."),
    "composition": ("*--", "--*"), "aggregation": ("o--", "--o"),
    "dependency": ("..>", "<.."), "containment": ("+--", "--+"),
}
_LEFT = {"none": "", "arrow": "<", "socket": ")", "circle": "0", "cross": "x", "square": "#",
         "plus": "+"}
_RIGHT = {"none": "", "arrow": ">", "socket": "(", "circle": "0", "cross": "x", "square": "#",
          "plus": "+"}
_CROWS_LEFT = {"1": "||", "0..1": "|o", "1..*": "}|", "0..*": "}o"}
_CROWS_RIGHT = {"1": "||", "0..1": "o|", "1..*": "|{", "0..*": "o{"}


def _relation(r: Relation, kind: str, pseudo: dict[str, str]) -> str:
    a, b = pseudo.get(r.source, _ref(r.source)), pseudo.get(r.target, _ref(r.target))
    label = f" : {r.label}" if r.label else ""
    if kind == "c4":
        macro = "BiRel" if r.direction == "double" else "Rel"
        args = [r.source, r.target, _quoted(r.label)]
        if r.technology:
            args.append(_quoted(r.technology))
        return f"{macro}({', '.join(args)})"
    line = "." if r.style in ("dashed", "dotted") else "-"
    if kind == "state":  # state diagrams draw no `..` arrows: the style goes in brackets
        style = f"[{r.style}]" if r.style in ("dashed", "dotted", "bold") else ""
        head = "->" if r.direction != "none" else "-"
        return f"{a} -{style}{head} {b}{label}"
    if r.type in ("identifying", "non_identifying"):
        body = ".." if r.type == "non_identifying" else "--"
        left = _CROWS_LEFT.get(r.source_cardinality, "||")
        right = _CROWS_RIGHT.get(r.target_cardinality, "||")
        return f"{a} {left}{body}{right} {b}{label}"
    ma = f' "{r.source_cardinality}"' if r.source_cardinality else ""
    mb = f'"{r.target_cardinality}" ' if r.target_cardinality else ""
    if r.type in _ARROWS and r.type != "dependency":
        arrow = _ARROWS[r.type][0]
    elif r.source_head != "none" or r.target_head != "none":
        arrow = _LEFT.get(r.source_head, "") + line * 2 + _RIGHT.get(r.target_head, "")
    elif r.type == "dependency":
        arrow = "..>"
    elif r.direction == "double":
        arrow = f"<{line * 2}>"
    elif r.direction == "single":
        arrow = f"{line * 2}>"
    else:
        arrow = line * 2
    if r.type in ("include", "extend") and f"<<{r.type}>>" not in r.label:
        label = f" : <<{r.type}>>" + (f" {r.label}" if r.label else "")
    return f"{a}{ma} {arrow} {mb}{b}{label}"


def _note(n: Note) -> list[str]:
    multiline = "\n" in n.text
    if n.position in ("left", "right", "top", "bottom") and len(n.targets) == 1:
        head = f"note {n.position} of {_ref(n.targets[0])}"
        if multiline:
            return [head, *n.text.splitlines(), "end note"]
        return [f"{head} : {n.text}"]
    nid = n.id or "N"
    lines = [f"note as {nid}", *n.text.splitlines(), "end note"] if multiline or not n.text \
        else [f"note {_quoted(n.text)} as {nid}"]
    lines += [f"{nid} .. {_ref(t)}" for t in n.targets]
    return lines


def write_graph(diagram: GraphDiagram) -> str:
    """PlantUML text for `diagram` (one `@startuml` block)."""
    kind = diagram.kind
    lines = ["@startuml" + (f" {diagram.name}" if diagram.name else "")]
    if kind == "c4":  # C4_Component defines the component macros beside the others
        components = any(e.kind == "component" or e.shape.startswith("Component")
                         for e in diagram.entities)
        lines.append(f"!include <C4/C4_{'Component' if components else 'Container'}>")
    if diagram.title:
        lines.append(f"title {diagram.title}")
    if diagram.direction:
        lines.append(f"{diagram.direction} direction")
    if kind in ("class", "object", "er"):
        diagram = _qualified_for_writing(diagram, lines)
    pseudo = {e.id: "[*]" for e in diagram.entities if e.kind in ("start", "end")}
    pseudo.update({e.id: e.shape for e in diagram.entities
                   if e.kind in ("history", "deep_history") and e.shape.startswith("[H")})

    def emit(scope: str | None, depth: int) -> None:
        pad = "  " * depth
        for e in diagram.entities:
            if e.parent == scope and e.id not in pseudo:
                lines.extend(pad + x for x in _declaration(e, kind))
        for c in diagram.clusters:
            if c.parent == scope:
                lines.append(pad + _cluster_open(c, kind))
                emit(c.id, depth + 1)
                # a state scope's start/end transitions belong inside it, each after the
                # `--` of its concurrent region
                inside = [r for r in diagram.relations if _scope_of(r, diagram, pseudo) == c.id]
                for region in sorted({_region(r, pseudo) for r in inside}):
                    if region:
                        lines.append(pad + "  --")
                    lines.extend(pad + "  " + _relation(r, kind, pseudo) for r in inside
                                 if _region(r, pseudo) == region)
                lines.append(pad + "}")

    emit(None, 0)
    lines.extend(_relation(r, kind, pseudo) for r in diagram.relations
                 if _scope_of(r, diagram, pseudo) is None)
    for note in diagram.notes:
        lines.extend(_note(note))
    lines.append("@enduml")
    return "\n".join(lines) + "\n"


def _scope_of(r: Relation, diagram: GraphDiagram, pseudo: dict[str, str]) -> str | None:
    """Where a relation must be written: inside the scope of a pseudo-state it touches."""
    for end in (r.source, r.target):
        if end in pseudo:
            entity = diagram.entity(end)
            if entity is not None:
                return entity.parent
    return None


def _region(r: Relation, pseudo: dict[str, str]) -> int:
    """The concurrent region of a relation's pseudo-state (`S/2[*]start` → 2)."""
    for end in (r.source, r.target):
        m = re.search(r"/(\d+)\[\*\]", end) if end in pseudo else None
        if m:
            return int(m.group(1))
    return 0


def structure(diagram: GraphDiagram) -> tuple[object, ...]:
    """What a round trip keeps: entities (id, kind), relations (ends, type, direction),
    clusters (id, kind, parent, members), notes (text, targets), counts."""
    return (
        diagram.counts(),
        sorted((e.id, e.kind, e.parent or "") for e in diagram.entities),
        sorted((r.source, r.target, r.type, r.direction) for r in diagram.relations),
        sorted((c.id, c.kind, c.parent or "", tuple(sorted(c.members)))
               for c in diagram.clusters),
        sorted((n.text, n.targets) for n in diagram.notes),
    )
