"""The outcome of rendering one diagram, and the checks that make a render valid."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from diagbench.render.png_check import png_facts

#: Larger sources are refused before any engine sees them.
MAX_SOURCE_BYTES = 1_000_000
_SVG_TAG = re.compile(rb"<svg\b[^>]*>")
_SVG_LENGTH = re.compile(rb'\b(width|height)=["\']([\d.]+)(?:px|pt)?["\']')
_SVG_VIEWBOX = re.compile(rb'\bviewBox=["\'][-\d.]+[ ,]+[-\d.]+[ ,]+([\d.]+)[ ,]+([\d.]+)["\']')


class EngineMissing(RuntimeError):
    """An engine's program is not installed; the message says what to install."""


@dataclass(slots=True)
class RenderResult:
    """One diagram rendered: the image and its facts, or why it is not valid."""

    index: int
    engine: str
    version: str
    ok: bool = False
    image: Path | None = None
    width: int | None = None
    height: int | None = None
    sha256: str | None = None
    error: str | None = None
    error_line: int | None = None
    seconds: float = 0.0
    too_large: bool = False  # refused only for its size: the code is right, not drawn

    def as_dict(self) -> dict:
        return {"index": self.index, "engine": self.engine, "version": self.version,
                "ok": self.ok, "image": str(self.image) if self.image else None,
                "width": self.width, "height": self.height, "sha256": self.sha256,
                "error": self.error, "error_line": self.error_line,
                "too_large": self.too_large, "seconds": round(self.seconds, 4)}


def refusal(source: str) -> str | None:
    """Why a source is not given to an engine at all (too big, empty), or None."""
    size = len(source.encode("utf-8"))
    if size > MAX_SOURCE_BYTES:
        return f"source is {size:,} bytes, over the {MAX_SOURCE_BYTES:,}-byte limit"
    return None if source.strip() else "empty source"


def inspect_image(data: bytes, fmt: str) -> tuple[int, int, bool]:
    """(width, height, blank) of PNG or SVG bytes (an SVG is never called blank);
    ValueError when they do not decode."""
    if fmt != "svg":
        return png_facts(data)
    tag = _SVG_TAG.search(data[:8192])
    lengths = dict(_SVG_LENGTH.findall(tag.group(0))) if tag else {}
    if b"width" in lengths and b"height" in lengths:
        return round(float(lengths[b"width"])), round(float(lengths[b"height"])), False
    box = _SVG_VIEWBOX.search(tag.group(0)) if tag else None  # width="100%": use the box
    if box is None:
        raise ValueError("not an SVG image with a width and height")
    return round(float(box.group(1))), round(float(box.group(2))), False


def finish(result: RenderResult, data: bytes, fmt: str, out: Path) -> RenderResult:
    """Check the bytes an engine wrote for a clean exit; keep them in `out` when valid."""
    if fmt == "svg" and b"This feature has been suppressed" in data[:2000]:
        result.error = "the engine drew 'This feature has been suppressed' instead of the diagram"
        return result
    try:
        result.width, result.height, blank = inspect_image(data, fmt)
    except ValueError as exc:
        result.error = str(exc)
        return result
    if blank:
        result.error = "blank image (one colour)"
        return result
    out.write_bytes(data)
    result.image, result.sha256, result.ok = out, hashlib.sha256(data).hexdigest(), True
    return result
