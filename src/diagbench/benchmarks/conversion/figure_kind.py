"""Does a figure look like a sequence diagram? Lifelines and arrows, found in its pixels.

A sequence diagram has at least two lifelines — long vertical lines, solid or dashed,
inside its drawing — and horizontal lines (messages) that start and end on them. A
table has long vertical lines too, but its horizontal rules run across all of them: so
a figure whose horizontal lines mostly span every lifeline is not taken. The thresholds
are fractions of the drawing's size; their precision and recall on rendered diagrams of
other kinds are measured by tests/test_conversion_extract.py (README: `extract`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image
from scipy import ndimage

#: The longest side a figure is looked at (larger ones are scaled down first).
_SIDE = 1600
_INK = 200  # grey levels below this are ink (anti-aliased 1 px lines are light)
LIFELINE_SHARE = 0.45  # a lifeline's segments cover this share of the drawing's height
SEGMENT_SHARE = 0.08  # a segment of a vertical line is at least this share of it
MESSAGE_SHARE = 0.06  # a message line is at least this share of the drawing's width
SPAN_LIMIT = 0.7  # above this share of messages across all lifelines, a table


@dataclass(frozen=True, slots=True)
class Evidence:
    """What was found: lifelines, message lines, and how many of those span them all."""

    lifelines: int
    messages: int
    spanning: int

    @property
    def sequence(self) -> bool:
        if self.lifelines < 2 or self.messages < 2:
            return False
        return self.lifelines == 2 or self.spanning <= SPAN_LIMIT * self.messages


def _lines(flags: np.ndarray, gap: int = 3) -> list[tuple[int, int]]:
    """Runs of consecutive True indices, merged across gaps of up to `gap`: (first, last)."""
    found: list[tuple[int, int]] = []
    for k in np.flatnonzero(flags).tolist():
        if found and k - found[-1][1] <= gap:
            found[-1] = (found[-1][0], k)
        else:
            found.append((k, k))
    return found


def _long_segments(ink: np.ndarray) -> np.ndarray:
    """The ink that belongs to vertical runs at least SEGMENT_SHARE of the height long (a
    lifeline is broken by the notes, frames and delays drawn across it; text is made of
    short runs)."""
    labels, _ = ndimage.label(ink, structure=np.array([[0, 1, 0]] * 3))
    sizes = np.bincount(labels.ravel())
    sizes[0] = 0
    return sizes[labels] >= max(20, SEGMENT_SHARE * ink.shape[0])


def evidence(image: Image.Image) -> Evidence:
    """Lifelines and message lines of `image`."""
    grey = image.convert("L")
    if max(grey.size) > _SIDE:
        grey.thumbnail((_SIDE, _SIDE))
    ink = np.asarray(grey) < _INK
    rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    if rows.size == 0:
        return Evidence(0, 0, 0)
    ink = ink[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]
    height, width = ink.shape
    # dashes bridged along each direction
    down = ndimage.binary_closing(ink, np.ones((max(9, height // 60), 1), bool))
    across = ndimage.binary_closing(ink, np.ones((1, max(9, width // 60)), bool))
    edge = max(2, width // 100)  # a frame's sides are not lifelines
    segments = _long_segments(down)
    # each lifeline: the columns it spans (with the activation bars drawn over it, which
    # hide it) and the rows its segments run over
    spans = []
    for a, b in _lines(np.asarray(segments.any(axis=0)), gap=max(3, width // 150)):
        rows_covered = np.flatnonzero(segments[:, a:b + 1].any(axis=1))
        narrow = b - a <= max(12, width // 50)  # a line, or a line and its bars
        if narrow and a >= edge and b < width - edge \
                and rows_covered.size >= LIFELINE_SHARE * height:
            spans.append((a, b, rows_covered[0], rows_covered[-1]))
    found = np.array(spans, dtype=np.int64).reshape(-1, 4)
    sides = _box_sides(ink, found, max(4.0, 0.02 * height))
    lifelines = np.delete(found, sorted(sides), axis=0)
    if len(lifelines) < 2:
        return Evidence(len(lifelines), 0, 0)
    tolerance = max(11.0, 0.01 * width)  # a message ends on its lifelines (or a cross)
    messages = spanning = 0
    for first, last in _lines(_message_rows(across, width, lifelines, tolerance)):
        messages += 1
        covered = np.asarray(across[first:last + 1].any(axis=0))
        spanning += _spans_all(covered, lifelines, tolerance)
    return Evidence(len(lifelines), messages, spanning)


def _box_sides(ink: np.ndarray, lines: np.ndarray, inset: float) -> set[int]:
    """The vertical lines (rows of `lines`: first column, last column, top, bottom) that
    are the sides of a box, a frame or a table: two of them joined by one horizontal line
    at their tops and by another at their bottoms (lifelines meet their own participants'
    boxes at both ends, and at most one note drawn across them at one end)."""
    sides: set[int] = set()
    for i, j in itertools.combinations(range(len(lines)), 2):
        left, right = int(lines[i][1]), int(lines[j][0]) + 1
        if all(_joined(ink, lines[i][end], lines[j][end], left, right, inset)
               for end in (2, 3)):
            sides |= {i, j}
    return sides


def _joined(ink: np.ndarray, a: int, b: int, left: int, right: int, inset: float) -> bool:
    """Whether one horizontal line joins columns `left` and `right` near rows a and b."""
    if abs(a - b) > inset:
        return False
    rows = range(max(0, int(min(a, b) - inset)), min(ink.shape[0], int(max(a, b) + inset) + 1))
    return any(ink[y, left:right].all() for y in rows)


def _message_rows(across: np.ndarray, width: int, lifelines: np.ndarray,
                  tolerance: float) -> np.ndarray:
    """Which rows hold a horizontal line from one lifeline to another (ending on its
    columns, within `tolerance`), crossing both between their ends (a frame's top and
    bottom sides meet its sides at their ends)."""
    flags = np.zeros(across.shape[0], bool)
    padded = np.hstack([np.zeros((across.shape[0], 1), bool), across,
                        np.zeros((across.shape[0], 1), bool)])
    edges = np.diff(padded.astype(np.int8), axis=1)
    inset = max(4.0, 0.02 * across.shape[0])
    lo, hi = lifelines[:, 0] - tolerance, lifelines[:, 1] + tolerance
    for row in np.flatnonzero(across.sum(axis=1) >= MESSAGE_SHARE * width).tolist():
        inside = (lifelines[:, 2] + inset < row) & (row < lifelines[:, 3] - inset)
        starts = np.flatnonzero(edges[row] == 1)
        ends = np.flatnonzero(edges[row] == -1) - 1
        for x0, x1 in zip(starts.tolist(), ends.tolist(), strict=True):
            at0 = np.flatnonzero((lo <= x0) & (x0 <= hi) & inside)
            at1 = np.flatnonzero((lo <= x1) & (x1 <= hi) & inside)
            if x1 - x0 >= MESSAGE_SHARE * width and at0.size and at1.size \
                    and at0[0] != at1[-1]:
                flags[row] = True
                break
    return flags


def _spans_all(row: np.ndarray, lifelines: np.ndarray, tolerance: float) -> bool:
    """Whether a line covers the whole stretch from the first lifeline to the last."""
    first, last = int(lifelines[0][1] + tolerance), int(lifelines[-1][0] - tolerance)
    return bool(row[first:last + 1].all()) if last > first else False


def looks_like_sequence(path: Path) -> bool:
    """Whether the image at `path` looks like a sequence diagram (`Evidence.sequence`)."""
    with Image.open(path) as image:
        return evidence(image).sequence
