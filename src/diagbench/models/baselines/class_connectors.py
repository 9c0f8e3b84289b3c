"""The connectors between class boxes of a PlantUML class diagram, and their arrow ends.

Connectors are the dark pixels outside the boxes. A dashed one falls apart into pieces,
joined again where one piece's end points at the next one. Each end is then measured
around the box point it meets: a hollow arrow end encloses white (a triangle about 80 px²
at 1×, a diamond about 30); of the others, a filled diamond is solid, an arrowhead not.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
from scipy import ndimage
from scipy.spatial import ConvexHull, QhullError

from diagbench.models.baselines.class_geometry import DARK, Box

_INK = 170  # darker than this is connector ink
_DASH_GAP = 10  # px at 1×: wider than PlantUML's dash gaps (6)
_DECORATION = 22  # px at 1×: longer than any arrow end
_MIN_WIDTH = 5  # px at 1×: an end at least this wide carries a decoration
_MIN_HOLE = 6  # px² at 1×: a hollow decoration encloses at least this much white
_TRIANGLE_HOLE = 50  # px² at 1×: a hollow triangle encloses about 80, a hollow diamond 30
_SOLID = 0.95  # pixels per hull area: a filled diamond about 1.1, an arrowhead 0.75


@dataclass(frozen=True)
class Connector:
    """A line between two boxes (indices) with what is drawn at each end."""

    ends: tuple[int, int]
    shapes: tuple[str, str]  # "triangle", "diamond", "hollow diamond", "arrow" or "none"
    dashed: bool


@dataclass
class _End:
    """An end of a dash: its piece, its point (row, column) and outward unit direction."""

    piece: int
    yx: np.ndarray
    out: np.ndarray


def find_connectors(rgb: np.ndarray, boxes: list[Box], scale: float) -> list[Connector]:
    """Every line drawn between two boxes, with its end decorations."""
    grey = rgb.mean(axis=2)
    points, contacts = _pieces(grey, boxes, scale)
    gap = _DASH_GAP * scale + 2
    ends = [e for i, pts in enumerate(points) if not contacts[i] for e in _ends(i, pts)]
    connectors = []
    for members in _join(ends, points, contacts, gap, 1.5 * scale + 1):
        found = [c for i in members for c in contacts[i]]
        found += _reached([e for e in ends if e.piece in members], boxes, gap)
        by_box = dict(found)
        if len(by_box) != 2:
            continue
        pts = np.concatenate([points[i] for i in members])
        (a, at_a), (b, at_b) = sorted(by_box.items())
        shapes = (_shape(grey, boxes, pts, at_a, scale), _shape(grey, boxes, pts, at_b, scale))
        connectors.append(Connector((a, b), shapes, len(members) >= 3))
    return connectors


def _pieces(grey: np.ndarray, boxes: list[Box],
            scale: float) -> tuple[list[np.ndarray], list[list[tuple[int, np.ndarray]]]]:
    """The connected pieces of dark pixels outside the boxes, each as pixel coordinates, and
    the boxes each one touches, with the point where."""
    margin = int(np.ceil(scale)) + 1
    inside = np.zeros(grey.shape, bool)
    for b in boxes:
        inside[max(b.y0 - margin, 0):b.y1 + margin + 1, max(b.x0 - margin, 0):b.x1 + margin + 1] = 1
    labels, count = ndimage.label((grey < _INK) & ~inside, structure=np.ones((3, 3)))
    points = [np.argwhere(labels == i).astype(float) for i in range(1, count + 1)]
    contacts = []
    for pts in points:
        near = []
        for k, b in enumerate(boxes):
            dy = np.clip(b.y0 - pts[:, 0], 0, None) + np.clip(pts[:, 0] - b.y1, 0, None)
            dx = np.clip(b.x0 - pts[:, 1], 0, None) + np.clip(pts[:, 1] - b.x1, 0, None)
            touching = np.hypot(dy, dx) <= margin + 1.5
            if touching.any():
                near.append((k, pts[touching].mean(axis=0)))
        contacts.append(near)
    return points, contacts


def _ends(i: int, pts: np.ndarray) -> list[_End]:
    """Both ends of piece `i` (a dash), each with its outward direction."""
    if len(pts) == 1:
        return [_End(i, pts[0], np.zeros(2))]
    centre = pts.mean(axis=0)
    axis = np.linalg.eigh(np.cov((pts - centre).T))[1][:, -1]
    along = (pts - centre) @ axis
    return [_End(i, centre + axis * along.max(), axis),
            _End(i, centre + axis * along.min(), -axis)]


def _unit(v: np.ndarray) -> np.ndarray:
    norm = float(np.hypot(*v))
    return v / norm if norm > 1e-9 else np.zeros(2)


def _join(ends: list[_End], points: list[np.ndarray], contacts: list[list], gap: float,
          close: float) -> list[list[int]]:
    """Pieces grouped into connectors. A dash is joined across a gap to a dash whose end faces
    its end, or to a piece at a box (an arrow end, a first dash) that its end points at;
    pieces closer than `close` are joined whichever way they point."""
    pairs: list[tuple[float, tuple[str, int], tuple[str, int]]] = []
    for (i, e), (j, f) in itertools.combinations(enumerate(ends), 2):
        step = f.yx - e.yx
        dist = float(np.hypot(*step))
        if e.piece != f.piece and dist <= gap and (
                dist <= close or (_unit(step) @ e.out > 0.7 and -_unit(step) @ f.out > 0.7)):
            pairs.append((dist, ("end", i), ("end", j)))
    for i, e in enumerate(ends):
        for k, pts in enumerate(points):
            if len(contacts[k]) != 1:
                continue
            offsets = pts - e.yx
            dists = np.hypot(offsets[:, 0], offsets[:, 1])
            ahead = (dists <= close) | (offsets @ e.out > 0.7 * dists)
            if ahead.any() and dists[ahead].min() <= gap:
                pairs.append((float(dists[ahead].min()), ("end", i), ("piece", k)))
    parent = list(range(len(points)))

    def root(k: int) -> int:
        while parent[k] != k:
            k = parent[k]
        return k

    def piece(key: tuple[str, int]) -> int:
        return ends[key[1]].piece if key[0] == "end" else key[1]

    used: set[tuple[str, int]] = set()
    for _, p, q in sorted(pairs):
        if p not in used and q not in used:
            used.update((p, q))
            parent[root(piece(p))] = root(piece(q))
    groups: dict[int, list[int]] = {}
    for k in range(len(points)):
        groups.setdefault(root(k), []).append(k)
    return list(groups.values())


def _reached(ends: list[_End], boxes: list[Box], gap: float) -> list[tuple[int, np.ndarray]]:
    """Boxes that dash ends point at across a gap, with the end point."""
    found = []
    for e in ends:
        for k, b in enumerate(boxes):
            ahead = e.yx + e.out * gap
            if b.distance(*e.yx) <= gap and b.distance(*ahead) < b.distance(*e.yx):
                found.append((k, e.yx))
    return found


def _shape(grey: np.ndarray, boxes: list[Box], pts: np.ndarray, at: np.ndarray,
           scale: float) -> str:
    """What is drawn at the end of connector pixels `pts` that meets a box at `at`.

    Measured around the box point nearest `at`, where an arrow end's tip is: how far the
    connector is wider than a line, how much white it encloses (a triangle more than a
    diamond) and, if none, how solid it is (a filled diamond more than an arrowhead).
    """
    box = min(boxes, key=lambda b: b.distance(*at))
    tip = np.clip(at, (box.y0, box.x0), (box.y1, box.x1))
    radius = np.hypot(*(pts - tip).T) / scale
    chords = np.zeros(_DECORATION + 1)
    for r in range(_DECORATION + 1):
        ring = pts[(radius >= r) & (radius < r + 1)]
        if len(ring) > 1:
            chords[r] = np.hypot(*(ring[:, None] - ring[None]).transpose(2, 0, 1)).max() / scale
    if chords.max() < _MIN_WIDTH:
        return "none"
    hole = _hole_area(grey, boxes, pts, tip, _DECORATION * scale) / scale**2
    if hole >= _MIN_HOLE:
        return "triangle" if hole >= _TRIANGLE_HOLE else "hollow diamond"
    length = np.flatnonzero(chords >= _MIN_WIDTH - 1)[-1] + 1.5
    return "diamond" if _solidity(pts[radius <= length]) > _SOLID else "arrow"


def _solidity(pts: np.ndarray) -> float:
    """Pixels per unit area of their convex hull: about 1 for a filled shape."""
    try:
        return len(pts) / max(ConvexHull(pts).volume, 1.0)
    except QhullError:
        return 0.0


def _hole_area(grey: np.ndarray, boxes: list[Box], pts: np.ndarray, at: np.ndarray,
               reach: float) -> int:
    """White pixels outside boxes, near `at`, that dark pixels near the connector's own
    pixels `pts` fully enclose (not those of a neighbouring connector's arrow end)."""
    y0, x0 = (max(int(v - reach), 0) for v in at)
    y1, x1 = (int(v + reach) + 1 for v in at)
    dark = grey[y0:y1, x0:x1] < DARK
    own = np.zeros(dark.shape, bool)
    local = pts[(pts[:, 0] >= y0) & (pts[:, 0] < y0 + dark.shape[0])
                & (pts[:, 1] >= x0) & (pts[:, 1] < x0 + dark.shape[1])].astype(int)
    own[local[:, 0] - y0, local[:, 1] - x0] = True
    dark &= ndimage.binary_dilation(own, np.ones((3, 3), bool),
                                    int(np.ceil(reach / _DECORATION)) + 3)
    holes = ndimage.binary_fill_holes(dark) & ~dark
    for b in boxes:
        holes[max(b.y0 - y0, 0):max(b.y1 - y0 + 1, 0), max(b.x0 - x0, 0):max(b.x1 - x0 + 1, 0)] = 0
    return int(holes.sum())
