"""The images to convert: found in files and folders, checked before any model sees
them, each with its caption (a sidecar `NAME.txt`, or one given for all)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from diagbench.benchmarks.twins import Twin

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".gif", ".bmp")


@dataclass(frozen=True, slots=True)
class Sample:
    """One image to convert: `name` (relative, without suffix) names every output; a
    twin names its original (`twin_of`) and how it differs (`twin`)."""

    name: str
    image: Path
    caption: str | None = None
    gold: Path | None = None
    twin_of: str | None = None
    twin: Twin | None = None


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
