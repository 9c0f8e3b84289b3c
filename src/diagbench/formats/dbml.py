"""DBML: read with pydbml into the graph model, write back.

`read_dbml(text)` never raises. Tables are `table` entities whose attributes are the
columns (type, and the flags pk, uk, not_null, increment, plus fk for a column a
reference starts from); every reference, inline (`[ref: > t.c]`) or named
(`Ref name: a.x > b.y`, composite ones included), is one `non_identifying` relation
from the referencing table to the referenced one with the cardinalities of each end
(`>` many-to-one: "*" and "1"; `<>`: "*" both; `-`: "1" both) and the columns as
ports; table groups are `table_group` clusters; sticky notes (`Note name { … }`) are
notes. That is what the reference parser `@dbml/core` counts (tables, refs, table
groups, notes), checked on every real DBML file.

pydbml (1.2) predates some DBML v2 statements: `Records` blocks, `Checks` blocks,
`check:` column settings, `TablePartial` definitions and their `~partial`
injections, table group settings, and some index types. They draw nothing the counts
need: they are blanked out (line numbers kept) with a warning each, and the rest is
read. What pydbml still cannot read is one error diagnostic with its line.
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

_BLOCK_START = re.compile(r"^\s*(?:Records\b[^{\n]*|Checks\s*|TablePartial\s+[^{\n]*)\{\s*$", re.I)
_CHECK_SETTING = re.compile(r",?\s*check:\s*`[^`\n]*`\s*,?", re.I)
_PARTIAL_INJECTION = re.compile(r"^\s*~\s*[\w.\"]+\s*$")
_GROUP_SETTINGS = re.compile(r"^(\s*TableGroup\s+[^\[{\n]*?)\s*\[[^\]\n]*\]\s*\{", re.I)
_REF_SETTINGS = re.compile(r"^(\s*Ref\b[^\[{\n]*?)\s*\[[^\]\n]*\]\s*$", re.I)
_INDEX_TYPE = re.compile(
    r"\btype:\s*(?!btree\b|hash\b|gin\b|gist\b|brin\b|spgist\b)\w+\s*,?\s*", re.I)
_REL = {">": ("*", "1"), "<": ("1", "*"), "-": ("1", "1"), "<>": ("*", "*")}


def _blank(text: str) -> tuple[str, list[Diagnostic]]:
    """`text` without the statements pydbml does not know (see the module docstring)."""
    lines = text.split("\n")
    notes: list[Diagnostic] = []
    k = 0
    while k < len(lines):
        line = lines[k]
        if _BLOCK_START.match(line):
            depth, start = 0, k
            while k < len(lines):
                depth += lines[k].count("{") - lines[k].count("}")
                lines[k] = ""
                if depth <= 0:
                    break
                k += 1
            notes.append(Diagnostic(start + 1, text.split("\n")[start],
                                    "ignored: draws nothing counted (records, checks or a "
                                    "table partial)", "warning"))
        elif _PARTIAL_INJECTION.match(line):
            lines[k] = ""
            notes.append(Diagnostic(k + 1, line, "ignored: table partial injection", "warning"))
        else:
            new = _REF_SETTINGS.sub(r"\1", _GROUP_SETTINGS.sub(r"\1 {", line))
            if "[" in new:
                fixed = _CHECK_SETTING.sub(",", new)
                fixed = re.sub(r"\[\s*,+\s*", "[", re.sub(r"\s*,+\s*\]", "]", fixed))
                fixed = re.sub(r",\s*,", ",", fixed).replace(" []", "")
                new = _INDEX_TYPE.sub("", fixed) if "type:" in fixed else fixed
                new = new.replace(" []", "").replace(", ]", "]")
            if new != line:
                notes.append(Diagnostic(k + 1, line, "ignored: a setting pydbml does not know",
                                        "warning"))
                lines[k] = new
        k += 1
    return "\n".join(lines), notes


#: The largest DBML source read: pydbml (pyparsing) reads a few hundred lines a second, so
#: a bigger one would keep `diagbench parse` busy for minutes; it gets one diagnostic.
MAX_CHARS = 1_000_000


def read_dbml(text: str) -> list[Parsed[GraphDiagram]]:
    """The ER diagram of a DBML source, with diagnostics."""
    from pydbml import PyDBML  # type: ignore[import-untyped]

    text = text.removeprefix("\ufeff").replace("\r\n", "\n")
    if not text.strip():
        return [_parsed(GraphDiagram("dbml", "er"), [Diagnostic(1, "", "empty source")])]
    if len(text) > MAX_CHARS:
        return [_parsed(GraphDiagram("dbml", "er"), [Diagnostic(
            1, "", f"DBML source of {len(text):,} characters not read: over the reader's "
                   f"{MAX_CHARS:,} (pydbml reads a few hundred lines a second)")])]
    cleaned, diagnostics = _blank(text)
    try:
        database = PyDBML(cleaned)
    except Exception as exc:  # pydbml raises pyparsing's and its own errors
        line = getattr(exc, "lineno", None) or _line_in(str(exc)) or 1
        lines = text.split("\n")
        reason = str(exc).split("\n")[0][:200] or type(exc).__name__
        diagnostics.append(Diagnostic(line, lines[line - 1] if line <= len(lines) else "",
                                      f"DBML not read: {reason}"))
        return [_parsed(GraphDiagram("dbml", "er"), diagnostics)]
    return [_parsed(_diagram(database, text), diagnostics)]


def _line_in(message: str) -> int | None:
    m = re.search(r"line:? ?(\d+)", message)
    return int(m.group(1)) if m else None


def _parsed(diagram: GraphDiagram, diagnostics: list[Diagnostic]) -> Parsed[GraphDiagram]:
    return Parsed(0, 1, "dbml", "er", diagram, tuple(sorted(diagnostics, key=lambda d: d.line)))


def _table_id(table: Any) -> str:
    return table.name if table.schema in ("public", "", None) else f"{table.schema}.{table.name}"


def _diagram(database: Any, text: str) -> GraphDiagram:
    lines = text.split("\n")

    def line_of(pattern: str) -> int:
        rx = re.compile(pattern, re.I)
        return next((n for n, s in enumerate(lines, 1) if rx.search(s)), 0)

    fk: set[tuple[str, str]] = set()
    relations = []
    for ref in database.refs:
        many_first = ref.type != "<"
        src_cols, dst_cols = (ref.col1, ref.col2) if many_first else (ref.col2, ref.col1)
        kind = ref.type if many_first else ">"
        src, dst = _table_id(src_cols[0].table), _table_id(dst_cols[0].table)
        for c in src_cols:
            fk.add((src, c.name))
        a, b = _REL[kind]
        relations.append(Relation(
            src, dst, "non_identifying", "none", ref.name or "", source_cardinality=a,
            target_cardinality=b, source_port=",".join(c.name for c in src_cols),
            target_port=",".join(c.name for c in dst_cols), reversed=not many_first,
            line=line_of(rf"\bref\b.*\b{re.escape(src_cols[0].name)}\b")))
    group_of = {}
    clusters = []
    for group in database.table_groups:
        members = tuple(_table_id(t) for t in group.items)
        for m in members:
            group_of[m] = group.name
        clusters.append(Cluster(group.name, group.name, "table_group", members=members,
                                line=line_of(rf"^\s*TableGroup\s+\"?{re.escape(group.name)}")))
    entities = []
    for table in database.tables:
        tid = _table_id(table)
        columns = []
        for column in table.columns:
            checks: tuple[tuple[MemberFlag, bool], ...] = (
                ("pk", column.pk), ("fk", (tid, column.name) in fk), ("uk", column.unique),
                ("not_null", column.not_null), ("increment", column.autoinc))
            flags = [flag for flag, on in checks if on]
            note = column.note.text if column.note else ""
            default = _default(column.default)
            columns.append(Member(column.name, str(column.type), flags=tuple(flags),
                                  default=default, note=str(note or "")))
        entities.append(Entity(tid, table.alias or "", "table", attributes=tuple(columns),
                               description=str(table.note.text) if table.note else "",
                               parent=group_of.get(tid),
                               line=line_of(rf"^\s*Table\s+\"?{re.escape(table.name)}\b")))
    notes = [Note(str(n.text), id=n.name,
                  line=line_of(rf"^\s*Note\s+\"?{re.escape(n.name)}\b"))
             for n in database.sticky_notes]
    return GraphDiagram("dbml", "er", tuple(entities), tuple(relations), tuple(clusters),
                        tuple(notes))


def _default(value: Any) -> str:
    """A column default as DBML writes it: `expression`, 'string', number or keyword."""
    if value is None:
        return ""
    if type(value).__name__ == "Expression":
        return f"`{value.text}`"
    if isinstance(value, str):
        return _text(value)
    return str(value).lower() if isinstance(value, bool) else str(value)


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
            type_ = col.type if re.fullmatch(r"[\w.]+(?:\([^)]*\))?", col.type or "x") \
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
