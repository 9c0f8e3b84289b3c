"""A rendered image as if printed and scanned or photographed: turned a few degrees,
blurred, speckled with noise and saved as a JPEG, every amount drawn from a seeded
generator (the same image and seed, the same bytes)."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from pathlib import Path

#: The ranges each effect is drawn from: degrees turned either way (at least the
#: first), Gaussian blur radius in pixels, noise standard deviation in grey levels,
#: JPEG quality.
ROTATION = (0.5, 3.0)
BLUR = (0.4, 1.0)
NOISE = (4.0, 12.0)
QUALITY = (45, 80)


@dataclass(frozen=True, slots=True)
class Captured:
    """A captured image: its size, its sha256 and what was done, in words."""

    width: int
    height: int
    sha256: str
    change: str


def capture(image: Path, out: Path, rng: random.Random) -> Captured:
    """Write `image` to `out` (JPEG) as if scanned: turned by ±`ROTATION` degrees on a
    white ground (the canvas grown to hold it), blurred, with Gaussian noise, and
    compressed at a JPEG quality of `QUALITY`, each drawn from `rng`."""
    import numpy as np
    from PIL import Image, ImageFilter

    angle = rng.uniform(*ROTATION) * rng.choice((-1, 1))
    radius, sigma = rng.uniform(*BLUR), rng.uniform(*NOISE)
    quality = rng.randint(*QUALITY)
    noise = np.random.default_rng(rng.getrandbits(64))
    with Image.open(image) as opened:
        rgba = opened.convert("RGBA")
    flat = Image.new("RGB", rgba.size, "white")
    flat.paste(rgba, mask=rgba.getchannel("A"))
    turned = flat.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True,
                         fillcolor="white")
    blurred = turned.filter(ImageFilter.GaussianBlur(radius))
    pixels = np.asarray(blurred, dtype=np.float64)
    speckled = pixels + noise.normal(0.0, sigma, pixels.shape[:2])[..., None]
    noisy = Image.fromarray(np.clip(speckled, 0, 255).astype(np.uint8), "RGB")
    noisy.save(out, format="JPEG", quality=quality)
    return Captured(noisy.width, noisy.height, hashlib.sha256(out.read_bytes()).hexdigest(),
                    f"rotated {angle:+.1f}°, blur {radius:.1f} px, noise σ {sigma:.0f}, "
                    f"JPEG quality {quality}")
