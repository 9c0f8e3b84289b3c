"""Read a PNG of a PlantUML sequence diagram back into a PlantUML script, offline.

The shapes come from `sequence_geometry` (classical image analysis), the words from
RapidOCR; each line of text is given to the shape it belongs to: a participant head,
a note, a group frame's tab, a box title, the title, or the message line below it.
The reading is a `SequenceDiagram`, printed by the project's writer.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable
from typing import cast

import numpy as np

from diagbench.diagram.sequence import (
    GROUP_KINDS,
    Box,
    Branch,
    Directive,
    EventKind,
    Group,
    GroupKind,
    Message,
    Note,
    Participant,
    ParticipantKind,
    SequenceDiagram,
)
from diagbench.formats.plantuml.sequence_writer import write_sequence
from diagbench.models.baselines.ocr import TextBox, read_text
from diagbench.models.baselines.pixels import decode_rgb
from diagbench.models.baselines.sequence_geometry import (
    Arrow,
    Frame,
    Layout,
    Rect,
    analyse,
    without_lines,
)

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_AUTONUMBER = re.compile(r"(\d{1,3})(?![\d.:)])\s*(.*)")
_NUMBER = re.compile(r"(\d{1,3})[.\s]*(.*)")
_TAB = re.compile(r"(\w+)\s*(?:\[(.*?)\]?)?$")
_WIDE_PUNCTUATION = str.maketrans({"、": ",", "·": ".", "。": "."})
_STRAY_START = re.compile(r"^[.,'`:;|\s]+")
_STRAY_END = re.compile(r"[.,'`:;|\s]+$")
_STEP = re.compile(r"^(\d{1,3}[a-z]?)\.(?=\S)")
_COMMA = re.compile(r",(?=[A-Za-z(])")


class UnreadableImage(ValueError):
    """The bytes are not an image of a sequence diagram this reader can read."""


def read_sequence_diagram(image: bytes) -> str:
    """A PlantUML script for the sequence diagram drawn in PNG or JPEG `image` bytes."""
    rgb = decode(image)
    layout = analyse(rgb)
    if not layout.lifelines:
        raise UnreadableImage("no participant boxes found: this does not look like a sequence "
                              "diagram (PlantUML default skin)")
    texts = [t for t in read_text(without_lines(rgb, layout))
             if t.score >= 0.6 and (len(t.text) > 1 or t.score > 0.9)]
    return write_sequence(_Reading(layout, texts).diagram())


def decode(image: bytes) -> np.ndarray:
    """The RGB pixels of image bytes; UnreadableImage saying why they cannot be read."""
    rgb = decode_rgb(image, UnreadableImage)
    if int(np.ptp(rgb.reshape(-1, 3), axis=0).max()) < 30:
        raise UnreadableImage("image is blank (one colour): no diagram to read")
    return rgb


def tidy(text: str) -> str:
    """OCR text with wide punctuation folded to ASCII and stray marks at its ends removed."""
    text = unicodedata.normalize("NFKC", text).translate(_WIDE_PUNCTUATION)
    return _STRAY_END.sub("", _STRAY_START.sub("", text)).strip()


def tidy_label(text: str) -> str:
    """A message label as PlantUML users write it: `1. Name`, `a, b`."""
    return _COMMA.sub(", ", _STEP.sub(r"\1. ", tidy(text)))


def strip_autonumber(labels: list[str]) -> tuple[list[str], bool]:
    """Labels without `autonumber`'s numbers, and whether they had them: most labels start
    with their own number (1, 2, 3 …) with no dot after it (a dot means hand numbering)."""
    plain = [_AUTONUMBER.fullmatch(label) for label in labels]
    if len(labels) < 2 or sum(m is not None and int(m.group(1)) == k + 1
                              for k, m in enumerate(plain)) <= len(labels) / 2:
        return labels, False
    numbered = [_NUMBER.fullmatch(label) for label in labels]
    return [m.group(2) if m and int(m.group(1)) == k + 1 else label
            for k, (m, label) in enumerate(zip(numbered, labels, strict=True))], True


def _quote(text: str) -> str:
    return text.replace('"', "'")


def _centred_in(rect: Rect, above: float = math.inf) -> Callable[[TextBox], bool]:
    """Whether a text box's centre is inside `rect` (and above the row `above`)."""
    return lambda t: rect.holds(t.cx, t.cy) and t.cy < above


def _under_separator(row: int, frame: Rect) -> Callable[[TextBox], bool]:
    """Whether a text box is the label of the `else` separator at `row` of `frame`."""
    return lambda t: row <= t.cy <= row + 14 and t.x0 <= frame.x0 + 20


def _label_line(y: float, lo: float, hi: float) -> Callable[[TextBox], bool]:
    """Whether a text box is the line of a label just above a message line at `y`,
    starting between the columns `lo` and `hi`."""
    return lambda t: y - 16 <= t.cy <= y - 2 and lo <= t.x0 <= hi


def _line_above(top: float, lo: float, hi: float) -> Callable[[TextBox], bool]:
    """Whether a text box is a further label line ending near the row `top`, starting
    between the columns `lo` and `hi`."""
    return lambda t: top - 12 <= t.y1 <= top + 4 and lo <= t.x0 <= hi


def _join(boxes: list[TextBox], sep: str = " ") -> str:
    """Text boxes in reading order: rows top to bottom, left to right within a row."""
    rows: list[list[TextBox]] = []
    for box in sorted(boxes, key=lambda b: b.cy):
        if rows and abs(rows[-1][0].cy - box.cy) < 6:
            rows[-1].append(box)
        else:
            rows.append([box])
    return sep.join(" ".join(tidy(b.text) for b in sorted(row, key=lambda b: b.x0))
                    for row in rows)


class _Reading:
    """Gives every text box to one shape, then builds the diagram."""

    def __init__(self, layout: Layout, texts: list[TextBox]) -> None:
        self.layout = layout
        self.free = list(texts)

    def take(self, test: Callable[[TextBox], bool]) -> list[TextBox]:
        """Remove and return the free text boxes that pass `test`."""
        taken = [t for t in self.free if test(t)]
        self.free = [t for t in self.free if not test(t)]
        return taken

    def diagram(self) -> SequenceDiagram:
        lay = self.layout
        notes = [(rect, _join(self.take(_centred_in(rect)), "\n")) for rect in lay.notes]
        frames = [(frame, self._frame_texts(frame)) for frame in lay.frames]
        names = self._names()
        boxes = [(rect, colour, _join(self.take(_centred_in(rect, above=lay.heads_top))))
                 for rect, colour in lay.boxes]
        title = _join(self.take(lambda t: t.y1 < lay.heads_top + 4))
        labels, autonumber = strip_autonumber(self._labels())
        order: list[tuple[EventKind, int]] = [("directive", 0)] if autonumber else []
        participants, read_boxes = self._participants(names, boxes, order)
        ids = [p.id for p in participants]
        events: list[tuple[float, int, EventKind, int]] = [
            (arrow.label_y, 1, "message", k) for k, arrow in enumerate(lay.arrows)]
        events += [(rect.y0, 1, "note", k) for k, (rect, _) in enumerate(notes)]
        for g, (frame, _) in enumerate(frames):
            events.append((frame.rect.y0, 0, "group_start", g))
            events += [(row, 0, "else", g) for row in frame.else_rows]
            events.append((frame.rect.y1, 2, "group_end", g))
        order += [(kind, k) for _, _, kind, k in sorted(events, key=lambda e: (e[0], e[1]))]
        shown = [k for kind, k in order if kind == "message"]  # in the order they are numbered
        numbers = {k: str(n + 1) for n, k in enumerate(shown)} if autonumber else {}
        return SequenceDiagram(
            title=title or None,
            participants=participants,
            messages=tuple(_message(arrow, label, ids, numbers.get(k)) for k, (arrow, label)
                           in enumerate(zip(lay.arrows, labels, strict=True))),
            notes=tuple(_note(rect, text, lay, ids) for rect, text in notes),
            groups=_groups([texts for _, texts in frames], order),
            boxes=read_boxes,
            directives=(Directive("autonumber", "autonumber"),) if autonumber else (),
            order=tuple(order),
        )

    def _frame_texts(self, frame: Frame) -> tuple[GroupKind, str, list[str]]:
        """(kind, label, else labels) of a group frame, from its tab and separators."""
        r = frame.rect
        top = sorted(self.take(lambda t: r.x0 - 2 <= t.x0 and t.x1 <= r.x1 + 2
                               and r.y0 - 4 <= t.cy <= r.y0 + 14), key=lambda t: t.x0)
        else_labels = []
        for row in frame.else_rows:
            found = self.take(_under_separator(row, r))
            else_labels.append(_join(found).strip("[] "))
        if not top:
            return "group", "", else_labels
        tab = tidy(top[0].text)
        rest = " ".join(tidy(t.text) for t in top[1:])
        match = _TAB.fullmatch(tab)
        kind = match.group(1).lower() if match else "group"
        if match and kind in GROUP_KINDS and kind != "group":
            condition = " ".join(filter(None, [match.group(2), rest]))
            return cast(GroupKind, kind), condition.strip("[] "), else_labels
        return "group", " ".join(filter(None, [tab, rest])).strip("[] "), else_labels

    def _names(self) -> list[str]:
        """The displayed name of each participant (read at the top, else in the footbox)."""
        names = []
        for line in self.layout.lifelines:
            top = _name_area(line.head, line.actor, True)
            found = self.take(_centred_in(top))
            spare: list[TextBox] = []
            if line.foot is not None:
                foot = _name_area(line.foot, line.actor, False)
                spare = self.take(_centred_in(foot))
            names.append(_join(found or spare))
        return names

    def _participants(self, names: list[str], boxes: list[tuple[Rect, tuple, str]],
                      order: list[tuple[EventKind, int]]
                      ) -> tuple[tuple[Participant, ...], tuple[Box, ...]]:
        """Participants left to right, and the boxes around them; their statements are
        added to `order`."""
        participants: list[Participant] = []
        read_boxes: list[Box] = []
        open_box: Rect | None = None
        for k, (line, name) in enumerate(zip(self.layout.lifelines, names, strict=True)):
            box = next(((r, c, t) for r, c, t in boxes if r.x0 < line.x < r.x1), None)
            if open_box is not None and (box is None or box[0] != open_box):
                order.append(("box_end", len(read_boxes) - 1))
                open_box = None
            if box is not None and open_box is None:
                default = max(abs(c - 221) for c in box[1]) <= 8  # PlantUML's #DDDDDD
                colour = None if default else "#{:02X}{:02X}{:02X}".format(*box[1])
                order.append(("box_start", len(read_boxes)))
                read_boxes.append(Box(_quote(box[2]), colour))
                open_box = box[0]
            kind: ParticipantKind = "actor" if line.actor else "participant"
            taken = any(p.id == name for p in participants)
            pid = name if _IDENTIFIER.fullmatch(name) and not taken else f"P{k + 1}"
            order.append(("participant", k))
            participants.append(Participant(pid, _quote(name) or pid, kind))
            if open_box is not None:
                read_boxes[-1].members += (pid,)
        if open_box is not None:
            order.append(("box_end", len(read_boxes) - 1))
        return tuple(participants), tuple(read_boxes)

    def _labels(self) -> list[str]:
        """Each arrow's label: the text stacked just above its line."""
        labels = []
        for arrow in self.layout.arrows:
            lo, hi = min(arrow.x0, arrow.x1) - 15, max(arrow.x0, arrow.x1)
            y = arrow.label_y
            stack = self.take(_label_line(y, lo, hi))
            while stack:
                top = min(t.y0 for t in stack)
                more = self.take(_line_above(top, lo, hi))
                if not more:
                    break
                stack += more
            labels.append("\\n".join(tidy_label(line) for line in _join(stack, "\n").split("\n")))
        return labels


def _name_area(head: Rect, actor: bool, top: bool) -> Rect:
    """Where a participant's name is written: inside its box, or under (over) an actor."""
    if not actor:
        return head
    if top:
        return Rect(head.x0 - 40, head.y1 + 30, head.x1 + 40, head.y1 + 70)
    return Rect(head.x0 - 40, head.y0 - 25, head.x1 + 40, head.y0)


def _message(arrow: Arrow, label: str, ids: list[str], number: str | None) -> Message:
    body = "--" if arrow.dotted else "-"
    head = ">>" if arrow.open_head else ">"
    tail = "<" if arrow.both_heads else ""
    return Message(ids[arrow.sender], ids[arrow.receiver], f"{tail}{body}{head}",
                   bidirectional=arrow.both_heads,
                   line_style="dotted" if arrow.dotted else "solid",
                   head="async" if arrow.open_head else "normal",
                   tail="normal" if arrow.both_heads else "none", label=label, autonumber=number)


def _groups(texts: list[tuple[GroupKind, str, list[str]]],
            order: list[tuple[EventKind, int]]) -> tuple[Group, ...]:
    """The group frames from their (kind, label, else labels), each branch holding the
    messages that `order` places in it, each group its enclosing one."""
    branches: list[list[list[int]]] = [[[] for _ in range(1 + len(e))] for _, _, e in texts]
    parents: list[int | None] = [None] * len(texts)
    current = [0] * len(texts)  # the branch each group is in
    open_groups: list[int] = []
    for kind, k in order:
        if kind == "group_start":
            parents[k] = open_groups[-1] if open_groups else None
            open_groups.append(k)
        elif kind == "else":
            current[k] += 1
        elif kind == "group_end":
            open_groups.remove(k)
        elif kind == "message" and open_groups:
            g = open_groups[-1]
            branches[g][current[g]].append(k)
    return tuple(
        Group(kind, tuple(Branch(text, tuple(messages)) for text, messages
                          in zip([label, *else_labels], branches[g], strict=True)), parents[g])
        for g, (kind, label, else_labels) in enumerate(texts))


def _note(rect: Rect, text: str, layout: Layout, ids: list[str]) -> Note:
    """A note `right of`/`left of` a lifeline just beside it, else `over` the ones under it."""
    xs = [line.x for line in layout.lifelines]
    right = [k for k, x in enumerate(xs) if 0 < rect.x0 - x <= 12]
    left = [k for k, x in enumerate(xs) if 0 < x - rect.x1 <= 12]
    over = [k for k, x in enumerate(xs) if rect.x0 < x < rect.x1]
    if right:
        return Note("right", (ids[right[0]],), text)
    if left:
        return Note("left", (ids[left[0]],), text)
    if over:
        return Note("over", tuple(dict.fromkeys([ids[over[0]], ids[over[-1]]])), text)
    nearest = min(range(len(xs)), key=lambda k: abs(xs[k] - (rect.x0 + rect.x1) / 2))
    return Note("right" if xs[nearest] < rect.x0 else "left", (ids[nearest],), text)
