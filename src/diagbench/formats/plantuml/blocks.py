"""Split PlantUML text into its `@startuml … @enduml` blocks."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import compress, count, repeat
from operator import contains

from diagbench.formats.diagnostics import Diagnostic

_START = re.compile(r"^\s*@start(\w+)(?:\s+(.*?))?\s*$")
_END = re.compile(r"^\s*@end(\w+)\s*$")


@dataclass(slots=True)
class Block:
    """The body lines of one diagram; `first_line` is the 1-based number of `lines[0]`."""

    lines: list[str]
    first_line: int
    name: str | None = None
    kind: str = "uml"
    diagnostics: list[Diagnostic] = field(default_factory=list)


def split_blocks(text: str) -> list[Block]:
    """Return the diagram blocks of `text`, in order.

    Text outside blocks is ignored. Text with no `@start…` line at all is
    taken as one block (models often omit the markers), with an error
    diagnostic saying so; an unterminated block runs to the end of the text.
    """
    lines = text.splitlines()
    blocks: list[Block] = []
    current: Block | None = None
    taken = 0  # the lines before this index are read
    # only the lines with an `@` can open or close a block: the others are taken in slices
    for k in compress(count(), map(contains, lines, repeat("@"))):
        if current is not None:
            current.lines += lines[taken:k]
        taken = k + 1
        number, line = taken, lines[k]
        start = _START.match(line)
        if start:
            if current is not None:
                current.diagnostics.append(
                    Diagnostic(number, line, f"@start{start.group(1)} inside an open block")
                )
                blocks.append(current)
            name = (start.group(2) or "").strip().strip('"') or None
            current = Block([], number + 1, name, start.group(1).lower())
            continue
        if current is not None and _END.match(line):
            blocks.append(current)
            current = None
            continue
        if current is not None:
            current.lines.append(line)
    if current is not None:
        current.lines += lines[taken:]
        current.diagnostics.append(
            Diagnostic(current.first_line - 1, "@start" + current.kind, "missing @enduml")
        )
        blocks.append(current)
    if not blocks and text.strip():
        whole = Block(lines, 1)
        whole.diagnostics.append(
            Diagnostic(1, lines[0] if lines else "", "no @startuml line; read the whole text")
        )
        blocks.append(whole)
    return blocks
