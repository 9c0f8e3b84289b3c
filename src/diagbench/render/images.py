"""Images for benchmarks: one render, resized to each scale and to a maximum side."""

from __future__ import annotations

import hashlib
from pathlib import Path

from PIL import Image


def fit(size: tuple[int, int], scale: float, max_side: int | None) -> tuple[int, int]:
    """The size at `scale`, shrunk (aspect kept) so that no side exceeds `max_side`."""
    w, h = max(1, round(size[0] * scale)), max(1, round(size[1] * scale))
    if max_side and max(w, h) > max_side:
        ratio = max_side / max(w, h)
        w, h = max(1, round(w * ratio)), max(1, round(h * ratio))
    return w, h


def scaled_copy(image: Path, out: Path, scale: float, max_side: int | None) -> tuple[int, int, str]:
    """Write `image` resized (Lanczos) to `out`; return its width, height and sha256."""
    with Image.open(image) as img:
        size = fit(img.size, scale, max_side)
        resized = img if size == img.size else img.resize(size, Image.Resampling.LANCZOS)
        resized.save(out, format="PNG", optimize=False)
    data = out.read_bytes()
    return size[0], size[1], hashlib.sha256(data).hexdigest()
