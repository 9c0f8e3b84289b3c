"""The ground truth of a conversion run: scripts from a folder, each with the image a
model will see — rendered from the script, or found in a folder of given images."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from diagbench.benchmarks.conversion.samples import IMAGE_SUFFIXES, Sample
from diagbench.benchmarks.protocol import Problem
from diagbench.formats.plantuml import parse_sequence
from diagbench.formats.source import DEFAULT_MAX_BYTES, SourceError, read_source
from diagbench.languages import named
from diagbench.render.plantuml_pipe import PlantUMLEngine


@dataclass(slots=True)
class GoldSet:
    """The usable samples (with `gold` set) and the ground-truth files that are not."""

    samples: list[Sample] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def gold_scripts(gold: Path) -> dict[str, Path]:
    """{name: path} of the scripts of `gold` (a file, or a folder searched recursively)."""
    if gold.is_file():
        return {gold.stem: gold}
    suffixes = named("plantuml").suffixes
    files = sorted(p for p in gold.rglob("*") if p.is_file() and p.suffix.lower() in suffixes)
    return {p.relative_to(gold).with_suffix("").as_posix(): p for p in files}


def load_gold(gold: Path, image_dir: Path, engine: PlantUMLEngine,
              images: Path | None = None, max_bytes: int = DEFAULT_MAX_BYTES) -> GoldSet:
    """Read the ground truth and give each script its image.

    Without `images`, every script is rendered into `image_dir`/NAME.png; with
    it, NAME.png (or another image suffix) is looked up there. A script that
    cannot be read or rendered, or has no image, is a problem, not a sample.
    The caption of each image is its script's title.
    """
    result = GoldSet()
    texts: dict[str, tuple[Path, str]] = {}
    for name, path in gold_scripts(gold).items():
        try:
            texts[name] = path, read_source(path, max_bytes)
        except SourceError as exc:
            result.problems.append(Problem(name, str(path), str(exc)))
    found = (_given_images(texts, images, result) if images is not None
             else _rendered_images(texts, image_dir, engine, result))
    for name, image in found.items():
        path, text = texts[name]
        parsed = parse_sequence(text)
        title = parsed[0].diagram.title if parsed else None
        result.samples.append(Sample(name, image, title, path))
    return result


def _given_images(texts: dict[str, tuple[Path, str]], images: Path,
                  result: GoldSet) -> dict[str, Path]:
    found = {}
    for name, (path, _) in texts.items():
        candidates = [images / f"{name}{suffix}" for suffix in IMAGE_SUFFIXES]
        image = next((c for c in candidates if c.is_file()), None)
        if image is None:
            result.problems.append(Problem(name, str(path),
                                           f"no image {name}.png (or .jpg, …) in {images}"))
        else:
            found[name] = image
    return found


def _rendered_images(texts: dict[str, tuple[Path, str]], image_dir: Path,
                     engine: PlantUMLEngine, result: GoldSet) -> dict[str, Path]:
    names = list(texts)
    found = {}
    with tempfile.TemporaryDirectory() as tmp:
        rendered = engine.render([texts[n][1] for n in names], Path(tmp), "png")
        for name, render in zip(names, rendered, strict=True):
            if not render.ok:
                where = f" (line {render.error_line})" if render.error_line else ""
                result.problems.append(Problem(name, str(texts[name][0]),
                                               f"the ground truth does not render: "
                                               f"{render.error}{where}"))
                continue
            assert render.image is not None  # a valid render has its image
            target = image_dir / f"{name}.png"
            target.parent.mkdir(parents=True, exist_ok=True)
            render.image.replace(target)
            found[name] = target
    return found
