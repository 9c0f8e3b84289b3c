"""What images a model is sent: as they are by default, shrunk only when asked.

Diagrams are text, so the default is the file's own bytes (lossless PNG at
full detail). A policy with a maximum side and/or a maximum byte size scales
an image down (Lanczos, re-encoded as PNG) until it fits; every sent image is
described in the run's records by path, size and sha256 — never by its bytes.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image

from diagbench.models.request import ImagePart

SMALLEST_SIDE = 16


class ImagePolicyError(ValueError):
    """An image that is unreadable or cannot be made to fit; str() names the file."""


def _size(part: ImagePart) -> tuple[int, int]:
    try:
        with Image.open(io.BytesIO(part.data)) as image:
            return image.size
    except (OSError, Image.DecompressionBombError) as exc:
        raise ImagePolicyError(f"{part.path or 'image'}: not a readable image ({exc})") from None


def _png(image: Image.Image, width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    image.resize((width, height), Image.LANCZOS).save(buffer, "PNG", optimize=True)
    return buffer.getvalue()


@dataclass(frozen=True, slots=True)
class ImagePolicy:
    """Largest side in pixels and largest encoded size in bytes; None = no limit."""

    max_side: int | None = None
    max_bytes: int | None = None

    def as_dict(self) -> dict:
        return {"max_side": self.max_side, "max_bytes": self.max_bytes}

    def apply(self, part: ImagePart) -> ImagePart:
        """`part` itself when it fits, else a smaller PNG that does."""
        width, height = _size(part)
        scale = 1.0
        if self.max_side and max(width, height) > self.max_side:
            scale = self.max_side / max(width, height)
        if scale == 1.0 and (not self.max_bytes or len(part.data) <= self.max_bytes):
            return part
        with Image.open(io.BytesIO(part.data)) as opened:
            image = opened.convert("RGBA" if "A" in opened.getbands() else "RGB")
        while True:
            w, h = max(1, round(width * scale)), max(1, round(height * scale))
            if min(w, h) < SMALLEST_SIDE:
                raise ImagePolicyError(
                    f"{part.path or 'image'}: cannot fit in {self.max_bytes:,} bytes "
                    f"above {SMALLEST_SIDE} px a side")
            data = _png(image, w, h)
            if not self.max_bytes or len(data) <= self.max_bytes:
                return ImagePart(data, "image/png", part.path, (width, height, len(part.data)))
            scale *= 0.95 * (self.max_bytes / len(data)) ** 0.5


def describe(part: ImagePart) -> dict:
    """A sent image as the records show it: path, media type, pixels, bytes, sha256,
    and the original size when the policy shrank it."""
    width, height = _size(part)
    return {"path": part.path, "media_type": part.media_type, "width": width,
            "height": height, "bytes": len(part.data), "sha256": part.sha256,
            "resized_from": list(part.original) if part.original else None}
