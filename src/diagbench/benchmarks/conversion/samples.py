"""The images to convert: found in files and folders, checked before any model sees
them, each with its caption (a sidecar `NAME.txt`, or one given for all)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, UnidentifiedImageError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".gif", ".bmp")
#: Limits of a usable diagram image: below, nothing is legible; above, no model
#: takes it and decoding it risks the memory of the run.
MIN_SIDE, MAX_SIDE, MAX_PIXELS = 32, 16_384, 40_000_000


@dataclass(frozen=True, slots=True)
class Sample:
    """One image to convert: `name` (relative, without suffix) names every output."""

    name: str
    image: Path
    caption: str | None = None
    gold: Path | None = None


def image_problem(path: Path) -> str | None:
    """Why `path` cannot be sent as a diagram image, or None."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as image:
                width, height = image.size
                if width < MIN_SIDE or height < MIN_SIDE:
                    return (f"image is {width}×{height} px: too small to hold a diagram "
                            f"(at least {MIN_SIDE} px a side)")
                if max(width, height) > MAX_SIDE or width * height > MAX_PIXELS:
                    return (f"image is {width}×{height} px: over the limit of {MAX_SIDE:,} px "
                            f"a side and {MAX_PIXELS // 1_000_000} megapixels")
                image.verify()
    except (UnidentifiedImageError, Image.DecompressionBombError,
            Image.DecompressionBombWarning) as exc:
        return f"not a readable image ({type(exc).__name__}: {exc})"
    except (OSError, SyntaxError, ValueError) as exc:  # truncated or corrupt data
        return f"not a readable image ({exc})"
    return None


def caption_for(image: Path, default: str | None) -> str | None:
    """The caption in the sidecar file `NAME.txt` beside `image`, else `default`."""
    sidecar = image.with_suffix(".txt")
    if sidecar.is_file():
        text = sidecar.read_text(encoding="utf-8", errors="replace").strip()
        if text:
            return " ".join(text.split())
    return default


def find_images(paths: list[Path], caption: str | None = None) -> list[Sample]:
    """A sample for every file given and every image file in the folders given."""
    samples = []
    for path in paths:
        if path.is_dir():
            files = sorted(p for p in path.rglob("*")
                           if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
            samples += [Sample(p.relative_to(path).with_suffix("").as_posix(), p,
                               caption_for(p, caption)) for p in files]
        else:
            samples.append(Sample(path.stem, path, caption_for(path, caption)))
    names = [s.name for s in samples]
    if len(set(names)) != len(names):
        twice = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(f"two images would write the same outputs: {', '.join(twice)}")
    return samples
