"""DBML: read by the reference parser @dbml/core into the graph model, write back.

`read_dbml(text)` never raises. @dbml/core (`languages.dbml.core`, one warm Node
process) reads the source, every statement of DBML v2 included (records, checks,
table partials and their injections, referential actions, array types, …); its model
becomes the graph model: tables are `table` entities whose attributes are the
columns (type, and the flags pk, uk, not_null, increment, plus fk for a column a
reference starts from), injected partial columns included; every reference, inline
(`[ref: > t.c]`) or named (`Ref name: a.x > b.y`, composite ones included), is one
`non_identifying` relation from its many end to its one end (`>` and `<`: "*" and
"1"; `<>`: "*" both, `-`: "1" both, from the end written first) with the columns as
ports; table groups are `table_group` clusters; sticky notes (`Note name { … }`) are
notes. Enums and records draw nothing counted. A source @dbml/core refuses gives its
diagnostics, each with line and column, and an empty diagram.
"""

from __future__ import annotations

import re
from typing import Any

from diagbench.diagram.graph import (
    Cluster,
    Entity,
    GraphDiagram,
    Member,
    MemberFlag,
    Note,
    Relation,
)
from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.parsed import Parsed
from diagbench.languages.dbml.core import CoreAnswer, shared


def read_dbml(text: str) -> list[Parsed[GraphDiagram]]:
    """The ER diagram of a DBML source, with @dbml/core's diagnostics."""
    text = text.removeprefix("\ufeff")
    if not text.strip():
        return [_parsed(GraphDiagram("dbml", "er"), [Diagnostic(1, "", "empty source")])]
    return [diagram_of(text, shared().read(text))]


def diagram_of(text: str, answer: CoreAnswer) -> Parsed[GraphDiagram]:
    """The parsed diagram of `text` from @dbml/core's `answer` for it."""
    if answer.model is None:
        lines = text.splitlines()
        return _parsed(GraphDiagram("dbml", "er"), [
            Diagnostic(d.line or 1, lines[d.line - 1] if 0 < d.line <= len(lines) else "",
                       f"DBML not read: {d.message}", column=d.column)
            for d in answer.diagnostics])
    return _parsed(_diagram(answer.model), [])


def _parsed(diagram: GraphDiagram, diagnostics: list[Diagnostic]) -> Parsed[GraphDiagram]:
    return Parsed(0, 1, "dbml", "er", diagram, tuple(diagnostics))


def table_id(schema: str, name: str) -> str:
    """A table's entity id: its name, qualified by its schema unless that is `public`."""
    return name if schema in ("public", "", None) else f"{schema}.{name}"


def _relation(ref: dict[str, Any]) -> Relation:
    """A reference as a relation from its many end (see the module docstring)."""
    first, second = ref["ends"]
    reverse = (first["relation"], second["relation"]) == ("1", "*")
    src, dst = (second, first) if reverse else (first, second)
    return Relation(
        table_id(src["schema"], src["table"]), table_id(dst["schema"], dst["table"]),
        "non_identifying", "none", ref["name"] or "", source_cardinality=src["relation"],
        target_cardinality=dst["relation"], source_port=",".join(src["columns"]),
        target_port=",".join(dst["columns"]), reversed=reverse, line=ref["line"])


def _diagram(model: dict[str, Any]) -> GraphDiagram:
    relations = tuple(_relation(ref) for ref in model["refs"] if len(ref["ends"]) == 2)
    fk = {(r.source, c) for r in relations for c in r.source_port.split(",")}
    clusters = tuple(Cluster(g["name"], g["name"], "table_group",
                             members=tuple(table_id(*t) for t in g["tables"]), line=g["line"])
                     for g in model["groups"])
    entities = []
    for table in model["tables"]:
        tid = table_id(table["schema"], table["name"])
        columns = []
        for column in table["columns"]:
            checks: tuple[tuple[MemberFlag, bool], ...] = (
                ("pk", column["pk"]), ("fk", (tid, column["name"]) in fk),
                ("uk", column["unique"]), ("not_null", column["not_null"]),
                ("increment", column["increment"]))
            columns.append(Member(column["name"], column["type"],
                                  flags=tuple(flag for flag, on in checks if on),
                                  default=_default(column["default"]),
                                  note=column["note"] or ""))
        entities.append(Entity(tid, table["alias"] or "", "table", attributes=tuple(columns),
                               description=table["note"] or "", parent=table["group"],
                               line=table["line"]))
    notes = tuple(Note(n["content"] or "", id=n["name"], line=n["line"])
                  for n in model["notes"])
    return GraphDiagram("dbml", "er", tuple(entities), relations, clusters, notes)


def _default(value: dict[str, str] | None) -> str:
    """A column default as DBML writes it: `expression`, 'string', number or keyword."""
    if value is None:
        return ""
    if value["type"] == "expression":
        return f"`{value['value']}`"
    return _text(value["value"]) if value["type"] == "string" else value["value"]



def _name(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z_]\w*", name) else '"' + name.replace('"', '\\"') + '"'


def _qualified(tid: str) -> str:
    return ".".join(_name(p) for p in tid.split(".", 1)) if "." in tid else _name(tid)


def _text(text: str) -> str:
    return "'''" + text.replace("'''", "\\'''") + "'''" if "\n" in text else \
        "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def write_dbml(diagram: GraphDiagram) -> str:
    """The DBML source of `diagram`: tables with their columns, one `Ref` per relation,
    table groups, sticky notes."""
    out = []
    for e in diagram.entities:
        alias = f" as {_name(e.name)}" if e.name and e.name != e.id else ""
        out.append(f"Table {_qualified(e.id)}{alias} {{")
        for col in e.attributes:
            settings = [s for s, on in (("pk", "pk" in col.flags), ("unique", "uk" in col.flags),
                                        ("not null", "not_null" in col.flags),
                                        ("increment", "increment" in col.flags)) if on]
            if col.default:
                settings.append(f"default: {col.default}")
            if col.note:
                settings.append(f"note: {_text(col.note)}")
            type_ = col.type if re.fullmatch(r"[\w.]+(?:\([^)\s]*\))?(?:\[\])*", col.type or "x") \
                else f'"{col.type}"'
            out.append(f"  {_name(col.name)} {type_ or 'unknown'}"
                       + (f" [{', '.join(settings)}]" if settings else ""))
        if e.description:
            out.append(f"  Note: {_text(e.description)}")
        out.append("}")
    for r in diagram.relations:
        op = {("*", "1"): ">", ("1", "1"): "-", ("*", "*"): "<>", ("1", "*"): "<"}.get(
            (r.source_cardinality, r.target_cardinality), ">")
        src_cols, dst_cols = r.source_port.split(","), r.target_port.split(",")
        if r.reversed and op == ">":
            left, right, op = (r.target, dst_cols), (r.source, src_cols), "<"
        else:
            left, right = (r.source, src_cols), (r.target, dst_cols)

        def end(side: tuple[str, list[str]]) -> str:
            table, cols = side
            names = [_name(c) for c in cols]
            return f"{_qualified(table)}." + (names[0] if len(names) == 1
                                               else "(" + ", ".join(names) + ")")

        name = f" {_name(r.label)}" if r.label else ""
        out.append(f"Ref{name}: {end(left)} {op} {end(right)}")
    for group in diagram.clusters:
        out.append(f"TableGroup {_name(group.id)} {{")
        out.extend(f"  {_qualified(m)}" for m in group.members)
        out.append("}")
    for n, note in enumerate(diagram.notes):
        out.append(f"Note {_name(note.id or f'note_{n}')} {{")
        out.append(f"  {_text(note.text)}")
        out.append("}")
    return "\n".join(out) + "\n"
