"""C4-PlantUML's sequence diagrams (`!include …C4_Sequence…`) as the sequence statements
its macros stand for, so that the sequence reader reads them as PlantUML draws them.

C4_Sequence.puml defines each element macro (`Person`, `System_Ext`, `ContainerDb`,
`Component_Ext`, …) as a participant, each boundary macro (`System_Boundary(alias,
label)`, closed by `Boundary_End()`) as a box, each `Rel…(from, to, label, …)` as a
message, and the layout and legend macros as drawing nothing. `as_sequence` rewrites
those lines one for one (line numbers kept) in the blocks that include C4_Sequence and
leaves every other line and block as written.
"""

from __future__ import annotations

import re

_INCLUDE = re.compile(r"^\s*!include\w*\s+\S*C4_Sequence", re.I)
_BLOCK_START = re.compile(r"^\s*@start\w+", re.I)
_BLOCK_END = re.compile(r"^\s*@end\w+", re.I)
_CALL = re.compile(r"^\s*(?P<macro>[A-Za-z_]\w*)\s*\((?P<args>.*)\)\s*$")
_ELEMENT = re.compile(r"^(?:Person|System|Container|Component)(?:Db|Queue)?(?:_Ext)?$")
_BOUNDARY = re.compile(r"^(?:Enterprise_|System_|Container_)?Boundary$")
_REL = re.compile(r"^(?:Rel|BiRel)(?:_\w+)?$")


def _arguments(text: str) -> list[str]:
    """The positional arguments of a macro call, unquoted (`$name=value` ones left out)."""
    out, current, quoted = [], "", False
    for char in text + ",":
        if char == '"':
            quoted = not quoted
            current += char
        elif char == "," and not quoted:
            out.append(current.strip())
            current = ""
        else:
            current += char
    return [a.strip('"') for a in out if a and not a.startswith("$")]


def _statement(line: str) -> str:
    m = _CALL.match(line)
    if m is None:
        return line
    macro, args = m.group("macro"), _arguments(m.group("args"))
    if _ELEMENT.match(macro) and args:
        label = args[1] if len(args) > 1 else args[0]
        return f'participant "{label}" as {args[0]}'
    if _BOUNDARY.match(macro) and args:
        return f'box "{args[1] if len(args) > 1 else args[0]}"'
    if macro == "Boundary_End":
        return "end box"
    if _REL.match(macro) and len(args) >= 2:
        label = args[2] if len(args) > 2 else ""
        arrow = "<->" if macro.startswith("BiRel") else "->"
        return f"{args[0]} {arrow} {args[1]}" + (f" : {label}" if label else "")
    return "' " + line.strip()  # layout, legend, tags and styles draw nothing


def is_c4_sequence(text: str) -> bool:
    """Whether a block of `text` includes C4_Sequence."""
    return any(_INCLUDE.match(line) for line in text.splitlines())


def as_sequence(text: str) -> str:
    """`text` with the C4 macro lines of its C4_Sequence blocks written as the sequence
    statements they stand for (one line each)."""
    lines = text.split("\n")
    start = None
    for k, line in enumerate(lines):
        if _BLOCK_START.match(line):
            start = k
        elif _BLOCK_END.match(line) and start is not None:
            _rewrite(lines, start, k)
            start = None
    if start is not None:
        _rewrite(lines, start, len(lines))
    return "\n".join(lines)


def _rewrite(lines: list[str], start: int, end: int) -> None:
    block = lines[start:end]
    if any(_INCLUDE.match(line) for line in block):
        lines[start:end] = [line if _INCLUDE.match(line) or not line.strip() else
                            _statement(line) for line in block]
