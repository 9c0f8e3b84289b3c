"""What every Mermaid reader shares: a body's statements, unquoted texts, and the
self-loops Mermaid's layout draws."""

from __future__ import annotations

from diagbench.diagram.graph import Relation
from diagbench.formats.diagnostics import Diagnostic


def statements(lines: list[str], first: int) -> list[tuple[int, str]]:
    """(line number, statement) of `lines` (numbered from `first`): comments (`%%`)
    dropped, blank lines skipped, `;` separating statements outside quotes and brackets."""
    out: list[tuple[int, str]] = []
    pending, start = "", first
    for n, raw in enumerate(lines, first):
        line = raw.strip()
        if pending:
            line, n = pending + "\n" + line, start
            pending = ""
        elif not line or line.startswith("%%"):
            continue
        if line.count('"') % 2 and n - first < len(lines) - 1:  # a quoted text goes on
            pending, start = line, n
            continue
        for part in split_semicolons(line):
            if part.strip():
                out.append((n, part.strip()))
    if pending:
        out.append((start, pending))
    return out


def split_semicolons(line: str) -> list[str]:
    parts, depth, quoted, start = [], 0, False, 0
    for k, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "[({":
            depth += 1
        elif not quoted and ch in "])}":
            depth = max(0, depth - 1)
        elif ch == ";" and not quoted and depth == 0:
            parts.append(line[start:k])
            start = k + 1
    parts.append(line[start:])
    return parts


def one_self_loop(relations: list[Relation], diagnostics: list[Diagnostic],
                  hidden: tuple[tuple[str, int], ...] = ()) -> tuple[Relation, ...]:
    """The relations Mermaid draws: each self-loop on an element is drawn over the one
    before (its layout gives each element one loop), so only the last is kept, and
    none when the last is an invisible `~~~` one (`hidden`: (element, position in
    `relations` it came after)); the others are left out with a warning."""
    last: dict[str, float] = {}
    for k, r in enumerate(relations):
        if r.is_self:
            last[r.source] = k
    for ident, position in hidden:
        if position >= last.get(ident, -1):
            last[ident] = position + 0.5
    kept = []
    for k, r in enumerate(relations):
        if r.is_self and last[r.source] != k:
            diagnostics.append(Diagnostic(r.line, "", f"a self-loop on {r.source!r} is drawn "
                                          "over by a later one", "warning"))
            continue
        kept.append(r)
    return tuple(kept)


def unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1]
    if len(text) >= 2 and text[0] == text[-1] == "`":
        text = text[1:-1]
    return text
