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
from collections.abc import Callable

from diagbench.diagram.graph import GraphDiagram
from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.mermaid import classes, er, flowchart, state
from diagbench.formats.parsed import Parsed

_HEADER = re.compile(r"^\s*(flowchart-elk|flowchart|graph|classDiagram-v2|classDiagram|erDiagram|"
                     r"stateDiagram-v2|stateDiagram)\b(.*)$")
_FLAT = re.compile(r"hierarchicalNamespaces\W+false", re.I)
_KINDS = {"flowchart": "flowchart", "flowchart-elk": "flowchart", "graph": "flowchart",
          "classDiagram": "class", "classDiagram-v2": "class", "erDiagram": "er",
          "stateDiagram": "state", "stateDiagram-v2": "state"}

Reader = Callable[[list[str], int, str], tuple[GraphDiagram, list[Diagnostic]]]
#: The reader of each kind: (body lines, line of the first, header) → model, diagnostics.
_READERS: dict[str, Reader] = {"flowchart": flowchart.read, "class": classes.read,
                               "er": er.read, "state": state.read}


def read_mermaid(text: str) -> list[Parsed[GraphDiagram]]:
    """The diagram of a Mermaid source (flowchart, class, ER or state)."""
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
    reader = _READERS[kind]
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


__all__ = ["read_mermaid"]
