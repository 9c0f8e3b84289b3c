"""Quality filters of STRUDEL (paper 004 §3.3), each reporting what it removed.

Every filter takes items and returns (kept, removed) with the removed ones
paired with the reason, so a benchmark build can report its attrition.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

import imagehash
import numpy as np
from PIL import Image

from diagbench.render.result import BLANK_STD

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


def near_blank(items: Iterable[T], image: Callable[[T], Path],
               min_std: float = BLANK_STD) -> tuple[list[T], Removed]:
    """Drop images whose grey levels barely vary (blank or one colour)."""
    kept, removed = [], []
    for item in items:
        with Image.open(image(item)) as img:
            std = float(np.asarray(img.convert("L"), dtype=np.float32).std())
        if std >= min_std:
            kept.append(item)
        else:
            removed.append((item, f"near blank (grey std {std:.2f} < {min_std})"))
    return kept, removed


def perceptual_duplicates(items: Iterable[T], image: Callable[[T], Path],
                          max_distance: int = 4) -> tuple[list[T], Removed]:
    """Drop images within `max_distance` (Hamming, 64-bit pHash) of one kept earlier."""
    kept: list[T] = []
    hashes: list[imagehash.ImageHash] = []
    removed: Removed[T] = []
    for item in items:
        with Image.open(image(item)) as img:
            h = imagehash.phash(img)
        twin = next((k for k, other in enumerate(hashes) if h - other <= max_distance), None)
        if twin is None:
            kept.append(item)
            hashes.append(h)
        else:
            removed.append((item, f"looks like item {twin} kept (pHash distance "
                                  f"{h - hashes[twin]} <= {max_distance})"))
    return kept, removed


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
