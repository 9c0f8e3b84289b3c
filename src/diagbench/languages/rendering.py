"""Render files of diagram code into a directory, the work of `diagbench render`: each
file's language detected, its diagrams split as the engine draws them, rendered in one
batch per engine, and (as SVG) read back by the language (`Language.drawn`)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from diagbench.formats.source import DEFAULT_MAX_BYTES, SourceError, read_source
from diagbench.languages import Language, detect, make_engine
from diagbench.render.engines import Engine
from diagbench.render.images import scaled_copy
from diagbench.render.result import EngineMissing, RenderResult
from diagbench.render.validity import check


@dataclass(slots=True)
class Rendered:
    """One diagram of one file and what rendering it gave."""

    file: Path
    block: int
    language: Language
    kind: str = ""  # as its language's reader tells it (read for SVG statistics only)
    line: int = 1  # the line of the file its diagram starts on
    result: RenderResult | None = None
    error: str | None = None  # the file itself could not be read
    scaled: list[dict] = field(default_factory=list)
    stats: dict | None = None

    @property
    def engine(self) -> str:
        return self.language.engine

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


#: (engine name, jobs, time-out) → the engine (an executor's `engine`, to render elsewhere
#: than in local processes).
Engines = Callable[[str, int, float], Engine]


def collect(files: list[Path], max_bytes: int = DEFAULT_MAX_BYTES
            ) -> list[tuple[Rendered, str]]:
    """One (record, source) per diagram of `files` as its language splits it, each file
    read once for its diagrams' kinds (what `Language.prepare` and `drawn` need); an
    unreadable file is one record with its reason and no source."""
    items: list[tuple[Rendered, str]] = []
    for path in files:
        try:
            text = read_source(path, max_bytes)
        except SourceError as exc:
            items.append((Rendered(path, 0, detect(path, ""), error=exc.reason), ""))
            continue
        language = detect(path, text)
        read = [p.kind for p in language.read(text)]
        items += [(Rendered(path, k, language, read[min(k, len(read) - 1)] if read else "",
                            line), source)
                  for k, (line, source) in enumerate(language.split(text))]
    return items


def render_files(items: list[tuple[Rendered, str]], out: Path, fmt: str = "png",
                 scales: tuple[float, ...] = (1.0,), max_side: int | None = None, jobs: int = 2,
                 timeout: float = 20.0,
                 progress: Callable[[], None] = lambda: None,
                 engines: Engines = make_engine) -> list[Rendered]:
    """Render the collected diagrams into `out`, each engine's in one batch; invalid
    diagrams keep their reason and the rest go on. `progress` is called once per item;
    `engines(name, jobs, timeout)` gives each engine. Each valid diagram carries what
    its engine drew (`Language.drawn`), read off an SVG drawn from the source its
    language prepares for it (`Language.prepare`): the SVG written, or, for PNG, one
    drawn beside it."""
    out.mkdir(parents=True, exist_ok=True)
    queues: dict[str, list[tuple[Rendered, str]]] = {}
    for record, source in items:
        if record.error is None:
            queues.setdefault(record.engine, []).append((record, source))
        else:
            progress()
    files = {record.file for record, _ in items}
    root = Path(os.path.commonpath([str(f.resolve().parent) for f in files])) if files else out
    staging = out / ".staging"
    (staging / "stats").mkdir(parents=True, exist_ok=True)
    try:
        for name, queue in queues.items():
            try:
                engine = engines(name, jobs, timeout)
                results = engine.render([_prepared(r, s, fmt == "svg") for r, s in queue],
                                        staging, fmt, progress)
            except EngineMissing as exc:
                for record, _ in queue:
                    record.error = str(exc)
                    progress()
                continue
            try:
                for (record, _), result in zip(queue, results, strict=True):
                    record.result = result
                    if result.error_line is not None:  # counted from its diagram's start
                        result.error_line += record.line - 1
                    if result.ok:
                        _place(record, out / _relative(record.file, root), fmt, scales,
                               max_side)
                if fmt == "png":  # the same engine, still warm, draws the SVGs
                    _png_statistics(engine, [(r, s) for r, s in queue if r.ok],
                                    staging / "stats")
            finally:
                ended(engine)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return [record for record, _ in items]


def ended(engine: Engine) -> None:
    """End the processes an engine keeps warm between batches (those that keep any have
    a `close()`)."""
    close = getattr(engine, "close", None)
    if callable(close):
        close()


def _prepared(record: Rendered, source: str, marked: bool) -> str:
    return record.language.prepare(source, record.kind, marked)


def _png_statistics(engine: Engine, drawn: list[tuple[Rendered, str]], folder: Path) -> None:
    """What the engine drew in each PNG, read off an SVG of the same diagram."""
    svgs = engine.render([_prepared(r, s, True) for r, s in drawn], folder, "svg")
    for (record, _), svg in zip(drawn, svgs, strict=True):
        if svg.ok and svg.image is not None:
            text = svg.image.read_text(encoding="utf-8", errors="replace")
            record.stats = record.language.drawn(record.kind, text).as_dict()


def _relative(path: Path, root: Path) -> Path:
    """`path` without its suffix, relative to the common folder of the inputs."""
    return path.resolve().relative_to(root).with_suffix("")


def _place(record: Rendered, base: Path, fmt: str, scales: tuple[float, ...],
           max_side: int | None) -> None:
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
        record.stats = record.language.drawn(record.kind, svg).as_dict()
        return
    for scale in scales:
        if scale == 1.0 and not max_side:
            continue
        target = out / f"{name}@{scale:g}x.png"
        w, h, sha = scaled_copy(final, target, scale, max_side)
        record.scaled.append({"scale": scale, "image": str(target), "width": w, "height": h,
                              "sha256": sha})



def validity(language: Language, codes: list[str], jobs: int = 2, timeout: float = 60.0,
             fmt: str = "svg", keep: Sequence[Path] | None = None
             ) -> list[tuple[bool, str | None]]:
    """(valid, the engine's error) of each code of `language`: whether its engine draws
    it (or refuses it only for its size: `render.validity`); with `keep`, each drawing
    made is kept there (a path per code)."""
    if not codes:
        return []
    engine = language.make_engine(jobs, timeout)
    try:
        return check(engine, [language.prepare(code, "", marked=False) for code in codes],
                     fmt, keep)
    finally:
        ended(engine)
