"""The shapes of a PlantUML sequence diagram (default skin), found in its pixels.

Participant heads are the #E2E2F0 boxes (or actor heads) drawn once at the top and
once in the footbox; lifelines run down from their centres. Messages are 1 px
horizontal lines from lifeline to lifeline with an arrowhead at the receiver's end;
notes are pale-yellow boxes; groups are black frames; `box` is a large background
rectangle of one colour.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import ndimage

from diagbench.models.baselines.sequence_shapes import (
    BLACK,
    INK,
    Frame,
    Rect,
    colour_mask,
    components,
    find_boxes,
    find_frames,
    find_notes,
)

HEAD_FILL = (226, 226, 240)
_SNAP = 7  # px between a line's end and the lifeline it belongs to
_ROW = np.array([[0, 0, 0], [1, 1, 1], [0, 0, 0]])


@dataclass(frozen=True, slots=True)
class Lifeline:
    """One participant: its lifeline's x, its head shape, and whether it is an actor."""

    x: int
    head: Rect
    foot: Rect | None
    actor: bool


@dataclass(frozen=True, slots=True)
class Arrow:
    """One message line: its row, its lifelines (indices) and how it is drawn."""

    y: int
    x0: int
    x1: int
    sender: int
    receiver: int
    dotted: bool
    open_head: bool
    both_heads: bool = False
    label_y: int = 0  # the row its label sits on (the upper stroke of a self-message)


@dataclass(slots=True)
class Layout:
    """Everything found in one image."""

    lifelines: list[Lifeline]
    arrows: list[Arrow]
    notes: list[Rect]
    frames: list[Frame]
    boxes: list[tuple[Rect, tuple[int, int, int]]]
    heads_top: int
    body: tuple[int, int]


def _heads(rgb: np.ndarray) -> list[tuple[Rect, bool]]:
    """Participant boxes and actor heads (rect, is_actor), top and footbox alike."""
    mask = colour_mask(rgb, HEAD_FILL, 10)  # JPEG shifts colours a little
    shapes = []
    for rect, size in components(mask):
        w, h = rect.x1 - rect.x0 + 1, rect.y1 - rect.y0 + 1
        if w < 10 or h < 10 or size < 0.5 * w * h:
            continue
        corners = [mask[y - 1:y + 2, x - 1:x + 2].mean() > 0.5  # 3×3 patches: JPEG noise
                   for y in (rect.y0 + 2, rect.y1 - 2) for x in (rect.x0 + 2, rect.x1 - 2)]
        round_ = not any(corners) and abs(w - h) <= 3 and w <= 40
        if round_ or (w >= 15 and h >= 15 and sum(corners) >= 3):
            shapes.append((rect, round_))
    return shapes


def find_lifelines(rgb: np.ndarray, grey: np.ndarray) -> list[Lifeline]:
    """The participants left to right: head shapes grouped by centre x."""
    columns: dict[int, list[tuple[Rect, bool]]] = {}
    for rect, actor in sorted(_heads(rgb), key=lambda s: s[0].y0):
        cx = (rect.x0 + rect.x1) // 2
        key = next((k for k in columns if abs(k - cx) <= 3), cx)
        columns.setdefault(key, []).append((rect, actor))
    if not columns:
        return []
    top = min(shapes[0][0].y0 for shapes in columns.values())
    highest_bottom = min(shapes[0][0].y1 for shapes in columns.values())
    lifelines = []
    for cx, shapes in sorted(columns.items()):
        head, actor = shapes[0]
        if head.y0 > highest_bottom + 40 and head.y0 > top + 80:
            continue  # a stray shape, not a participant head
        foot = shapes[-1][0] if len(shapes) > 1 else None
        lifelines.append(Lifeline(_lifeline_x(grey, head, foot, cx), head, foot, actor))
    return lifelines


def _lifeline_x(grey: np.ndarray, head: Rect, foot: Rect | None, cx: int) -> int:
    """The column of the dashed lifeline near `cx` (the column with the most ink)."""
    y0, y1 = head.y1 + 70, (foot.y0 if foot else grey.shape[0]) - 5
    x0, x1 = max(cx - 3, 0), min(cx + 4, grey.shape[1])
    if y1 - y0 < 10:
        return cx
    ink = (grey[y0:y1, x0:x1] < 215).sum(axis=0)
    return x0 + int(np.argmax(ink))


def _snap(x: int, lifelines: list[Lifeline]) -> int | None:
    """The lifeline within reach of column x, or None."""
    best = min(range(len(lifelines)), key=lambda k: abs(lifelines[k].x - x))
    return best if abs(lifelines[best].x - x) <= _SNAP else None


def _head_at(grey: np.ndarray, y: int, tip: int, step: int, skip: int) -> tuple[bool, bool]:
    """(arrowhead present, open) for a head whose tip is at column `tip` pointing `step`."""
    xs = [tip - step * d for d in range(1, 11)]
    xs = [x for x in xs if 0 <= x < grey.shape[1] and abs(x - skip) > 1]
    if not xs or y < 6 or y + 6 >= grey.shape[0]:
        return False, False
    above = (grey[y - 4:y, xs] < INK).sum()
    below = (grey[y + 1:y + 5, xs] < INK).sum()
    if min(above, below) < 5:
        return False, False
    inner = [tip - step * d for d in range(3, 10)]
    depth = (grey[y - 6:y + 7, inner] < BLACK).sum() - (grey[y, inner] < BLACK).sum()
    return True, bool(depth < 2 * len(inner))  # two strokes: about 2 px per column


def _runs(ink: np.ndarray, min_len: int) -> list[tuple[int, int, int]]:
    """Horizontal runs (row, x0, x1) of at least `min_len` px in a mask."""
    labels, _ = ndimage.label(ink, structure=_ROW)
    runs = []
    for s in ndimage.find_objects(labels):
        if s is not None and s[1].stop - s[1].start >= min_len:
            runs.append((s[0].start, s[1].start, s[1].stop - 1))
    return runs


def _thin(ink: np.ndarray, y: int, x0: int, x1: int) -> bool:
    """Whether the run at row y is a 1 px line: the rows 2 px away are mostly blank."""
    if y < 2 or y + 2 >= ink.shape[0] or x1 - x0 < 24:
        return True
    inner = slice(x0 + 12, x1 - 11)
    return ink[y - 2, inner].mean() < 0.5 and ink[y + 2, inner].mean() < 0.5


def find_arrows(grey: np.ndarray, lifelines: list[Lifeline], body: tuple[int, int]) -> list[Arrow]:
    """Every message line between body[0] and body[1], top to bottom."""
    raw = grey < INK
    ink = ndimage.binary_closing(raw, structure=np.ones((1, 4), bool))
    ink[:body[0]] = False
    ink[body[1]:] = False
    arrows = []
    taken: set[int] = set()
    for y, x0, x1 in sorted(_runs(ink, 20)):
        if y in taken or not _thin(ink, y, x0, x1):
            continue
        arrow = _arrow(grey, raw, lifelines, y, x0, x1)
        if arrow is not None:
            arrows.append(arrow)
            taken.update((arrow.label_y, arrow.y))
    return sorted(arrows, key=lambda a: a.y)


def _arrow(grey: np.ndarray, raw: np.ndarray, lifelines: list[Lifeline], y: int, x0: int,
           x1: int) -> Arrow | None:
    """The message drawn by the run (y, x0, x1), if it is one."""
    left, right = _snap(x0, lifelines), _snap(x1, lifelines)
    lx = lifelines[left].x if left is not None else -10
    rx = lifelines[right].x if right is not None else -10
    head_l, open_l = _head_at(grey, y, x0, -1, lx)
    head_r, open_r = _head_at(grey, y, x1, 1, rx)
    middle = grey[y, x0 + 12:x1 - 11] if x1 - x0 > 30 else grey[y, x0:x1 + 1]
    dotted = bool((middle < BLACK).mean() < 0.75)
    if left is not None and head_l and right is None:  # the lower stroke of a self-message
        top = _loop_top(raw, y, x0, x1)
        if top is None:
            return None
        return Arrow(y, x0, x1, left, left, dotted, open_l, label_y=top)
    if left is None or right is None or left == right or not (head_l or head_r):
        return None
    if head_r:
        return Arrow(y, x0, x1, left, right, dotted, open_r, both_heads=head_l, label_y=y)
    return Arrow(y, x0, x1, right, left, dotted, open_l, label_y=y)


def _loop_top(raw: np.ndarray, y: int, x0: int, x1: int) -> int | None:
    """The row of the upper stroke of a self-message whose lower stroke is (y, x0, x1)."""
    for top in range(y - 6, max(y - 40, 0), -1):
        if raw[top, x0 + 2:x1 - 1].mean() > 0.9:
            column = raw[top:y + 1, max(x1 - 2, 0):x1 + 1].any(axis=1)
            return top if column.all() else None
    return None


def analyse(rgb: np.ndarray) -> Layout:
    """Find the participants, messages, notes, groups and boxes of a diagram image."""
    grey = rgb.astype(np.float32).mean(axis=2)
    lifelines = find_lifelines(rgb, grey)
    if not lifelines:
        return Layout([], [], [], [], [], 0, (0, 0))
    heads_top = min(line.head.y0 for line in lifelines)
    top = max(line.head.y1 + (60 if line.actor else 0) for line in lifelines) + 1
    feet = [line.foot.y0 for line in lifelines if line.foot is not None]
    bottom = min(feet) - 2 if feet else grey.shape[0]
    body = (top, bottom)
    return Layout(lifelines, find_arrows(grey, lifelines, body), find_notes(rgb),
                  find_frames(grey, body), find_boxes(rgb, (heads_top, bottom)),
                  heads_top, body)


def _erase_head(out: np.ndarray, y: int, tip: int, step: int) -> None:
    """Whiten the wedge of an arrowhead whose tip is at (y, tip), pointing `step`."""
    for d in range(-1, 15):
        x = tip - step * d
        if 0 <= x < out.shape[1]:
            half = min(int(max(d, 0) * 0.5 + 2.5), 7)
            out[max(y - half, 0):y + half + 1, x] = 255


def without_lines(rgb: np.ndarray, layout: Layout) -> np.ndarray:
    """A copy of the image with lifelines, message lines and arrowheads whitened (for OCR)."""
    out = rgb.copy()
    grey = rgb.astype(np.float32).mean(axis=2)
    top, bottom = layout.body
    for line in layout.lifelines:
        x = line.x
        if 0 < x < grey.shape[1] - 1:
            left, mid, right = (grey[top:bottom, x + k] for k in (-1, 0, 1))
            lone = (np.abs(left - right) < 12) & (np.minimum(left, right) - mid > 25)
            out[top:bottom, x][lone] = rgb[top:bottom, x - 1][lone]  # the background beside
    for arrow in layout.arrows:
        out[arrow.y, arrow.x0:arrow.x1 + 1] = 255
        if arrow.label_y != arrow.y:  # a self-message: upper stroke and its right side
            out[arrow.label_y, arrow.x0:arrow.x1 + 1] = 255
            out[arrow.label_y:arrow.y + 1, max(arrow.x1 - 2, 0):arrow.x1 + 2] = 255
            _erase_head(out, arrow.y, arrow.x0, -1)
            continue
        to_right = layout.lifelines[arrow.receiver].x > layout.lifelines[arrow.sender].x
        _erase_head(out, arrow.y, arrow.x1 if to_right else arrow.x0, 1 if to_right else -1)
        if arrow.both_heads:
            _erase_head(out, arrow.y, arrow.x0 if to_right else arrow.x1, -1 if to_right else 1)
    return out
