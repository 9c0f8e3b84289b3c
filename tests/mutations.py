"""Planted mutations of a ground-truth script, each with the exact counts it must give.

Every mutation edits the text of one diagram and checks, by parsing the
result, that it made exactly the intended change; it returns None where it
does not apply (no suitable message, note, group…).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from diagbench.diagram.sequence import BOUNDARIES, Message, SequenceDiagram
from diagbench.formats.plantuml import parse_one
from diagbench.formats.plantuml.sequence_writer import message_line

Expected = dict[str, tuple[int, int, int]]  # component -> (insertion, deletion, substitution)
_END_GROUP = re.compile(r"^\s*end\s*$", re.IGNORECASE)
_GROUP_START = re.compile(r"^\s*(group|alt|opt|loop|par|par2|break|critical)\b", re.IGNORECASE)


def _plain(m: Message) -> bool:
    """A message written simply enough to be rewritten from the model."""
    return (not m.is_return and m.sender not in BOUNDARIES and m.receiver not in BOUNDARIES
            and not m.bidirectional and not m.activation)


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _replace_line(text: str, number: int, new: list[str]) -> str:
    lines = _lines(text)
    lines[number - 1:number] = new
    return "\n".join(lines)


def _messages_equal_except(a: SequenceDiagram, b: SequenceDiagram, k: int) -> bool:
    return len(a.messages) == len(b.messages) and all(
        x == y for i, (x, y) in enumerate(zip(a.messages, b.messages, strict=True)) if i != k)


def _rewrite_message(text: str, d: SequenceDiagram, change: Callable[[Message], Message | None],
                     check: Callable[[Message, Message], bool]) -> str | None:
    """Rewrite the first message `change` accepts; None unless exactly that one changes."""
    for k, m in enumerate(d.messages):
        if not _plain(m) or '"' in _lines(text)[m.line - 1]:
            continue
        new = change(m)
        if new is None:
            continue
        mutated = _replace_line(text, m.line, [message_line(new)])
        after = parse_one(mutated)
        if (_messages_equal_except(d, after, k) and check(m, after.messages[k])
                and after.participants == d.participants):
            return mutated
    return None


def reverse_message(text: str, d: SequenceDiagram) -> str | None:
    return _rewrite_message(
        text, d, lambda m: None if m.is_self else replace(m, sender=m.receiver, receiver=m.sender),
        lambda old, new: (new.sender, new.receiver) == (old.receiver, old.sender))


def toggle_line_style(text: str, d: SequenceDiagram) -> str | None:
    def change(m: Message) -> Message | None:
        if "[" in m.arrow:
            return None
        arrow = m.arrow.replace("--", "-", 1) if "--" in m.arrow else m.arrow.replace("-", "--", 1)
        return replace(m, arrow=arrow)
    return _rewrite_message(text, d, change, lambda old, new: new.line_style != old.line_style)


def edit_label(text: str, d: SequenceDiagram) -> str | None:
    return _rewrite_message(
        text, d, lambda m: replace(m, label=m.label + " edited") if m.label.strip() else None,
        lambda old, new: new.label != old.label)


def change_receiver(text: str, d: SequenceDiagram) -> str | None:
    ids = [p.id for p in d.participants]

    def change(m: Message) -> Message | None:
        other = next((p for p in ids if p not in (m.sender, m.receiver)), None)
        return None if m.is_self or other is None else replace(m, receiver=other)
    return _rewrite_message(text, d, change, lambda old, new: new.receiver != old.receiver)


def delete_message(text: str, d: SequenceDiagram) -> str | None:
    for m in d.messages:
        if not _plain(m) or m.is_self or not m.label.strip():
            continue
        mutated = _replace_line(text, m.line, [])
        after = parse_one(mutated)
        if len(after.messages) == len(d.messages) - 1 and after.participants == d.participants:
            return mutated
    return None


def insert_message(text: str, d: SequenceDiagram) -> str | None:
    ids = [p.id for p in d.participants if re.fullmatch(r"[\w.@]+", p.id)]
    anchor = next((m for m in d.messages if _plain(m)), None)
    if len(ids) < 2 or anchor is None:
        return None
    new = f"{ids[0]} -> {ids[1]} : a brand new planted message"
    mutated = _replace_line(text, anchor.line, [_lines(text)[anchor.line - 1], new])
    after = parse_one(mutated)
    return mutated if len(after.messages) == len(d.messages) + 1 else None


def _note_span(text: str, note_line: int) -> tuple[int, int]:
    """First and last line numbers of the note starting at `note_line`."""
    lines = _lines(text)
    head = lines[note_line - 1]
    if ":" in head:
        return note_line, note_line
    for k in range(note_line, len(lines)):
        if re.match(r"^\s*end\s?[hr]?note\s*$", lines[k], re.IGNORECASE):
            return note_line, k + 1
    raise ValueError("unterminated note")


def delete_note(text: str, d: SequenceDiagram) -> str | None:
    for note in d.notes:
        first, last = _note_span(text, note.line)
        lines = _lines(text)
        mutated = "\n".join(lines[:first - 1] + lines[last:])
        after = parse_one(mutated)
        if (len(after.notes) == len(d.notes) - 1 and after.messages == d.messages
                and after.participants == d.participants):
            return mutated
    return None


def edit_note(text: str, d: SequenceDiagram) -> str | None:
    for note in d.notes:
        if not note.text.strip():
            continue
        first, last = _note_span(text, note.line)
        target = first if first == last else first + 1
        lines = _lines(text)
        mutated = _replace_line(text, target, [lines[target - 1] + " edited"])
        after = parse_one(mutated)
        if len(after.notes) == len(d.notes) and after.notes[d.notes.index(note)].text != note.text:
            return mutated
    return None


def remove_group(text: str, d: SequenceDiagram) -> str | None:
    lines = _lines(text)
    for group in d.groups:
        if len(group.branches) != 1:
            continue
        depth, end = 0, None
        for k in range(group.line - 1, len(lines)):
            if _GROUP_START.match(lines[k]):
                depth += 1
            elif _END_GROUP.match(lines[k]):
                depth -= 1
                if depth == 0:
                    end = k
                    break
        if end is None:
            continue
        mutated = "\n".join(lines[:group.line - 1] + lines[group.line:end] + lines[end + 1:])
        after = parse_one(mutated)
        if (len(after.groups) == len(d.groups) - 1 and after.messages == d.messages
                and after.notes == d.notes):
            return mutated
    return None


def remove_box(text: str, d: SequenceDiagram) -> str | None:
    lines = _lines(text)
    for box in d.boxes:
        end = next((k for k in range(box.line, len(lines))
                    if re.match(r"^\s*end\s?box\s*$", lines[k], re.IGNORECASE)), None)
        if end is None:
            continue
        mutated = "\n".join(lines[:box.line - 1] + lines[box.line:end] + lines[end + 1:])
        after = parse_one(mutated)
        if len(after.boxes) == len(d.boxes) - 1 and after.participants == d.participants:
            return mutated
    return None


def rename_alias(text: str, d: SequenceDiagram) -> str | None:
    """Give one participant a new alias in every statement that uses it; its name stays.

    A participant declared without alias (`participant AMF`) gets one
    (`participant "AMF" as AMFZq`): its id was its alias.
    """
    uses = ({m.line for m in d.messages} | {n.line for n in d.notes}
            | {a.line for a in d.activations} | {r.line for r in d.references})
    for p in d.participants:
        if not p.declared or not re.fullmatch(r"[\w.@]+", p.id):
            continue
        new_id = p.id + "Zq"
        token = re.compile(rf"(?<![\w.@]){re.escape(p.id)}(?![\w.@])")
        lines = _lines(text)
        declaration = lines[p.line - 1]
        if p.id == p.name:
            if '"' in declaration:
                continue
            lines[p.line - 1] = token.sub(f'"{p.name}" as {new_id}', declaration, count=1)
        for number in uses | ({p.line} if p.id != p.name else set()):
            head, sep, tail = lines[number - 1].partition(":")
            parts = head.split('"')
            parts[::2] = [token.sub(new_id, part) for part in parts[::2]]
            lines[number - 1] = '"'.join(parts) + sep + tail
        mutated = "\n".join(lines)
        after = parse_one(mutated)
        renamed = [replace(q, id=new_id) if q.id == p.id else q for q in d.participants]
        if list(after.participants) == renamed and len(after.messages) == len(d.messages):
            return mutated
    return None


def swap_adjacent(text: str, d: SequenceDiagram) -> str | None:
    ms = d.messages
    for k in range(len(ms) - 1):
        a, b = ms[k], ms[k + 1]
        if (b.line != a.line + 1 or not (_plain(a) and _plain(b))
                or (a.sender, a.receiver, a.label) == (b.sender, b.receiver, b.label)
                or a.label.strip() == b.label.strip()):
            continue
        lines = _lines(text)
        lines[a.line - 1], lines[b.line - 1] = lines[b.line - 1], lines[a.line - 1]
        mutated = "\n".join(lines)
        after = parse_one(mutated)
        if after.messages[k] == b and after.messages[k + 1] == a:
            return mutated
    return None


#: (name, mutation, expected non-zero counts; every other count must be 0)
MUTATIONS: list[tuple[str, Callable, Expected]] = [
    ("reverse a message", reverse_message, {"edge_direction": (0, 0, 1)}),
    ("solid <-> dotted", toggle_line_style, {"edge_type": (0, 0, 1)}),
    ("edit a label", edit_label, {"message": (0, 0, 1)}),
    ("delete a message", delete_message,
     {"message": (0, 1, 0), "edge_direction": (0, 1, 0), "node": (0, 2, 0)}),
    ("insert a message", insert_message,
     {"message": (1, 0, 0), "edge_direction": (1, 0, 0), "node": (2, 0, 0)}),
    ("change a receiver", change_receiver, {"node": (0, 0, 1)}),
    ("delete a note", delete_note, {"note": (0, 1, 0)}),
    ("edit a note", edit_note, {"note": (0, 0, 1)}),
    ("remove a group", remove_group, {"group": (0, 1, 0)}),
    ("remove a box", remove_box, {"box": (0, 1, 0)}),
    ("rename an alias", rename_alias, {}),
    ("swap adjacent messages", swap_adjacent, {}),
]
