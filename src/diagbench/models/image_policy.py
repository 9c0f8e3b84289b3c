"""What images a model is sent: as they are by default, shrunk only when asked.

Diagrams are text, so the default is the file's own bytes (lossless PNG at
full detail). A policy with a maximum side and/or a maximum byte size scales
an image down (Lanczos, re-encoded as PNG) until it fits; every sent image is
described in the run's records by path, size and sha256 — never by its bytes.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, UnidentifiedImageError

from diagbench.models.request import ImagePart

SMALLEST_SIDE = 16
#: Limits of a diagram image sent as it is: below, nothing is legible; above, no model
#: takes it. An image over the upper limits is sent when the policy shrinks it to fit.
MIN_SIDE, MAX_SIDE, MAX_PIXELS = 32, 16_384, 40_000_000
#: The decompression-bomb guard: far beyond any diagram (the largest figure of paper 000's
#: 3GPP set is 7548 × 6510, 49 MP), refused whatever the policy.
BOMB_PIXELS = 500_000_000
# Pillow's own guard warns above MAX_IMAGE_PIXELS and refuses above twice that: let it
# open what BOMB_PIXELS admits, and check the size ourselves before decoding.
Image.MAX_IMAGE_PIXELS = BOMB_PIXELS


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
    image.resize((width, height), Image.Resampling.LANCZOS).save(buffer, "PNG", optimize=True)
    return buffer.getvalue()


@dataclass(frozen=True, slots=True)
class ImagePolicy:
    """Largest side in pixels and largest encoded size in bytes; None = no limit."""

    max_side: int | None = None
    max_bytes: int | None = None

    def as_dict(self) -> dict:
        return {"max_side": self.max_side, "max_bytes": self.max_bytes}

    def fitted(self, width: int, height: int) -> tuple[int, int]:
        """The size an image of `width` × `height` is sent at, at most (a byte limit may
        shrink it further)."""
        if self.max_side and max(width, height) > self.max_side:
            scale = self.max_side / max(width, height)
            return max(1, round(width * scale)), max(1, round(height * scale))
        return width, height

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


def image_problem(path: Path, policy: ImagePolicy | None = None) -> str | None:
    """Why `path` cannot be sent as a diagram image under `policy`, or None: an image
    over the upper limits is refused only when the policy does not shrink it below them
    (a byte limit alone is taken to); one over BOMB_PIXELS always."""
    policy = policy or ImagePolicy()
    if not path.is_file():
        return "missing (no such file)" if not path.exists() else "not a file"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as image:
                width, height = image.size
                if width < MIN_SIDE or height < MIN_SIDE:
                    return (f"image is {width}×{height} px: too small to hold a diagram "
                            f"(at least {MIN_SIDE} px a side)")
                if width * height > BOMB_PIXELS:
                    return (f"image is {width}×{height} px ({width * height / 1e6:,.0f} MP): "
                            f"refused as a possible decompression bomb (over "
                            f"{BOMB_PIXELS // 1_000_000} MP)")
                sent_w, sent_h = policy.fitted(width, height)
                if (max(sent_w, sent_h) > MAX_SIDE or sent_w * sent_h > MAX_PIXELS) \
                        and not policy.max_bytes:
                    return (f"image is {width}×{height} px: over the limit of {MAX_SIDE:,} px "
                            f"a side and {MAX_PIXELS // 1_000_000} megapixels (shrink it "
                            f"with --max-image-side or --max-image-bytes)")
                image.verify()
    except UnidentifiedImageError:
        return "not a readable image (not an image format Pillow knows, or corrupt)"
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        return f"not a readable image ({type(exc).__name__}: {exc})"
    except (OSError, SyntaxError, ValueError) as exc:  # truncated or corrupt data
        return f"not a readable image ({exc})"
    return None
