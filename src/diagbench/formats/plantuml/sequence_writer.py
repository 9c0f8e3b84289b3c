"""Write a `SequenceDiagram` back to PlantUML.

The output round-trips: `parse_one(write_sequence(d)) == d` for every
diagram the parser produces (source line numbers aside).
"""

from __future__ import annotations

import re

from diagbench.diagram.sequence import (
    BOUNDARIES,
    Activation,
    Group,
    Message,
    Note,
    Participant,
    Reference,
    SequenceDiagram,
)

_CODE = re.compile(r"^[\w.@]+$")


def write_sequence(diagram: SequenceDiagram) -> str:
    """PlantUML text for `diagram`, one `@startuml … @enduml` block."""
    return _Writer(diagram).text()


def quote(pid: str) -> str:
    """A participant reference as PlantUML needs it: bare when it can be, else quoted."""
    return pid if pid in BOUNDARIES or _CODE.match(pid) else f'"{pid}"'


def participant_line(p: Participant) -> str:
    """The declaration statement of a participant."""
    if "\n" in p.name and _CODE.match(p.id):  # `participant X [` … `]`
        return "\n".join([f"{p.kind} {p.id} [", *p.name.split("\n"), "]"])
    if p.name == p.id:
        head = quote(p.id)
    elif _CODE.match(p.id):
        head = f'"{p.name}" as {p.id}'
    else:
        head = f'"{p.name}" as "{p.id}"'
    parts = [p.kind, head]
    if p.stereotype is not None:
        parts.append(f"<<{p.stereotype}>>")
    if p.order is not None:
        parts.append(f"order {p.order}")
    if p.color:
        parts.append(p.color)
    return " ".join(parts)


def message_line(m: Message, named: dict[str, str] | None = None) -> str:
    """The statement of a message; `named` gives `"Name" as id` for first uses."""
    if m.is_return:
        return " ".join(x for x in ("return", m.color, _continued(m)) if x)
    named = named or {}
    left, right = (m.receiver, m.sender) if m.reversed else (m.sender, m.receiver)
    if m.border is not None and left in BOUNDARIES:  # `[-> B`, `?<- B`, `-> B`
        text = f"{m.border}{m.arrow} {quote(right)}"
    elif m.border is not None:  # `A ->]`, `A ->`
        text = f"{quote(left)} {m.arrow}{m.border}"
    else:
        text = f"{named.pop(left, quote(left))} {m.arrow} {named.pop(right, quote(right))}"
        text += "".join(f" & {extra}" for extra in m.multicast)
    if m.activation:
        text += f" {m.activation}"
    if m.label:
        text += f" : {_continued(m)}"
    return text


def _continued(m: Message) -> str:
    """The label, broken over source lines where it was read so (trailing backslashes)."""
    label = m.label
    for k in sorted(m.breaks, reverse=True):
        label = label[:k] + "\\\n" + label[k:]
    return label


def note_lines(n: Note) -> list[str]:
    """The statement(s) of a note: one line, or a block ending in `end <shape>`."""
    head = f"{n.shape} {n.position}"
    if n.targets:
        joiner = ", " if n.position == "over" else ""
        head += (" " if n.position == "over" else " of ") + joiner.join(map(quote, n.targets))
    if n.color:
        head += f" {n.color}"
    if "\n" not in n.text:
        return [f"{head} : {n.text}".rstrip()]
    return [head, *n.text.split("\n"), f"end {n.shape}"]


def _reference_lines(r: Reference) -> list[str]:
    head = "ref over " + ", ".join(map(quote, r.targets))
    if r.color:
        head += f" {r.color}"
    if "\n" not in r.text:
        return [f"{head} : {r.text}".rstrip()]
    return [head, *r.text.split("\n"), "end ref"]


def _group_start(g: Group) -> str:
    text = g.kind + (f" {g.color}" if g.color else "")
    if g.label:
        text += f" {g.label}"
    if g.secondary is not None:
        text += f" [{g.secondary}]"
    return text


def _activation_line(a: Activation) -> str:
    return f"{a.action} {quote(a.participant)}" + (f" {a.color}" if a.color else "")


class _Writer:
    def __init__(self, diagram: SequenceDiagram) -> None:
        self.d = diagram
        self.branch_seen: dict[int, int] = {}
        # implicit participants whose display name differs from their id are
        # named inline at their first use: `"Long name" as L -> B`
        self.named = {p.id: f'"{p.name}" as {p.id}' for p in diagram.participants
                      if not p.declared and p.name != p.id}

    def text(self) -> str:
        d = self.d
        out = ["@startuml" + (f" {d.name}" if d.name else "")]
        if d.title is not None:
            out += [f"title {d.title}"] if "\n" not in d.title else ["title", d.title, "end title"]
        for kind, index in d.order:
            out += self.statement(kind, index)
        out.append("@enduml")
        return "\n".join(out) + "\n"

    def statement(self, kind: str, index: int) -> list[str]:
        d = self.d
        if kind == "participant":
            return [participant_line(d.participants[index])]
        if kind == "message":
            return [message_line(d.messages[index], self.named)]
        if kind == "note":
            return note_lines(d.notes[index])
        if kind == "group_start":
            return [_group_start(d.groups[index])]
        if kind == "else":
            k = self.branch_seen.get(index, 0) + 1
            self.branch_seen[index] = k
            branch = d.groups[index].branches[k]
            return [" ".join(x for x in ("else", branch.color, branch.label) if x)]
        if kind == "group_end":
            return ["end"]
        if kind == "reference":
            return _reference_lines(d.references[index])
        if kind == "box_start":
            box = d.boxes[index]
            return [" ".join(x for x in ("box", f'"{box.title}"', box.color) if x)]
        if kind == "box_end":
            return ["end box"]
        if kind == "divider":
            return [f"== {d.dividers[index].text} =="]
        if kind == "delay":
            text = d.delays[index].text
            return [f"...{text}..." if text else "..."]
        if kind == "spacing":
            pixels = d.spacings[index].pixels
            return [f"||{pixels}||" if pixels is not None else "|||"]
        if kind == "activation":
            return [_activation_line(d.activations[index])]
        if kind == "directive":
            return [d.directives[index].text]
        raise ValueError(f"unknown statement kind {kind!r}")
