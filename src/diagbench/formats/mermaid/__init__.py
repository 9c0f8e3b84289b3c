"""Mermaid: readers of flowchart/graph, classDiagram, erDiagram and stateDiagram(-v2) into
the graph model, and a writer back to Mermaid.

`read_mermaid(text)` never raises: it finds the diagram's header (after front matter,
`%%{init}%%` directives and comments), hands the body to the reader of that kind, and
returns one `Parsed` with the model and the diagnostics (1-based line, text, reason) of
the statements it could not read. Counts are what mermaid-cli draws (see
`diagbench.render.graph_svg`).
"""

from __future__ import annotations

import re

from diagbench.diagram.graph import GraphDiagram, Relation
from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.parsed import Parsed

_HEADER = re.compile(r"^\s*(flowchart-elk|flowchart|graph|classDiagram-v2|classDiagram|erDiagram|"
                     r"stateDiagram-v2|stateDiagram)\b(.*)$")
_FLAT = re.compile(r"hierarchicalNamespaces\W+false", re.I)
_KINDS = {"flowchart": "flowchart", "flowchart-elk": "flowchart", "graph": "flowchart",
          "classDiagram": "class", "classDiagram-v2": "class", "erDiagram": "er",
          "stateDiagram": "state", "stateDiagram-v2": "state"}


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


def read_mermaid(text: str) -> list[Parsed[GraphDiagram]]:
    """The diagram of a Mermaid source (flowchart, class, ER or state)."""
    import importlib

    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    k = 0
    if lines and lines[0].strip() == "---":  # front matter
        end = next((j for j in range(1, len(lines)) if lines[j].strip() == "---"), None)
        k = (end + 1) if end is not None else len(lines)
    while k < len(lines) and (not lines[k].strip() or lines[k].strip().startswith("%%")):
        k += 1
    if k >= len(lines):
        return [Parsed(0, 1, "mermaid", "empty", GraphDiagram("mermaid", "flowchart"),
                       (Diagnostic(1, "", "empty source: no diagram"),))]
    m = _HEADER.match(lines[k])
    if m is None:
        return [Parsed(0, k + 1, "mermaid", "unknown", GraphDiagram("mermaid", "flowchart"),
                       (Diagnostic(k + 1, lines[k], "not a flowchart, class, ER or state "
                                                    "diagram header"),))]
    kind = _KINDS[m.group(1)]
    module = {"flowchart": "flowchart", "class": "classes", "er": "er", "state": "state"}[kind]
    reader = importlib.import_module(f"diagbench.formats.mermaid.{module}").read
    rest = m.group(2)
    header = ""
    if kind == "flowchart":
        d = re.match(r"\s*(TB|TD|BT|RL|LR|<|>|\^|v)?\s*;?(.*)$", rest)
        header, rest = (d.group(1) or "", d.group(2)) if d else ("", rest)
    elif kind == "class" and _FLAT.search("\n".join(lines[:k + 1])):
        header = "flat"  # config class.hierarchicalNamespaces: false
    body = [rest.strip().lstrip(";"), *lines[k + 1:]]
    diagram, diagnostics = reader(body, k + 1, header)
    return [Parsed(0, k + 1, "mermaid", kind, diagram,
                   tuple(sorted(diagnostics, key=lambda d: d.line)))]


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


__all__ = ["read_mermaid"]
