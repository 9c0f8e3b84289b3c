"""Typed diagram models. No I/O and no parsing here."""

from diagbench.diagram.sequence import (
    Activation,
    Box,
    Branch,
    Delay,
    Directive,
    Divider,
    Group,
    Message,
    Note,
    Participant,
    Reference,
    SequenceDiagram,
    Spacing,
)

__all__ = [
    "Activation",
    "Box",
    "Branch",
    "Delay",
    "Directive",
    "Divider",
    "Group",
    "Message",
    "Note",
    "Participant",
    "Reference",
    "SequenceDiagram",
    "Spacing",
]
