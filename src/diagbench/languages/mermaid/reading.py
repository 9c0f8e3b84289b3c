"""Reading a Gantt chart or a mind map with Mermaid's own parser: which of them a source
is (`own_kind`, its header after front matter, directives and comments), and its model
from the database Mermaid fills (`read_own`), or Mermaid's own error with its line."""

from __future__ import annotations

import re

from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.parsed import Diagram, Parsed

_HEADER = re.compile(r"^\s*(gantt|mindmap)\s*$")
#: The model kind of each header.
KINDS = {"gantt": "gantt", "mindmap": "mindmap"}


def own_kind(text: str) -> str | None:
    """"gantt" or "mindmap" when that is the header of `text`, else None."""
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").split("\n")
    k = 0
    if lines and lines[0].strip() == "---":  # front matter
        end = next((j for j in range(1, len(lines)) if lines[j].strip() == "---"), None)
        k = end + 1 if end is not None else len(lines)
    while k < len(lines) and (not lines[k].strip() or lines[k].strip().startswith("%%")):
        k += 1
    m = _HEADER.match(lines[k]) if k < len(lines) else None
    return KINDS[m.group(1)] if m else None


def _header_line(text: str, kind: str) -> int:
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").split("\n")
    return next((n for n, line in enumerate(lines, 1) if line.strip() == kind), 1)


def read_own(text: str, kind: str) -> Parsed[Diagram]:
    """The Gantt chart or mind map of `text` as Mermaid's own parser reads it; Mermaid's
    error (with the line it names, else the header's) when it refuses it."""
    from diagbench.languages.mermaid import gantt, mindmap
    from diagbench.languages.mermaid.own import shared

    empty: Diagram = gantt.Gantt() if kind == "gantt" else mindmap.MindMap()
    first = _header_line(text, kind)
    answer = shared().read(text)
    if not answer.ok or answer.db is None or answer.kind != kind:
        line = answer.line or first
        lines = text.split("\n")
        reason = answer.error or f"Mermaid read a {answer.kind} diagram, not a {kind}"
        return Parsed(0, first, "mermaid", kind, empty, (Diagnostic(
            line, lines[line - 1] if 0 < line <= len(lines) else "", reason),))
    try:
        diagram: Diagram = gantt.from_database(answer.db) if kind == "gantt" \
            else mindmap.from_database(answer.db)
    except (KeyError, TypeError, ValueError) as exc:  # a database of another shape
        return Parsed(0, first, "mermaid", kind, empty, (Diagnostic(
            first, "", f"Mermaid's {kind} database not understood: {exc}"),))
    return Parsed(0, first, "mermaid", kind, diagram, ())
