"""Read a PNG of a PlantUML sequence diagram back into a PlantUML script, offline.

The shapes come from `sequence_geometry` (classical image analysis), the words from
RapidOCR; each line of text is given to the shape it belongs to: a participant head,
a note, a group frame's tab, a box title, the title, or the message line below it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

import numpy as np

from diagbench.diagram.sequence import GROUP_KINDS
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
    return _Reading(layout, texts).script()


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
    if len(labels) < 2 or sum(bool(m) and int(m.group(1)) == k + 1
                              for k, m in enumerate(plain)) <= len(labels) / 2:
        return labels, False
    numbered = [_NUMBER.fullmatch(label) for label in labels]
    return [m.group(2) if m and int(m.group(1)) == k + 1 else label
            for k, (m, label) in enumerate(zip(numbered, labels, strict=True))], True


def _quote(text: str) -> str:
    return text.replace('"', "'")


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
    """Gives every text box to one shape, then writes the script."""

    def __init__(self, layout: Layout, texts: list[TextBox]) -> None:
        self.layout = layout
        self.free = list(texts)

    def take(self, test: Callable[[TextBox], bool]) -> list[TextBox]:
        """Remove and return the free text boxes that pass `test`."""
        taken = [t for t in self.free if test(t)]
        self.free = [t for t in self.free if not test(t)]
        return taken

    def script(self) -> str:
        lay = self.layout
        notes = [(rect, _join(self.take(lambda t, r=rect: r.holds(t.cx, t.cy)), "\n"))
                 for rect in lay.notes]
        frames = [(frame, self._frame_texts(frame)) for frame in lay.frames]
        names = self._names()
        boxes = [(rect, colour, _join(self.take(
            lambda t, r=rect: r.holds(t.cx, t.cy) and t.cy < lay.heads_top)))
            for rect, colour in lay.boxes]
        title = _join(self.take(lambda t: t.y1 < lay.heads_top + 4))
        labels, autonumber = strip_autonumber(self._labels())
        lines = ["@startuml"] + ([f"title {title}"] if title else [])
        lines += ["autonumber"] if autonumber else []
        lines += self._participants(names, boxes)
        ids = self.ids
        events: list[tuple[float, int, list[str]]] = []
        for arrow, label in zip(lay.arrows, labels, strict=True):
            events.append((arrow.label_y, 1, [_message(arrow, label, ids)]))
        for rect, text in notes:
            events.append((rect.y0, 1, _note(rect, text, lay, ids)))
        for frame, (kind, label, else_labels) in frames:
            events.append((frame.rect.y0, 0, [f"{kind} {label}".strip()]))
            for row, text in zip(frame.else_rows, else_labels, strict=True):
                events.append((row, 0, [f"else {text}".strip()]))
            events.append((frame.rect.y1, 2, ["end"]))
        for _, _, event in sorted(events, key=lambda e: (e[0], e[1])):
            lines += event
        return "\n".join([*lines, "@enduml"]) + "\n"

    def _frame_texts(self, frame: Frame) -> tuple[str, str, list[str]]:
        """(kind, label, else labels) of a group frame, from its tab and separators."""
        r = frame.rect
        top = sorted(self.take(lambda t: r.x0 - 2 <= t.x0 and t.x1 <= r.x1 + 2
                               and r.y0 - 4 <= t.cy <= r.y0 + 14), key=lambda t: t.x0)
        else_labels = []
        for row in frame.else_rows:
            found = self.take(lambda t, y=row: y <= t.cy <= y + 14 and t.x0 <= r.x0 + 20)
            else_labels.append(_join(found).strip("[] "))
        if not top:
            return "group", "", else_labels
        tab = tidy(top[0].text)
        rest = " ".join(tidy(t.text) for t in top[1:])
        match = _TAB.fullmatch(tab)
        if match and match.group(1).lower() in GROUP_KINDS and match.group(1).lower() != "group":
            condition = " ".join(filter(None, [match.group(2), rest]))
            return match.group(1).lower(), condition.strip("[] "), else_labels
        return "group", " ".join(filter(None, [tab, rest])).strip("[] "), else_labels

    def _names(self) -> list[str]:
        """The displayed name of each participant (read at the top, else in the footbox)."""
        names = []
        for line in self.layout.lifelines:
            top = _name_area(line.head, line.actor, True)
            found = self.take(lambda t, r=top: r.holds(t.cx, t.cy))
            spare = []
            if line.foot is not None:
                foot = _name_area(line.foot, line.actor, False)
                spare = self.take(lambda t, r=foot: r.holds(t.cx, t.cy))
            names.append(_join(found or spare))
        return names

    def _participants(self, names: list[str], boxes: list[tuple[Rect, tuple, str]]) -> list[str]:
        """Participant declarations left to right, wrapped in their boxes; sets `self.ids`."""
        self.ids: list[str] = []
        lines = []
        open_box: Rect | None = None
        for k, (line, name) in enumerate(zip(self.layout.lifelines, names, strict=True)):
            box = next(((r, c, t) for r, c, t in boxes if r.x0 < line.x < r.x1), None)
            if open_box is not None and (box is None or box[0] != open_box):
                lines.append("end box")
                open_box = None
            if box is not None and open_box is None:
                default = max(abs(c - 221) for c in box[1]) <= 8  # PlantUML's #DDDDDD
                colour = "" if default else " #{:02X}{:02X}{:02X}".format(*box[1])
                lines.append(f'box "{_quote(box[2])}"{colour}')
                open_box = box[0]
            keyword = "actor" if line.actor else "participant"
            if _IDENTIFIER.fullmatch(name) and name not in self.ids:
                self.ids.append(name)
                lines.append(f"{keyword} {name}")
            else:
                self.ids.append(f"P{k + 1}")
                lines.append(f'{keyword} "{_quote(name) or f"P{k + 1}"}" as P{k + 1}')
        return lines + (["end box"] if open_box is not None else [])

    def _labels(self) -> list[str]:
        """Each arrow's label: the text stacked just above its line."""
        labels = []
        for arrow in self.layout.arrows:
            lo, hi = min(arrow.x0, arrow.x1) - 15, max(arrow.x0, arrow.x1)
            y = arrow.label_y
            stack = self.take(lambda t, y=y, lo=lo, hi=hi: y - 16 <= t.cy <= y - 2
                              and lo <= t.x0 <= hi)
            while stack:
                top = min(t.y0 for t in stack)
                more = self.take(lambda t, top=top, lo=lo, hi=hi: top - 12 <= t.y1 <= top + 4
                                 and lo <= t.x0 <= hi)
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


def _message(arrow: Arrow, label: str, ids: list[str]) -> str:
    body = "--" if arrow.dotted else "-"
    head = ">>" if arrow.open_head else ">"
    tail = "<" if arrow.both_heads else ""
    text = f"{ids[arrow.sender]} {tail}{body}{head} {ids[arrow.receiver]}"
    return f"{text} : {label}" if label else text


def _note(rect: Rect, text: str, layout: Layout, ids: list[str]) -> list[str]:
    """A note's lines: `right of`/`left of` a lifeline just beside it, else `over` the ones
    under it."""
    xs = [line.x for line in layout.lifelines]
    right = [k for k, x in enumerate(xs) if 0 < rect.x0 - x <= 12]
    left = [k for k, x in enumerate(xs) if 0 < x - rect.x1 <= 12]
    over = [k for k, x in enumerate(xs) if rect.x0 < x < rect.x1]
    if right:
        where = f"right of {ids[right[0]]}"
    elif left:
        where = f"left of {ids[left[0]]}"
    elif over:
        where = "over " + ", ".join(dict.fromkeys([ids[over[0]], ids[over[-1]]]))
    else:
        nearest = min(range(len(xs)), key=lambda k: abs(xs[k] - (rect.x0 + rect.x1) / 2))
        where = f"{'right' if xs[nearest] < rect.x0 else 'left'} of {ids[nearest]}"
    if "\n" not in text:
        return [f"note {where} : {text}" if text else f"note {where}"]
    return [f"note {where}", *text.splitlines(), "end note"]
