"""The class boxes of a PlantUML class diagram (default skin), found by image analysis.

A box is a large region of PlantUML's box fill colour; its icon, the circled letter left of
the name, is the largest coloured disc in it. The icon's size gives the image's scale.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
from scipy import ndimage

BOX_FILL = 241  # grey level of PlantUML's default class box fill (#F1F1F1)
_FILL_TOLERANCE = 6
DARK = 200  # darker than this is a line: a box border, an icon's outline
_ICON_DIAMETER = 22  # px at 1×: the circled "C" left of a class name
_BOX_HEIGHT = 33  # px at 1×: a class box showing only its name
_SEAM = 8  # px: how far outside its fill a resized box's border line may be


@dataclass(frozen=True)
class Box:
    """A class box: its border line's bounds, inclusive, and the column where its name's text
    may start (right of its icon)."""

    x0: int
    y0: int
    x1: int
    y1: int
    text_x0: int

    def distance(self, y: float, x: float) -> float:
        """Euclidean distance from a point (row, column) to this box's rectangle."""
        dx = max(self.x0 - x, 0.0, x - self.x1)
        dy = max(self.y0 - y, 0.0, y - self.y1)
        return float(np.hypot(dx, dy))


def find_boxes(rgb: np.ndarray) -> tuple[list[Box], float]:
    """The class boxes, top to bottom, and the image's scale relative to a 1× render."""
    grey = rgb.mean(axis=2)
    spread = rgb.max(axis=2).astype(np.int16) - rgb.min(axis=2)
    fill = (np.abs(grey - BOX_FILL) <= _FILL_TOLERANCE) & (spread <= _FILL_TOLERANCE)
    colour = spread > 25
    boxes, icons = [], []
    for y0, x0, y1, x1 in _fill_regions(fill):
        found = np.s_[y0:y1 + 1, x0:x1 + 1]
        h, w = y1 - y0 + 1, x1 - x0 + 1
        if h < 15 or w < 20 or fill[found].sum() < 0.2 * h * w:
            continue
        icon = _icon(colour[found], grey[found])
        if icon is not None:
            icons.append(icon[0])
        top, left, bottom, right = _outline(grey, y0, x0, y1, x1)
        boxes.append(Box(left, top, right, bottom, x0 + (icon[1] if icon is not None else 0)))
    if icons:
        scale = float(np.median(icons)) / _ICON_DIAMETER
    else:
        scale = min((b.y1 - b.y0 + 1 for b in boxes), default=_BOX_HEIGHT) / _BOX_HEIGHT
    return sorted(boxes, key=lambda b: (b.y0, b.x0)), max(scale, 0.5)


def _fill_regions(fill: np.ndarray) -> list[list[int]]:
    """Bounds (y0, x0, y1, x1, inclusive) of fill areas, those that overlap merged: resizing
    can split one box's fill where its text comes close to the border."""
    labels, _ = ndimage.label(fill)
    regions = [[s[0].start, s[1].start, s[0].stop - 1, s[1].stop - 1]
               for s in ndimage.find_objects(labels)
               if (s[0].stop - s[0].start) * (s[1].stop - s[1].start) >= 40]
    merged = True
    while merged:
        merged = False
        for r, q in itertools.combinations(regions, 2):
            if r[0] <= q[2] + 1 and q[0] <= r[2] + 1 and r[1] <= q[3] + 1 and q[1] <= r[3] + 1:
                r[:] = [min(r[0], q[0]), min(r[1], q[1]), max(r[2], q[2]), max(r[3], q[3])]
                regions.remove(q)
                merged = True
                break
    return regions


def _outline(grey: np.ndarray, y0: int, x0: int, y1: int, x1: int) -> tuple[int, ...]:
    """A box's border line around its fill bounds: resizing can leave a bright seam between."""
    rows = (y0 + y1) // 2 + np.array([-1, 0, 1]) * ((y1 - y0) // 4)
    cols = (x0 + x1) // 2 + np.array([-1, 0, 1]) * ((x1 - x0) // 4)
    sides = (
        [grey[max(y0 - _SEAM, 0):y0, c][::-1] for c in cols],
        [grey[r, max(x0 - _SEAM, 0):x0][::-1] for r in rows],
        [grey[y1 + 1:y1 + 1 + _SEAM, c] for c in cols],
        [grey[r, x1 + 1:x1 + 1 + _SEAM] for r in rows],
    )
    steps = []
    for profiles in sides:
        found = []
        for profile in profiles:
            dark = np.flatnonzero(profile < DARK)
            if len(dark):  # the darkest of the first two dark pixels
                found.append(dark[0] + int(np.argmin(profile[dark[0]:dark[0] + 2])) + 1)
        steps.append(int(np.median(found)) if found else 1)
    return y0 - steps[0], x0 - steps[1], y1 + steps[2], x1 + steps[3]


def _icon(colour: np.ndarray, grey: np.ndarray) -> tuple[int, int] | None:
    """The width of the largest coloured disc in a box (its icon), and the first column
    right of the disc's dark outline."""
    labels, count = ndimage.label(colour)
    if not count:
        return None
    sizes = ndimage.sum(colour, labels, range(1, count + 1))
    best = int(np.argmax(sizes)) + 1
    if sizes[best - 1] < 30:
        return None
    rows, cols = (np.flatnonzero((labels == best).any(axis=k)) for k in (1, 0))
    right = int(cols[-1]) + 1
    light = np.flatnonzero(grey[(rows[0] + rows[-1]) // 2, right:] >= DARK)
    return right - int(cols[0]), right + (int(light[0]) if len(light) else 0)
