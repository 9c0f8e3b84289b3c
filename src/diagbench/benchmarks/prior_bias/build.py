"""`diagbench build prior-bias`: generate, render and list the benchmark in a directory.

    DIR/diagrams/ID.puml       each diagram's PlantUML
    DIR/images/ID@1x.png …     rendered once by PlantUML, resized (Lanczos) to each scale
    DIR/manifest.jsonl         one line per instance (a diagram and one query)
    DIR/build.json             seed, sizes per cell, rejected candidates by reason, versions

With `twins` (families of `benchmarks.twins`), each instance's twins are instances of
their own in the manifest, after the originals (`prior_bias.twins`): their diagrams and
images beside the others (`ID~FAMILY`), each family's made and dropped in build.json.

With `plan` (no engine) the diagrams, manifest and build.json are written without
rendering: the manifest lists no images, and eval refuses it.

Nothing in these files depends on the time or the machine: the same seed and
vocabulary give byte-identical files.
"""

from __future__ import annotations

import hashlib
import io
import json
import tempfile
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from pathlib import Path

from PIL import Image

from diagbench import __version__
from diagbench.benchmarks.prior_bias.generate import CONDITIONS, Build, Queries, Sizes, generate
from diagbench.benchmarks.prior_bias.records import ImageFile, Item, TwinsInfo
from diagbench.benchmarks.prior_bias.twins import make_twins
from diagbench.benchmarks.prior_bias.vocabulary import RELATIONS, Vocabulary
from diagbench.benchmarks.progress import Bars, no_bars
from diagbench.render.engines import Engine

SCALES = (1.0, 1.5, 2.0)
#: Diagrams the engine draws in one call before they are scaled (their drawings are
#: kept in a temporary folder meanwhile).
CHUNK = 2048
#: Threads scaling images beside the engine.
SCALERS = 2


def scale_name(scale: float) -> str:
    return f"{scale:g}x"


def build_benchmark(out: Path, vocabulary: Vocabulary, sizes: Sizes, seed: int,
                    engine: Engine | None, scales: tuple[float, ...] = SCALES,
                    bars: Bars = no_bars, queries: Queries = "one",
                    twins: Sequence[str] = ()) -> dict:
    """Write the benchmark into `out` (rendered by `engine`, or only planned when it is
    None), with the `twins` families of twins (a rendered build only); return the
    contents of build.json."""
    build = generate(vocabulary, sizes, seed, queries)
    (out / "diagrams").mkdir(parents=True, exist_ok=True)
    ids = sorted(build.diagrams)
    sources = [build.diagrams[i].source() for i in ids]
    for ident, source in zip(ids, sources, strict=True):
        (out / "diagrams" / f"{ident}.puml").write_text(source, encoding="utf-8")
    images = _render(out, ids, sources, build.rejected, engine, scales, bars) if engine \
        else {ident: {} for ident in ids}
    build.instances = [i for i in build.instances if i.diagram in images]
    items = [Item.of(i, images[i.diagram]) for i in build.instances]
    made: list[Item] = []
    twinned: dict[str, TwinsInfo] = {}
    if twins and engine:
        made, twinned = make_twins(out, items, build.diagrams, vocabulary, twins, seed, engine,
                                   partial(_render, out, engine=engine, scales=scales,
                                           bars=bars, what="drawing twins"))
    _write_manifest(out / "manifest.jsonl", items + made)
    info = {"diagbench_version": __version__,
            "plantuml": engine.version() if engine else None, "planned_only": engine is None,
            "seed": seed, "queries": queries, "per_cell": _common(sizes),
            "sizes": {c: dict(r) for c, r in sizes.items()},
            "scales": [scale_name(s) for s in scales],
            "vocabulary_sha256": vocabulary.sha256, "diagrams": len(images),
            "instances": len(build.instances),
            "rendered_inputs": len(build.instances) * len(scales),
            "cells": _cells(build), "rejected": dict(sorted(build.rejected.items()))}
    if twins:
        info |= {"twin_instances": len(made),
                 "twins": {family: t.to_json() for family, t in twinned.items()}}
    (out / "build.json").write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")
    return info


def _common(sizes: Sizes) -> int | None:
    """The size of every cell when they are all the same."""
    values = {n for row in sizes.values() for n in row.values()}
    return values.pop() if len(values) == 1 else None


def _render(out: Path, ids: list[str], sources: list[str], rejected: Counter[str],
            engine: Engine, scales: tuple[float, ...], bars: Bars, what: str = "rendering"
            ) -> dict[str, dict[str, ImageFile]]:
    """Each diagram rendered once and resized to every scale (a failure is counted in
    `rejected`; `what` names the stage on its progress bar): the
    engine draws `CHUNK` diagrams, then `SCALERS` threads scale them, and so on (scaling
    beside the drawing slowed it: the threads feeding the JVM waited for the GIL)."""
    (out / "images").mkdir(exist_ok=True)
    images: dict[str, dict[str, ImageFile]] = {}
    with (tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(SCALERS) as pool,
          bars(len(sources), what) as bar):
        for first in range(0, len(sources), CHUNK):
            folder = Path(tmp) / str(first)
            folder.mkdir()
            results = engine.render(sources[first:first + CHUNK], folder, "png",
                                    lambda: bar.update(1))
            scaled: list[tuple[str, Future[dict[str, ImageFile]]]] = []
            for ident, result in zip(ids[first:first + CHUNK], results, strict=True):
                if not result.ok or result.image is None:
                    rejected[f"render: {result.error}"] += 1
                    continue
                scaled.append((ident, pool.submit(_scaled, result.image, scales, out, ident)))
            images.update((ident, done.result()) for ident, done in scaled)
    return images


def _scaled(image: Path, scales: tuple[float, ...], out: Path, ident: str
            ) -> dict[str, ImageFile]:
    """The drawing at `image` as RGB at every scale (Lanczos), written to
    `out`/images/IDENT@SCALE.png; `image` removed."""
    files = {}
    with Image.open(image) as opened:
        rgb = opened.convert("RGB")
    image.unlink()
    for scale in scales:
        name = f"images/{ident}@{scale_name(scale)}.png"
        img = rgb if scale == 1.0 else rgb.resize(
            (round(rgb.width * scale), round(rgb.height * scale)), Image.Resampling.LANCZOS)
        encoded = io.BytesIO()
        img.save(encoded, "PNG", optimize=False)
        data = encoded.getvalue()
        (out / name).write_bytes(data)
        files[scale_name(scale)] = ImageFile(name, img.width, img.height,
                                             hashlib.sha256(data).hexdigest())
    return files


def _write_manifest(path: Path, items: list[Item]) -> None:
    with path.open("w", encoding="utf-8") as out:
        out.writelines(json.dumps(item.to_json()) + "\n" for item in items)


def _cells(build: Build) -> dict[str, dict[str, int]]:
    """Base instances per condition × relation (the paper's Table 1 layout)."""
    counts = Counter((i.condition, i.relation) for i in build.instances)
    return {c: {r: counts[c, r] for r in RELATIONS} | {"base": sum(counts[c, r]
                                                                  for r in RELATIONS)}
            for c in CONDITIONS}
