"""Image bytes to RGB pixels for the offline readers, with the reason when they cannot be."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image, UnidentifiedImageError

MIN_SIDE = 40
MAX_PIXELS = 40_000_000


def decode_rgb(image: bytes, error: type[ValueError]) -> np.ndarray:
    """The RGB pixels of PNG/JPEG/… bytes, transparency laid on white; `error` saying why
    not (not an image, too large, too small to hold a diagram)."""
    try:
        with Image.open(io.BytesIO(image)) as img:
            if img.width * img.height > MAX_PIXELS:
                raise error(f"image is {img.width}×{img.height} px, too large")
            if min(img.size) < MIN_SIDE:
                raise error(f"image is {img.width}×{img.height} px, too small to hold a diagram")
            img.load()
            rgba = img.convert("RGBA")
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError) as exc:
        raise error(f"not an image: {exc}") from None
    white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
    return np.asarray(Image.alpha_composite(white, rgba).convert("RGB"))
