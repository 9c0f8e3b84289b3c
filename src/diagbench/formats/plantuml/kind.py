"""Guess which kind of PlantUML diagram a block is.

PlantUML tries its sequence-diagram reader first and keeps it when every line
is a sequence statement; we do the same, and otherwise look for the
statements that mark the other kinds.
"""

from __future__ import annotations

import re

from diagbench.diagram.sequence import SequenceDiagram
from diagbench.formats.plantuml.blocks import Block

_HINTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("class", re.compile(
        r"^\s*(?:abstract\s+class|abstract|class|interface|enum|annotation|struct|record)\s",
        re.I | re.M)),
    ("state", re.compile(r"^\s*(?:state\s|\[\*\])", re.I | re.M)),
    ("activity", re.compile(r"^\s*(?:start|stop|end|:.*;|if\s*\(|fork|repeat|while\s*\()\s*$",
                            re.I | re.M)),
    ("usecase", re.compile(r"^\s*(?:usecase\s|\(|:[^:]+:|actor\s+:)", re.I | re.M)),
    ("component", re.compile(
        r"^\s*(?:component|node|package|cloud|rectangle|folder|frame|artifact|interface)\s|^\s*\[",
        re.I | re.M)),
    ("object", re.compile(r"^\s*(?:object|map)\s", re.I | re.M)),
)


def guess_kind(block: Block, diagram: SequenceDiagram, unknown_lines: int) -> str:
    """'sequence', another PlantUML kind ('class', 'state', …, 'mindmap'), or 'empty'."""
    if block.kind != "uml":
        return block.kind
    if unknown_lines:
        text = "\n".join(block.lines)
        for kind, pattern in _HINTS:
            if pattern.search(text):
                return kind
    if diagram.participants or diagram.messages or diagram.notes or diagram.groups:
        return "sequence"
    return "empty" if not unknown_lines else "unknown"
