"""Write a graph model as Mermaid: flowchart, classDiagram, erDiagram or stateDiagram-v2.

`write_mermaid(diagram)` gives a script whose reading (`read_mermaid`) is the same model
for what the readers produce: for flowchart, class and ER diagrams the very same
(`read(write(d)) == d` for a `d` that was read), for state diagrams the same elements
up to their order (states are declared scope by scope, so their order may change).
Texts are written as given: a label holding a character Mermaid gives a meaning to in
that place (`"` in a quoted label, `|` in a link text, `}` in a member) cannot be
written faithfully.

The layout of the script:
- flowchart: every node with its shape and label, then the subgraphs (outer first)
  naming their members, then the links;
- class: every class with its label, annotations and members, then the namespaces
  naming their classes, then the relations (a lollipop's interface by its label),
  then the notes;
- ER: every entity with its alias and attributes, then the subgraphs, then the
  relationships (cardinalities as crow's feet);
- state: each scope's states, composite states and (for a concurrent state) regions
  separated by `--`, the scope's `[*]` transitions at its end, the other
  transitions and the notes at the end.
"""

from __future__ import annotations

import re

from diagbench.diagram.graph import Cluster, Entity, GraphDiagram, Head, Member, Relation
from diagbench.formats.mermaid.flowchart import SHAPES

_CLOSING = {opening: closing for opening, closing, _ in reversed(SHAPES)}
_FLOW_HEADS_L: dict[Head, str] = {"arrow": "<", "circle": "o", "cross": "x", "none": ""}
_FLOW_HEADS_R: dict[Head, str] = {"arrow": ">", "circle": "o", "cross": "x", "none": ""}
_CLASS_HEADS_L: dict[Head, str] = {"triangle": "<|", "filled_diamond": "*", "diamond": "o",
                                   "arrow": "<", "circle": "()", "none": ""}
_CLASS_HEADS_R: dict[Head, str] = {"triangle": "|>", "filled_diamond": "*", "diamond": "o",
                                   "arrow": ">", "circle": "()", "none": ""}
_ER_LEFT = {"1": "||", "0..1": "|o", "1..*": "}|", "0..*": "}o"}
_ER_RIGHT = {"1": "||", "0..1": "o|", "1..*": "|{", "0..*": "o{"}


def write_mermaid(diagram: GraphDiagram) -> str:
    """The Mermaid script of `diagram` (its `kind` chooses the diagram type: "class",
    "er", "state", anything else a flowchart)."""
    writer = {"class": _class, "er": _er, "state": _state}.get(diagram.kind, _flowchart)
    return "\n".join(writer(diagram)) + "\n"


def _quoted(text: str) -> str:
    return '"' + text.replace('"', "#quot;") + '"'


def _nested(diagram: GraphDiagram, parent: str | None) -> list[Cluster]:
    return [c for c in diagram.clusters if c.parent == parent]


# flowchart -----------------------------------------------------------------------------

def _node(e: Entity) -> str:
    if e.shape and e.shape not in _CLOSING:  # an @{ shape: … } node
        label = f", label: {_quoted(e.name)}" if e.name else ""
        return f"{e.id}@{{ shape: {e.shape}{label} }}"
    if not e.shape and e.kind == "process":  # a bare id, or an @{ label: … } node
        return f"{e.id}@{{ label: {_quoted(e.name)} }}" if e.name else e.id
    opening = e.shape or {"decision": "{", "database": "[(", "terminal": "([",
                          "subroutine": "[[", "hexagon": "{{", "io": "[/",
                          "end": "((("}.get(e.kind, "[")
    return f"{e.id}{opening}{_quoted(e.name)}{_CLOSING[opening]}"


def _flow_link(r: Relation) -> str:
    left, right = _FLOW_HEADS_L[r.source_head], _FLOW_HEADS_R[r.target_head]
    line = {"dotted": ("-.-", "-.-"), "bold": ("===", "==")}.get(r.style, ("---", "--"))
    body = f"{left}{line[1] + right if right else line[0]}"
    text = f"|{r.label}|" if r.label else ""
    return f"    {r.source} {body}{text} {r.target}"


def _flowchart(d: GraphDiagram) -> list[str]:
    lines = ["flowchart" + (f" {d.direction}" if d.direction else "")]
    lines += [f"    {_node(e)}" for e in d.entities]

    def block(c: Cluster, indent: str) -> None:
        title = f" [{_quoted(c.name)}]" if c.name else ""
        lines.append(f"{indent}subgraph {c.id}{title}")
        for member in c.members:
            lines.append(f"{indent}    {member}")
        for inner in _nested(d, c.id):
            block(inner, indent + "    ")
        lines.append(f"{indent}end")

    for c in _nested(d, None):
        block(c, "    ")
    lines += [_flow_link(r) for r in d.relations]
    return lines


# class ---------------------------------------------------------------------------------

def _member_text(m: Member) -> str:
    if m.text:
        return m.text
    if m.is_method:
        return f"{m.visibility}{m.name}({m.parameters}){' ' + m.type if m.type else ''}"
    return f"{m.visibility}{m.type + ' ' if m.type else ''}{m.name}"


def _class_id(ident: str) -> str:
    return ident if re.fullmatch(r"[\w.$-]+", ident) else f"`{ident}`"


def _class(d: GraphDiagram) -> list[str]:
    lines = ["classDiagram"]
    if any(c.parent is None and "." in c.id for c in d.clusters):
        # dotted namespaces drawn unnested: Mermaid's hierarchicalNamespaces is off
        lines = ["---", "config:", "  class:", "    hierarchicalNamespaces: false", "---",
                 *lines]
    interfaces = {e.id: e for e in d.entities if e.kind == "circle" and e.shape == "()"}
    for e in d.entities:
        if e.id in interfaces:
            continue
        label = f'["{e.name}"]' if e.name else ""
        body = [f"<<{s}>>" for s in e.stereotypes]
        body += [_member_text(m) for m in (*e.attributes, *e.methods)]
        if body:
            lines.append(f"    class {_class_id(e.id)}{label} {{")
            lines += [f"        {b}" for b in body]
            lines.append("    }")
        else:
            lines.append(f"    class {_class_id(e.id)}{label}")

    # each namespace by its qualified id, in the model's order (a dotted id declares its
    # prefixes too, so a namespace holding only namespaces needs no block of its own)
    for c in d.clusters:
        if not c.members and any(x.parent == c.id for x in d.clusters):
            continue
        segment = c.id.rsplit(".", 1)[-1]
        title = f'["{c.name}"]' if c.name and c.name != segment else ""
        lines.append(f"    namespace {c.id}{title} {{")
        lines += [f"        class {_class_id(member)}" for member in c.members]
        lines.append("    }")
    for r in d.relations:
        a, b = (r.target, r.source) if r.reversed else (r.source, r.target)
        ha, hb = (r.target_head, r.source_head) if r.reversed else (r.source_head, r.target_head)
        ca, cb = ((r.target_cardinality, r.source_cardinality) if r.reversed
                  else (r.source_cardinality, r.target_cardinality))
        a = _class_id(interfaces[a].name if a in interfaces else a)
        b = _class_id(interfaces[b].name if b in interfaces else b)
        line = ".." if r.style == "dashed" else "--"
        link = f"{_CLASS_HEADS_L[ha]}{line}{_CLASS_HEADS_R[hb]}"
        ca = f' "{ca}"' if ca else ""
        cb = f'"{cb}" ' if cb else ""
        label = f" : {r.label}" if r.label else ""
        lines.append(f"    {a}{ca} {link} {cb}{b}{label}")
    for n in d.notes:
        target = f"for {_class_id(n.targets[0])} " if n.targets else ""
        lines.append(f'    note {target}"{n.text}"')
    return lines


# ER ------------------------------------------------------------------------------------

def _attribute(m: Member) -> str:
    if m.text:
        return m.text
    keys = ", ".join(f.upper() for f in m.flags if f in ("pk", "fk", "uk"))
    note = f" {_quoted(m.note)}" if m.note else ""
    return f"{m.type or 'string'} {m.name}{' ' + keys if keys else ''}{note}"


def _er_id(ident: str) -> str:
    return ident if re.fullmatch(r"[\w$*-]+", ident) else _quoted(ident)


def _er(d: GraphDiagram) -> list[str]:
    lines = ["erDiagram"]
    for e in d.entities:
        alias = f'["{e.name}"]' if e.name else ""
        if e.attributes:
            lines.append(f"    {_er_id(e.id)}{alias} {{")
            lines += [f"        {_attribute(m)}" for m in e.attributes]
            lines.append("    }")
        else:
            lines.append(f"    {_er_id(e.id)}{alias}")

    def block(c: Cluster, indent: str) -> None:
        title = f" [{_quoted(c.name)}]" if c.name else ""
        lines.append(f"{indent}subgraph {c.id}{title}")
        for inner in _nested(d, c.id):
            block(inner, indent + "    ")
        for member in c.members:
            lines.append(f"{indent}    {_er_id(member)}")
        lines.append(f"{indent}end")

    for c in _nested(d, None):
        block(c, "    ")
    for r in d.relations:
        body = "--" if r.style == "solid" else ".."
        left = _ER_LEFT.get(r.source_cardinality, "||")
        right = _ER_RIGHT.get(r.target_cardinality, "||")
        lines.append(f"    {_er_id(r.source)} {left}{body}{right} {_er_id(r.target)} : "
                     f"{_quoted(r.label) if not r.label or ' ' in r.label else r.label}")
    return lines


# state ---------------------------------------------------------------------------------

def _state(d: GraphDiagram) -> list[str]:
    lines = ["stateDiagram-v2"]
    pseudo = {e.id: e for e in d.entities if e.kind in ("start", "end")}
    written: set[int] = set()

    def scope(owner: str | None, indent: str) -> None:
        for e in d.entities:
            if e.parent != owner or e.id in pseudo:
                continue
            if e.kind in ("fork", "join", "choice"):
                lines.append(f"{indent}state {e.id} <<{e.kind}>>")
            elif e.name:
                lines.append(f'{indent}state "{e.name}" as {e.id}')
            else:
                lines.append(f"{indent}{e.id}")
            for text in e.description.split("\n") if e.description else ():
                lines.append(f"{indent}{e.id} : {text}")
        for c in _nested(d, owner):
            if c.kind == "region":
                continue
            name = f'"{c.name}" as ' if c.name else ""
            lines.append(f"{indent}state {name}{c.id} {{")
            regions = [r for r in _nested(d, c.id) if r.kind == "region"]
            if regions:
                for k, region in enumerate(regions):
                    if k:
                        lines.append(f"{indent}    --")
                    scope(region.id, indent + "    ")
            else:
                scope(c.id, indent + "    ")
            lines.append(f"{indent}}}")
        for k, r in enumerate(d.relations):  # this scope's [*] transitions
            ends = [pseudo[x] for x in (r.source, r.target) if x in pseudo]
            if k not in written and ends and ends[0].parent == owner:
                written.add(k)
                lines.append(f"{indent}{_transition(r, pseudo)}")

    scope(None, "    ")
    lines += [f"    {_transition(r, pseudo)}" for k, r in enumerate(d.relations)
              if k not in written]
    for n in d.notes:
        if not n.targets:
            continue
        where = n.position if n.position in ("left", "right") else "right"
        if "\n" in n.text:
            lines.append(f"    note {where} of {n.targets[0]}")
            lines += [f"        {t}" for t in n.text.split("\n")]
            lines.append("    end note")
        else:
            lines.append(f"    note {where} of {n.targets[0]} : {n.text}")
    return lines


def _transition(r: Relation, pseudo: dict[str, Entity]) -> str:
    a = "[*]" if r.source in pseudo else r.source
    b = "[*]" if r.target in pseudo else r.target
    return f"{a} --> {b}" + (f" : {r.label}" if r.label else "")


__all__ = ["write_mermaid"]
