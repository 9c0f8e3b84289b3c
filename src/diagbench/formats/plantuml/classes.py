"""PlantUML class diagrams: write a `ClassDiagram`, and the class statements the graph
reader (`plantuml.graph`) reads.

The writer puts each relation on one line with a chosen class first: Graphviz
places the first class of an edge above the second, so two diagrams that
differ only in a relation's direction keep the same layout when the same
class is written first (`Dog --|> Animal` and `Dog <|-- Animal`). The
statements read declarations (`class`, `interface`, `abstract class`, `enum`,
quoted names with `as`, stereotypes, member bodies); `plantuml.graph` reads
the relation lines, and `ClassDiagram.from_graph` gives the class view.
"""

from __future__ import annotations

import re

from diagbench.diagram.classes import ClassDiagram
from diagbench.diagram.graph import Member, MemberFlag, Visibility
from diagbench.diagram.graph import Relation as GraphRelation
from diagbench.formats.plantuml.er import parse_column
from diagbench.formats.plantuml.graph_builder import GraphBuilder, stereotypes_of, unquote

_IDENTIFIER = re.compile(r"^[A-Za-z_][\w]*$")
#: (kind, written with the source first) → arrow, for `FIRST arrow SECOND`.
_ARROWS = {
    ("inheritance", True): "--|>", ("inheritance", False): "<|--",
    ("realization", True): "..|>", ("realization", False): "<|..",
    ("composition", True): "*--", ("composition", False): "--*",
    ("aggregation", True): "o--", ("aggregation", False): "--o",
    ("dependency", True): "..>", ("dependency", False): "<..",
    ("association", True): "--", ("association", False): "--",
}


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


# ---------------------------------------------------------------------------- graph reader
# Statements of class, object and ER (`entity`) diagrams for `plantuml.graph`: declarations
# with their member bodies, `A : member` lines, `map`/`json` objects.

_GRAPH_KINDS: dict[str, str] = {
    "abstract class": "abstract", "abstract": "abstract", "class": "class",
    "interface": "interface", "enum": "enum", "annotation": "annotation", "struct": "struct",
    "record": "record", "exception": "exception", "protocol": "protocol",
    "metaclass": "metaclass", "stereotype": "stereotype", "dataclass": "class",
    "entity": "table", "object": "object", "map": "map", "json": "json",
    "circle": "circle", "diamond": "diamond",
}
_GRAPH_DECLARATION = re.compile(
    r"^(?P<kw>abstract\s+class|abstract|class|interface|enum|annotation|struct|record|"
    r"exception|protocol|metaclass|stereotype|dataclass|entity|object|map|json|circle|diamond)"
    r'\s+(?P<name>"[^"]*"|[^\s{<"#]+)(?P<generic1>\s*<(?!<)(?:[^<>]|<<?[^<>]*>>?)*>)?'
    r'(?:\s+as\s+(?P<alias>"[^"]*"|[^\s{<#]+))?(?P<generic>\s*<(?!<)(?:[^<>]|<<?[^<>]*>>?)*>)?'
    r"\s*(?P<stereo>(?:<<(?:[^<>]|<[^<>]*>|<<[^<>]*>>)*>>\s*)*)(?:#[\w#:;.]+\s*)?(?:\[\[[^\]]*\]\]\s*)?"
    r"(?:extends\s+(?P<ext>[^{]+?)\s*)?(?:implements\s+(?P<impl>[^{]+?)\s*)?"
    r"(?P<body>\{.*)?$", re.I)
_MEMBER_LINE = re.compile(r'^(?P<name>"[^"]+"|[\w.$]+)\s*:\s*(?P<member>.*)$')
_DIAMOND = re.compile(r"^<>\s+(?P<name>[\w.]+)\s*$")
_SEPARATOR = re.compile(r"^(?:--|\.\.|==|__)(?:.*(?:--|\.\.|==|__))?$")
_METHOD = re.compile(
    r"^(?P<pre>.*?)(?P<name>[\w$.~<>\[\]]+)\s*\((?P<params>.*)\)\s*(?::\s*(?P<type>.*))?$")


def parse_member(text: str, number: int = 0) -> Member:
    """One member line: visibility, {static}/{abstract}, name, type, parameters."""
    raw = text.strip()
    flags: list[MemberFlag] = []
    rest = raw
    for marker, flag in (("{static}", "static"), ("{classifier}", "static"),
                         ("{abstract}", "abstract")):
        if marker in rest:
            flags.append(flag)  # type: ignore[arg-type]
            rest = rest.replace(marker, "").strip()
    visibility: Visibility = ""
    if rest[:1] in ("+", "-", "#", "~") and len(rest) > 1:
        visibility = rest[0]  # type: ignore[assignment]
        rest = rest[1:].strip()
    method = _METHOD.match(rest)
    if method:
        pre = method.group("pre").strip()
        return Member(method.group("name"), (method.group("type") or pre).strip(), visibility,
                      tuple(flags), method.group("params"), text=raw, line=number)
    if ":" in rest:
        name, _, type_ = rest.partition(":")
        return Member(name.strip(), type_.strip(), visibility, tuple(flags), text=raw,
                      line=number)
    words = rest.rsplit(None, 1)
    if len(words) == 2:
        return Member(words[1], words[0], visibility, tuple(flags), text=raw, line=number)
    return Member(rest, "", visibility, tuple(flags), text=raw, line=number)


def _body(builder: GraphBuilder, eid: str, kind: str, first: str, lines: list[str], i: int,
          number: int) -> int:
    """Read a `{ … }` member body starting on line i (`first` is the text after `{`)."""
    target = builder.entities[eid]

    def add(member_text: str, at: int) -> None:
        member_text = member_text.strip()
        if not member_text or member_text.startswith("'") or _SEPARATOR.match(member_text):
            return
        if kind == "table":
            target.attributes.append(parse_column(member_text, at))
            return
        if kind == "map" and "=>" in member_text:
            key, _, value = member_text.partition("=>")
            target.attributes.append(Member(key.strip(), "", default=value.strip(),
                                            text=member_text, line=at))
            return
        if kind == "enum":
            target.attributes.append(Member(member_text.rstrip(",;"), text=member_text,
                                            line=at))
            return
        member = parse_member(member_text, at)
        (target.methods if member.is_method else target.attributes).append(member)

    first = first[1:]  # drop "{"
    if kind == "json":
        depth = 1 + first.count("{") - first.count("}")
        j = i
        while depth > 0 and j + 1 < len(lines):
            j += 1
            depth += lines[j].count("{") - lines[j].count("}")
        if depth > 0:
            builder.error(number, lines[i], "json body never closed")
        return j
    if "}" in first:
        inner = first[:first.rindex("}")]
        for part in inner.split(";") if kind != "table" else [inner]:
            add(part, number)
        return i
    add(first, number)
    j = i + 1
    while j < len(lines):
        stripped = lines[j].strip()
        if stripped == "}" or (stripped.startswith("}") and not stripped.startswith("}|")):
            return j
        add(stripped, number + (j - i))
        j += 1
    builder.error(number, lines[i], "member body never closed (no '}')")
    return len(lines) - 1


def statement(builder: GraphBuilder, line: str, number: int, lines: list[str],
              i: int) -> int | None:
    """A class/object/ER statement, or None."""
    m = _GRAPH_DECLARATION.match(line)
    if m and not (m.group("kw").lower() == "entity" and builder.family not in
                  ("class", "object", "er")):
        kw = " ".join(m.group("kw").lower().split())
        if kw in ("circle", "diamond") and builder.family not in ("class", "object", "er"):
            return None
        kind = _GRAPH_KINDS[kw]
        raw_name = m.group("name")
        name = unquote(raw_name)
        alias = unquote(m.group("alias")) if m.group("alias") else None
        if alias and m.group("alias").startswith('"') and not raw_name.startswith('"'):
            name, alias = alias, name
        generic = m.group("generic1") or m.group("generic") or ""
        display = name + (generic.strip() if generic and not alias else "")
        eid = builder.entity(name, display, kind, kw, number,  # type: ignore[arg-type]
                             stereotypes=stereotypes_of(m.group("stereo") or ""), alias=alias)
        for group, rel in (("ext", "inheritance"), ("impl", "realization")):
            for parent in (m.group(group) or "").split(","):
                parent = parent.strip()
                if parent:  # named as a declaration names (in the current package)
                    pid = builder.entity(unquote(parent), None, None, "", number,
                                         declared=False, reuse=False)
                    builder.relation(GraphRelation(eid, pid, rel, "single",  # type: ignore[arg-type]
                                              target_head="triangle",
                                              style="dashed" if rel == "realization" else "solid"),
                                     number)
        body = m.group("body")
        if body:
            return _body(builder, eid, kind, body.strip(), lines, i, number)
        return i
    m = _DIAMOND.match(line)
    if m and builder.family in ("class", "object"):
        builder.entity(m.group("name"), m.group("name"), "diamond", "<>", number)
        return i
    m = _MEMBER_LINE.match(line)
    if m and builder.family in ("class", "object", "er"):
        eid = builder.entity(unquote(m.group("name")), None, None, "", number, declared=False)
        member_text = m.group("member")
        if builder.entities[eid].kind == "table":
            builder.entities[eid].attributes.append(parse_column(member_text, number))
        else:
            member = parse_member(member_text, number)
            target = builder.entities[eid]
            (target.methods if member.is_method else target.attributes).append(member)
        return i
    return None
