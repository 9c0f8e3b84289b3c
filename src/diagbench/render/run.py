"""Render files of diagram code into a directory: the work of `diagbench render`."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from diagbench.formats.source import DEFAULT_MAX_BYTES, SourceError, read_source
from diagbench.render.engines import ENGINES, Engine, diagrams, make_engine
from diagbench.render.graph_svg import drawn_graph
from diagbench.render.images import scaled_copy
from diagbench.render.result import EngineMissing, RenderResult
from diagbench.render.svg_stats import svg_statistics


@dataclass(slots=True)
class Rendered:
    """One diagram of one file and what rendering it gave."""

    file: Path
    block: int
    engine: str
    line: int = 1  # the line of the file its diagram starts on
    result: RenderResult | None = None
    error: str | None = None  # the file itself could not be read
    scaled: list[dict] = field(default_factory=list)
    stats: dict | None = None

    @property
    def ok(self) -> bool:
        return self.result is not None and self.result.ok

    @property
    def reason(self) -> str | None:
        return self.error if self.result is None else self.result.error

    def as_dict(self) -> dict:
        out = {"file": str(self.file), "block": self.block, "engine": self.engine}
        if self.result is None:
            return out | {"ok": False, "error": self.error}
        return out | self.result.as_dict() | {"scaled": self.scaled, "stats": self.stats}


#: (path, text) → the name of the engine that draws it (the CLI asks the languages).
EngineOf = Callable[[Path, str], str]
#: (engine, SVG) → what it drew by its language's own statistics, or None to read the
#: drawing as a software diagram (the CLI asks the languages).
DrawnBy = Callable[[str, str], Mapping[str, Any] | None]


def collect(files: list[Path], engine_of: EngineOf, max_bytes: int = DEFAULT_MAX_BYTES
            ) -> list[tuple[Rendered, str]]:
    """One (record, source) per diagram of `files`, drawn by `engine_of(path, text)`; an
    unreadable file is one record with its reason and no source."""
    items: list[tuple[Rendered, str]] = []
    for path in files:
        try:
            text = read_source(path, max_bytes)
        except SourceError as exc:
            items.append((Rendered(path, 0, engine_of(path, ""), error=exc.reason), ""))
            continue
        engine = engine_of(path, text)
        items += [(Rendered(path, k, engine, line), source)
                  for k, (line, source) in enumerate(diagrams(engine, text))]
    return items


def render_files(items: list[tuple[Rendered, str]], out: Path, fmt: str = "png",
                 scales: tuple[float, ...] = (1.0,), max_side: int | None = None, jobs: int = 2,
                 timeout: float = 20.0,
                 progress: Callable[[], None] = lambda: None,
                 engines: Callable[[str, int, float], Engine] = make_engine,
                 drawn_by: DrawnBy = lambda engine, svg: None) -> list[Rendered]:
    """Render the collected diagrams into `out`, each engine's in one batch; invalid
    diagrams keep their reason and the rest go on. `progress` is called once per item;
    `engines(name, jobs, timeout)` gives each engine (an executor's `engine`, to render
    elsewhere than in local processes); `drawn_by` reads an SVG's statistics."""
    out.mkdir(parents=True, exist_ok=True)
    queues: dict[str, list[tuple[Rendered, str]]] = {name: [] for name in ENGINES}
    for record, source in items:
        if record.error is None:
            queues[record.engine].append((record, source))
        else:
            progress()
    files = {record.file for record, _ in items}
    root = Path(os.path.commonpath([str(f.resolve().parent) for f in files])) if files else out
    staging = out / ".staging"
    staging.mkdir(exist_ok=True)
    try:
        for name, queue in queues.items():
            if not queue:
                continue
            try:
                engine = engines(name, jobs, timeout)
                results = engine.render([s for _, s in queue], staging, fmt, progress)
            except EngineMissing as exc:
                for record, _ in queue:
                    record.error = str(exc)
                    progress()
                continue
            for (record, _), result in zip(queue, results, strict=True):
                record.result = result
                if result.error_line is not None:  # the engine counts from its diagram's start
                    result.error_line += record.line - 1
                if result.ok:
                    _place(record, out / _relative(record.file, root), fmt, scales, max_side,
                           drawn_by)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return [record for record, _ in items]


def _relative(path: Path, root: Path) -> Path:
    """`path` without its suffix, relative to the common folder of the inputs."""
    return path.resolve().relative_to(root).with_suffix("")


def _place(record: Rendered, base: Path, fmt: str, scales: tuple[float, ...],
           max_side: int | None, drawn_by: DrawnBy) -> None:
    """Move a valid image to `base`[-block].<fmt>; add scaled copies and SVG statistics."""
    result = record.result
    assert result is not None and result.image is not None  # only valid renders are placed
    base.parent.mkdir(parents=True, exist_ok=True)
    name = base.name + (f"-{record.block}" if record.block else "")
    out = base.parent
    final = out / f"{name}.{fmt}"
    result.image = Path(shutil.move(result.image, final))
    if fmt == "svg":
        svg = final.read_text(encoding="utf-8", errors="replace")
        drawn = drawn_by(record.engine, svg) or drawn_graph(record.engine, svg)
        record.stats = dict(drawn) if drawn is not None else svg_statistics(svg)
        return
    for scale in scales:
        if scale == 1.0 and not max_side:
            continue
        target = out / f"{name}@{scale:g}x.png"
        w, h, sha = scaled_copy(final, target, scale, max_side)
        record.scaled.append({"scale": scale, "image": str(target), "width": w, "height": h,
                              "sha256": sha})

