"""Quality filters of STRUDEL (paper 004 §3.3), each reporting what it removed.

Every filter takes items and returns (kept, removed) with the removed ones
paired with the reason, so a benchmark build can report its attrition.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import imagehash
import numpy as np
from PIL import Image

from diagbench.render.png_check import BLANK_STD

T = TypeVar("T")
Removed = list[tuple[T, str]]


def aspect_ratio(items: Iterable[T], size: Callable[[T], tuple[int, int]],
                 low: float = 0.1, high: float = 10.0) -> tuple[list[T], Removed]:
    """Keep items whose width ÷ height is within [low, high]."""
    kept, removed = [], []
    for item in items:
        w, h = size(item)
        ratio = w / h if h else float("inf")
        if low <= ratio <= high:
            kept.append(item)
        else:
            removed.append((item, f"aspect ratio {ratio:.2f} outside [{low}, {high}]"))
    return kept, removed


@dataclass(frozen=True, slots=True)
class Looks:
    """What the image filters see of an image: the standard deviation of its grey levels
    (`near_blank`) and its 64-bit perceptual hash as an integer (`perceptual_duplicates`)."""

    grey_std: float
    phash: int


def looks(path: Path) -> Looks:
    """The `Looks` of the image at `path`, from one decoding of it."""
    with Image.open(path) as img:
        grey = img.convert("L")
    return Looks(float(np.asarray(grey, dtype=np.float32).std()), _bits(imagehash.phash(grey)))


def near_blank(items: Iterable[T], looks: Callable[[T], Looks],
               min_std: float = BLANK_STD) -> tuple[list[T], Removed]:
    """Drop images whose grey levels barely vary (blank or one colour)."""
    kept, removed = [], []
    for item in items:
        std = looks(item).grey_std
        if std >= min_std:
            kept.append(item)
        else:
            removed.append((item, f"near blank (grey std {std:.2f} < {min_std})"))
    return kept, removed


def perceptual_duplicates(items: Iterable[T], looks: Callable[[T], Looks],
                          max_distance: int = 4) -> tuple[list[T], Removed]:
    """Drop images within `max_distance` (Hamming, 64-bit pHash) of one kept earlier."""
    kept: list[T] = []
    hashes = np.zeros(64, dtype=np.uint64)  # of the kept items, grown as they come
    removed: Removed[T] = []
    for item in items:
        h = np.uint64(looks(item).phash)
        distances = np.bitwise_count(hashes[:len(kept)] ^ h)
        near = np.flatnonzero(distances <= max_distance)
        if not near.size:
            if len(kept) == len(hashes):
                hashes = np.concatenate([hashes, np.zeros_like(hashes)])
            hashes[len(kept)] = h
            kept.append(item)
        else:
            twin = int(near[0])
            removed.append((item, f"looks like item {twin} kept (pHash distance "
                                  f"{int(distances[twin])} <= {max_distance})"))
    return kept, removed


def _bits(h: imagehash.ImageHash) -> int:
    """A 64-bit pHash as one integer (its cells' bits in order), so that the Hamming
    distance to every hash kept is one vectorised XOR and bit count."""
    return int.from_bytes(np.packbits(np.asarray(h.hash, dtype=bool).flatten()).tobytes(),
                          "big")


_SPACE = re.compile(r"\s+")


def code_duplicates(items: Iterable[T], code: Callable[[T], str]) -> tuple[list[T], Removed]:
    """Drop items whose code equals an earlier one's, white space aside."""
    kept: list[T] = []
    seen: dict[str, int] = {}  # code's key → index of its item in `kept`
    removed: Removed[T] = []
    for item in items:
        key = hashlib.sha256(_SPACE.sub(" ", code(item)).strip().encode()).hexdigest()
        if key in seen:
            removed.append((item, f"same code as item {seen[key]}"))
        else:
            seen[key] = len(kept)
            kept.append(item)
    return kept, removed
