"""PlantUML class diagrams: write a `ClassDiagram`, and read one back.

The writer puts each relation on one line with a chosen class first: Graphviz
places the first class of an edge above the second, so two diagrams that
differ only in a relation's direction keep the same layout when the same
class is written first (`Dog --|> Animal` and `Dog <|-- Animal`). The reader
turns any arrow form back into the relation it means (see
`diagbench.diagram.classes`); it understands declarations (`class`,
`interface`, `abstract class`, `enum`, quoted names with `as`, stereotypes,
member bodies) and relation lines with multiplicities, direction hints,
colours and labels.
"""

from __future__ import annotations

import re

from diagbench.diagram.classes import ClassDiagram, Relation, UmlClass
from diagbench.formats.plantuml.blocks import split_blocks

_IDENTIFIER = re.compile(r"^[A-Za-z_][\w]*$")
_KEYWORDS = {"class": "class", "interface": "interface", "abstract class": "abstract",
             "abstract": "abstract", "enum": "enum"}
#: (kind, written with the source first) → arrow, for `FIRST arrow SECOND`.
_ARROWS = {
    ("inheritance", True): "--|>", ("inheritance", False): "<|--",
    ("realization", True): "..|>", ("realization", False): "<|..",
    ("composition", True): "*--", ("composition", False): "--*",
    ("aggregation", True): "o--", ("aggregation", False): "--o",
    ("dependency", True): "..>", ("dependency", False): "<..",
    ("association", True): "--", ("association", False): "--",
}
_NAME = r'(?:"[^"]+"|[\w.$]+)'
_DECLARATION = re.compile(
    rf"^\s*(?P<kw>abstract\s+class|abstract|class|interface|enum)\s+(?P<name>{_NAME})"
    r"(?:\s+as\s+(?P<alias>[\w.$]+))?(?P<stereo>(?:\s*<<[^>]*>>)*)\s*(?P<body>\{)?\s*$")
_RELATION = re.compile(
    rf"^\s*(?P<a>{_NAME})\s*(?:\"[^\"]*\"\s*)?"
    r"(?P<left><\||\*|o|<|\+|#)?(?P<line>[-.]+(?:\[[^\]]*\])?(?:(?:up|down|left|right|u|d|l|r)"
    r"[-.]+)?)(?P<right>\|>|\*|o|>|\+|#)?"
    rf"\s*(?:\"[^\"]*\"\s*)?(?P<b>{_NAME})\s*(?::\s*(?P<label>.*))?$")


def _shown(name: str) -> str:
    return name if _IDENTIFIER.match(name) else f'"{name}"'


def write_class_diagram(diagram: ClassDiagram, first: dict[frozenset[str], str] | None = None
                        ) -> str:
    """PlantUML for `diagram`; `first[{a, b}]` names the class written first on the line
    of the relation between a and b (default: the relation's source)."""
    lines = ["@startuml", "hide empty members"]
    if diagram.title:
        lines.append(f"title {diagram.title}")
    for cls in diagram.classes:
        keyword = "abstract class" if cls.kind == "abstract" else cls.kind
        stereo = "".join(f" <<{s}>>" for s in cls.stereotypes)
        members = [*cls.attributes, *cls.methods]
        lines.append(f"{keyword} {_shown(cls.name)}{stereo}" + (" {" if members else ""))
        if members:
            lines += [f"  {m}" for m in members] + ["}"]
    for rel in diagram.relations:
        top = (first or {}).get(frozenset((rel.source, rel.target)), rel.source)
        source_first = top == rel.source
        arrow = _ARROWS[rel.kind, source_first]
        if rel.kind == "association" and rel.navigable:
            arrow = "-->" if source_first else "<--"
        a, b = (rel.source, rel.target) if source_first else (rel.target, rel.source)
        lines.append(f"{_shown(a)} {arrow} {_shown(b)}" + (f" : {rel.label}" if rel.label
                                                             else ""))
    lines.append("@enduml")
    return "\n".join(lines) + "\n"


def _relation(a: str, b: str, left: str, dotted: bool, right: str, label: str) -> Relation:
    """The relation meant by `a LEFT line RIGHT b`."""
    if right == "|>":
        return Relation("realization" if dotted else "inheritance", a, b, label=label)
    if left == "<|":
        return Relation("realization" if dotted else "inheritance", b, a, label=label)
    for deco, kind in (("*", "composition"), ("o", "aggregation")):
        if left == deco:
            return Relation(kind, a, b, label=label)
        if right == deco:
            return Relation(kind, b, a, label=label)
    if right == ">":
        return Relation("dependency", a, b, label=label) if dotted else \
            Relation("association", a, b, navigable=True, label=label)
    if left == "<":
        return Relation("dependency", b, a, label=label) if dotted else \
            Relation("association", b, a, navigable=True, label=label)
    return Relation("association", a, b, label=label)


def parse_class_diagram(text: str) -> ClassDiagram:
    """The classes and relations of the first diagram in `text` (lines it does not
    understand are skipped)."""
    blocks = split_blocks(text)
    diagram = ClassDiagram()
    if not blocks:
        return diagram
    aliases: dict[str, str] = {}
    declared: dict[str, UmlClass] = {}
    in_body = False
    for line in blocks[0].lines:
        stripped = line.strip()
        if in_body:
            in_body = stripped != "}"
            continue
        if stripped.startswith("title "):
            diagram.title = stripped[6:].strip()
            continue
        m = _DECLARATION.match(line)
        if m:
            name = m.group("name").strip('"')
            aliases[m.group("alias") or name] = name
            stereotypes = tuple(re.findall(r"<<([^>]*)>>", m.group("stereo") or ""))
            declared[name] = UmlClass(name, _KEYWORDS[" ".join(m.group("kw").split())],
                                      stereotypes=stereotypes)
            in_body = bool(m.group("body"))
            continue
        m = _RELATION.match(line)
        if m:
            a, b = (aliases.get(m.group(k).strip('"'), m.group(k).strip('"')) for k in "ab")
            for name in (a, b):
                declared.setdefault(name, UmlClass(name))
            dotted = "." in m.group("line")
            diagram.relations.append(_relation(a, b, m.group("left") or "", dotted,
                                               m.group("right") or "",
                                               (m.group("label") or "").strip()))
    diagram.classes = list(declared.values())
    return diagram
