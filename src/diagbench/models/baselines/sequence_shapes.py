"""Rectangles of a sequence diagram image: notes, group frames and `box` backgrounds."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import ndimage

NOTE_FILL = (254, 255, 221)
#: Fills that are drawing elements, never a `box` background.
ELEMENT_FILLS = {(226, 226, 240), NOTE_FILL, (238, 238, 238), (255, 255, 255)}
INK = 150  # grey level under which a pixel belongs to a line
BLACK = 100  # grey level of solid strokes (lines, frames, filled heads)


@dataclass(frozen=True, slots=True)
class Rect:
    """A box in pixel coordinates, ends included."""

    x0: int
    y0: int
    x1: int
    y1: int

    def holds(self, x: float, y: float) -> bool:
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1


@dataclass(slots=True)
class Frame:
    """A group frame and the rows of its `else` separators."""

    rect: Rect
    else_rows: list[int] = field(default_factory=list)


def colour_mask(rgb: np.ndarray, colour: tuple[int, int, int], tol: int = 6) -> np.ndarray:
    """Pixels within `tol` of `colour` in every channel."""
    return np.all(np.abs(rgb.astype(np.int16) - np.array(colour, np.int16)) <= tol, axis=2)


def components(mask: np.ndarray) -> list[tuple[Rect, int]]:
    """Bounding boxes and pixel counts of the 8-connected parts of a mask."""
    labels, n = ndimage.label(mask, structure=np.ones((3, 3)))
    if not n:
        return []
    sizes = ndimage.sum_labels(mask, labels, np.arange(1, n + 1))
    return [(Rect(s[1].start, s[0].start, s[1].stop - 1, s[0].stop - 1), int(size))
            for s, size in zip(ndimage.find_objects(labels), sizes, strict=True)]


def find_notes(rgb: np.ndarray) -> list[Rect]:
    """Pale-yellow note boxes."""
    return [rect for rect, size in components(colour_mask(rgb, NOTE_FILL, 10))
            if rect.x1 - rect.x0 >= 15 and rect.y1 - rect.y0 >= 10
            and size >= 0.4 * (rect.x1 - rect.x0 + 1) * (rect.y1 - rect.y0 + 1)]


def find_frames(grey: np.ndarray, body: tuple[int, int]) -> list[Frame]:
    """Group frames: black rectangles inside the body, with their `else` separators."""
    black = grey < BLACK
    black[:body[0]] = False
    black[body[1]:] = False
    frames = []
    for rect, _ in components(black):
        w, h = rect.x1 - rect.x0 + 1, rect.y1 - rect.y0 + 1
        if w < 40 or h < 20:
            continue
        sides = (black[rect.y0:rect.y0 + 2, rect.x0:rect.x1 + 1].any(axis=0).mean(),
                 black[rect.y1 - 1:rect.y1 + 1, rect.x0:rect.x1 + 1].any(axis=0).mean(),
                 black[rect.y0:rect.y1 + 1, rect.x0:rect.x0 + 2].any(axis=1).mean(),
                 black[rect.y0:rect.y1 + 1, rect.x1 - 1:rect.x1 + 1].any(axis=1).mean())
        if min(sides) < 0.95:
            continue
        frames.append(Frame(rect, _else_rows(grey, rect)))
    return sorted(frames, key=lambda f: (f.rect.y0, f.rect.x0))


def _else_rows(grey: np.ndarray, rect: Rect) -> list[int]:
    """Rows of dashed separators running the whole width of a frame."""
    inner = grey[rect.y0 + 18:rect.y1 - 3, rect.x0 + 3:rect.x1 - 2]
    if inner.size == 0:
        return []
    ink = ndimage.binary_closing(inner < INK, structure=np.ones((1, 4), bool))
    dark = (inner < BLACK).mean(axis=1)
    rows = [rect.y0 + 18 + k for k in np.flatnonzero(ink.mean(axis=1) > 0.97).tolist()
            if 0.15 < dark[k] < 0.6]
    return [r for k, r in enumerate(rows) if k == 0 or r - rows[k - 1] > 2]


def find_boxes(rgb: np.ndarray, span: tuple[int, int]) -> list[tuple[Rect, tuple[int, int, int]]]:
    """`box` backgrounds (rect, colour): big one-colour rectangles over most of `span` (rows)."""
    binned = rgb[::4, ::4].reshape(-1, 3) // 8 * 8 + 4  # bins absorb JPEG noise
    colours, counts = np.unique(binned, axis=0, return_counts=True)
    found: list[tuple[Rect, tuple[int, int, int]]] = []
    for colour, count in zip(colours, counts, strict=True):
        if count < 200 or min(colour) < 120 or any(
                np.abs(colour - np.array(fill)).max() <= 10 for fill in ELEMENT_FILLS):
            continue
        mask = colour_mask(rgb, tuple(colour), 8)  # closed: lifelines and lines cut it
        for rect, size in components(ndimage.binary_closing(mask, np.ones((5, 5), bool)) | mask):
            w, h = rect.x1 - rect.x0 + 1, rect.y1 - rect.y0 + 1
            if (w < 20 or h < 0.6 * (span[1] - span[0]) or size < 0.4 * w * h
                    or any(abs(rect.x0 - r.x0) + abs(rect.x1 - r.x1) < 10 for r, _ in found)):
                continue
            inside = mask[rect.y0:rect.y1 + 1, rect.x0:rect.x1 + 1]
            pixels = rgb[rect.y0:rect.y1 + 1, rect.x0:rect.x1 + 1][inside]
            red, green, blue = (int(c) for c in np.median(pixels, axis=0))
            found.append((rect, (red, green, blue)))
    return sorted(found, key=lambda b: b[0].x0)
