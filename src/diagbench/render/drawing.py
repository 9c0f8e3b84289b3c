"""The engine of a drawing library that runs in Python (Bio.Phylo, logomaker on
matplotlib): `DrawingEngine` hands each source to its `drawer` in worker processes
(`render.worker`: time-out, memory limit), kept warm from one `render` to the next
until the engine is closed or collected, and keeps both images the drawer makes in
one pass, PNG and SVG, so that rendering the same sources in the other format (as the
benchmarks and tests do) draws nothing again.

A drawer ("module:attr") takes a source and returns {"svg": bytes, "png": bytes}, or
{"error": the reader's or the library's message, "line": its line or None, and
"too_large": True when it refuses a right source only for its drawing limit}. An engine
whose drawer only runs separate programs (`render.programs`: abcm2ps, VARNA,
rsvg-convert), each under its own time-out, sets `programs`: its drawer runs in `jobs`
threads and takes the time-out as a second argument.
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import subprocess
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from diagbench.references import load
from diagbench.render.result import EngineMissing, RenderResult, finish, refusal
from diagbench.render.worker import Outcome, Workers


class DrawingEngine:
    """Render by a Python drawer in `jobs` worker processes; a subclass names itself
    (`name`), its drawer, the modules a worker imports before its first job (`preload`,
    so that the time-out covers drawing, not starting) and its `version()`."""

    name: ClassVar[str]
    drawer: ClassVar[str]
    preload: ClassVar[tuple[str, ...]] = ()
    programs: ClassVar[bool] = False

    def __init__(self, jobs: int = 2, timeout: float = 20.0) -> None:
        self.jobs = jobs
        self.timeout = timeout
        self._drawn: dict[str, dict[str, Any]] = {}
        self._workers: Workers | None = None

    def close(self) -> None:
        """End the drawer's worker processes and forget the images kept of its last
        batches (a later render starts them again)."""
        self._drawn.clear()
        if self._workers is not None:
            self._workers.close()

    def _draw(self, sources: list[str]) -> list[Outcome]:
        """Each source drawn: by separate programs in `jobs` threads, else in `jobs`
        worker processes kept warm from one render to the next (ended with the engine)."""
        if self.programs:
            return _in_threads(self.drawer, sources, self.jobs, self.timeout)
        if self._workers is None:
            self._workers = Workers(self.drawer, self.preload, self.jobs)
            weakref.finalize(self, self._workers.close)
        return self._workers.run(sources, self.timeout)

    def version(self) -> str:
        raise NotImplementedError

    @staticmethod
    def versions(*packages: str) -> str:
        """"name version + …" of the installed Python packages the drawer uses;
        EngineMissing when one is absent."""
        from importlib.metadata import PackageNotFoundError, version

        try:
            return " + ".join(f"{name} {version(name)}" for name in packages)
        except PackageNotFoundError as exc:
            raise EngineMissing(f"the Python package {exc} is not installed: "
                                "bash scripts/setup.sh installs it") from None

    def render(self, sources: list[str], out_dir: Path, fmt: str = "png",
               progress: Callable[[], None] = lambda: None) -> list[RenderResult]:
        version = self.version()
        results = [RenderResult(k, self.name, version, error=refusal(s))
                   for k, s in enumerate(sources)]
        keys = [hashlib.sha256(s.encode("utf-8")).hexdigest() for s in sources]
        todo = [k for k, r in enumerate(results) if r.error is None and keys[k] not in self._drawn]
        start = time.perf_counter()
        outcomes = self._draw([sources[k] for k in todo])
        seconds = (time.perf_counter() - start) / max(1, len(todo))
        for k, (ok, value) in zip(todo, outcomes, strict=True):
            self._drawn[keys[k]] = value if ok else {"error": str(value), "line": None}
        for k, result in enumerate(results):
            drawn = self._drawn.get(keys[k], {})
            if result.error is None and "error" in drawn:
                result.error, result.error_line = drawn["error"], drawn["line"]
                result.too_large = bool(drawn.get("too_large"))
            elif result.error is None:
                finish(result, drawn[fmt], fmt, out_dir / f"{k:06d}.{fmt}")
                result.seconds = seconds if k in todo else 0.0
            progress()
        return results


def _in_threads(drawer: str, sources: list[str], jobs: int, timeout: float
                ) -> list[Outcome]:
    """A drawer of separate programs: `drawer(source, timeout)` in `jobs` threads; a
    program's time-out or failure is its source's error."""
    draw = load(drawer)

    def one(source: str) -> Outcome:
        try:
            return True, draw(source, timeout)
        except subprocess.TimeoutExpired:
            return False, f"timed out after {timeout:g} s"
        except (OSError, ValueError) as exc:  # a program missing or failing
            return False, str(exc)

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(one, sources))


@contextmanager
def figure(width: float, height: float) -> Iterator[tuple[Any, Any]]:
    """A matplotlib figure and axes (Agg, 100 dpi, `width` × `height` inches; SVG text
    kept as `<text>`, ids seeded), closed afterwards; math text parsed, plain text
    measured and fonts found once per process (`parse_math_once`, `measure_text_once`,
    `find_fonts_once`), artists clipped within the Axes left out of tight boxes
    (`skip_clipped_in_tight_boxes`). For drawers, in a worker."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    matplotlib.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "diagbench"})
    parse_math_once()
    measure_text_once()
    find_fonts_once()
    skip_clipped_in_tight_boxes()
    fig, axes = plt.subplots(figsize=(width, height), dpi=100)
    try:
        yield fig, axes
    finally:
        plt.close(fig)


#: How many math-text parses, text measures, fonts found or text outlines a worker
#: keeps (each emptied when full).
KEPT = 4096
#: The settings matplotlib's font lookup, text measuring and outlining read besides a
#: text's own font properties: its `findfont` cache key (the font.* defaults and
#: family lists), the font's kerning and last-resort fallback, the hinting, and whether
#: a text is math or TeX.
FONT_SETTINGS = ("font.family", "font.style", "font.variant", "font.weight", "font.stretch",
                 "font.size", "font.serif", "font.sans-serif", "font.cursive",
                 "font.fantasy", "font.monospace", "font.enable_last_resort",
                 "text.kerning_factor", "text.hinting", "text.hinting_factor",
                 "text.usetex", "text.parse_math")

_T = TypeVar("_T")


def _once(kept: dict[tuple[Any, ...], Any], key: tuple[Any, ...],
          make: Callable[[], _T]) -> _T:
    """`kept[key]`, made by `make()` the first time (`kept` emptied when it holds `KEPT`)."""
    found = kept.get(key)
    if found is None:
        if len(kept) >= KEPT:
            kept.clear()
        found = kept[key] = make()
    return found


def font_settings() -> tuple[Any, ...]:
    """The current `FONT_SETTINGS` (those this matplotlib has), hashable: part of the
    key of every text measure, font or outline kept."""
    get, present = _font_setting_getter()
    return tuple(tuple(v) if isinstance(v, list) else v for v in map(get, present))


@functools.cache
def _font_setting_getter() -> tuple[Callable[[str], Any], tuple[str, ...]]:
    """How to read one of matplotlib's settings quickly (its raw getter where it has
    one: this is read for every text drawn), and which `FONT_SETTINGS` it has."""
    import matplotlib

    rc: Any = matplotlib.rcParams
    return getattr(rc, "_get", rc.__getitem__), tuple(k for k in FONT_SETTINGS if k in rc)


def parse_math_once() -> None:
    """Have matplotlib parse each math text (`$…$`) once per process, not once per
    renderer: its own cache is keyed on the parser, and every renderer (each `savefig`,
    each format, each figure) makes a new parser, so a drawing saved as SVG and PNG, and
    every later drawing, parsed the same labels again (Qiskit's gate and wire labels
    are math text: two thirds of its drawing time). The shared cache is keyed on all a
    parse depends on (the parser's output type, text, dpi, font, antialiasing, hinting
    and the `mathtext.*` settings), so the images are the same bytes. Installed once
    per process; for drawers, in a worker."""
    import matplotlib
    from matplotlib import mathtext

    parser: Any = mathtext.MathTextParser
    parse = getattr(getattr(parser, "_parse_cached", None), "__wrapped__", None)
    if getattr(parser, "_diagbench_shared", False) or parse is None:
        return  # shared already, or a matplotlib without that cache: as it is
    settings = tuple(sorted(k for k in matplotlib.rcParams if k.startswith("mathtext.")))
    kept: dict[tuple[Any, ...], Any] = {}

    def parse_once(self: Any, text: str, dpi: float, prop: Any, antialiased: bool,
                   load_glyph_flags: Any) -> Any:
        rc = matplotlib.rcParams
        key = (self._output_type, text, dpi, prop, antialiased, load_glyph_flags,
               tuple(rc[k] for k in settings))
        return _once(kept, key, lambda: parse(self, text, dpi, prop, antialiased,
                                              load_glyph_flags))

    parser._parse_cached = parse_once
    parser._diagbench_shared = True


def measure_text_once() -> None:
    """Have matplotlib measure each plain text (its width, height and descent) once per
    process and kind of renderer, not once per renderer: its own cache is kept per
    renderer, and a drawing saved as SVG and PNG with a tight box makes four (each
    format measures its layout, then draws), each laying out every tick label, axis
    label and title again, in every later drawing too. The shared cache is keyed on
    all a measure depends on (the renderer's measuring method and its pixels per
    inch, the text, its font properties, the figure's dpi, `FONT_SETTINGS`), so the
    images are the same bytes; math and TeX text are measured as before (math text:
    `parse_math_once`). Installed once per process; for drawers, in a worker."""
    from matplotlib import text as module

    text: Any = module
    measure = getattr(text, "_get_text_metrics_with_cache", None)
    if getattr(text, "_diagbench_shared", False) or measure is None:
        return  # shared already, or a matplotlib without that function: as it is
    kept: dict[tuple[Any, ...], Any] = {}

    def measure_once(renderer: Any, s: str, prop: Any, ismath: Any, dpi: float) -> Any:
        if ismath:
            return measure(renderer, s, prop, ismath, dpi)
        method = renderer.get_text_width_height_descent  # an SVG renderer's: its inner one
        key = (type(getattr(method, "__self__", renderer)), getattr(method, "__func__", method),
               renderer.points_to_pixels(72), s, prop.copy(), dpi, font_settings())
        return _once(kept, key, lambda: method(s, prop, ismath))

    text._get_text_metrics_with_cache = measure_once
    text._diagbench_shared = True


def find_fonts_once() -> None:
    """Have matplotlib find a font's files and read a font's tables once per process:
    its text layout finds the text's font (`FontManager._find_fonts_by_props`: each
    family looked up again, the settings read again) and reads the font's OS/2, hhea
    and head tables for every text it lays out, in every renderer, and Agg finds the
    font again to draw each text. The fonts found are keyed on the font properties,
    the search's arguments, the fonts the manager knows, `FONT_SETTINGS` and
    MPL_IGNORE_SYSTEM_FONTS; a font's tables are its file's (one font kept per file,
    settings and thread, as matplotlib keeps them). Installed once per process; for
    drawers, in a worker."""
    from matplotlib import font_manager
    from matplotlib import text as text_module

    manager: Any = font_manager.FontManager
    text: Any = text_module
    find = getattr(manager, "_find_fonts_by_props", None)
    if getattr(manager, "_diagbench_shared", False) or find is None \
            or getattr(text, "get_font", None) is not font_manager.get_font:
        return  # shared already, or a matplotlib whose text layout finds fonts otherwise
    found: dict[tuple[Any, ...], Any] = {}
    fonts: dict[tuple[Any, ...], Any] = {}

    def find_once(self: Any, prop: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(prop, font_manager.FontProperties):
            return find(self, prop, *args, **kwargs)
        key = (self, len(self.ttflist), len(self.afmlist), prop.copy(), args,
               tuple(sorted(kwargs.items())), font_settings(),
               os.environ.get("MPL_IGNORE_SYSTEM_FONTS"))
        return list(_once(found, key, lambda: find(self, prop, *args, **kwargs)))

    def font_once(paths: Any) -> Any:
        key = (tuple(paths) if isinstance(paths, list) else paths, font_settings(),
               threading.get_ident())  # matplotlib keeps a font per thread too
        return _once(fonts, key, lambda: _FontTables(font_manager.get_font(paths)))

    manager._find_fonts_by_props = find_once
    manager._diagbench_shared = True
    text.get_font = font_once


class _FontTables:
    """A matplotlib font whose tables are read once (`find_fonts_once`); the rest is
    the font's."""

    def __init__(self, font: Any) -> None:
        self._font = font
        self._tables: dict[str, Any] = {}

    def get_sfnt_table(self, name: str) -> Any:
        if name not in self._tables:
            self._tables[name] = self._font.get_sfnt_table(name)
        return self._tables[name]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._font, name)


def skip_clipped_in_tight_boxes() -> None:
    """Have matplotlib leave out of an Axes' tight box every artist clipped to a box
    within the Axes' own (which holds it already, so the box is the same), not only
    those clipped to a box equal to it: the clip box matplotlib gives an artist is the
    Axes' box computed another way, at some sizes and dpi a rounding error inside it
    (every SVG of a logo), and then it measured every artist again for each tight
    save (the extents of every letter's curves). Installed once per process; for
    drawers, in a worker."""
    from matplotlib import artist as artist_module
    from matplotlib.transforms import TransformedPatchPath

    artist: Any = artist_module.Artist
    clipped = getattr(artist, "_fully_clipped_to_axes", None)
    if getattr(artist, "_diagbench_shared", False) or clipped is None:
        return  # installed already, or a matplotlib without that test: as it is

    def clipped_within_axes(self: Any) -> bool:
        if clipped(self):
            return True
        box, path = self.get_clip_box(), self.get_clip_path()
        if self.axes is None or not self.get_clip_on() or box is None:
            return False
        if path is not None and not (isinstance(path, TransformedPatchPath)
                                     and getattr(path, "_patch", None) is self.axes.patch):
            return False
        axes = self.axes.bbox
        return bool(box.xmin >= axes.xmin and box.ymin >= axes.ymin
                    and box.xmax <= axes.xmax and box.ymax <= axes.ymax)

    artist._fully_clipped_to_axes = clipped_within_axes
    artist._diagbench_shared = True


_OUTLINES: dict[tuple[Any, ...], Any] = {}


def text_path(xy: tuple[float, float], s: str, size: float | None = None, prop: Any = None,
              **kwargs: Any) -> Any:
    """matplotlib's `TextPath(xy, s, size, prop, …)`, outlined once per process: the same
    path for the same text, position, size, font and `FONT_SETTINGS`, its extents (as
    it lies) computed once; read only (never resized nor moved); math or TeX text
    outlined each time (and fonts given otherwise than as font properties or a
    pattern). For drawers that outline the same letters again and again
    (logomaker outlines every letter of a logo twice and reads both extents), in a
    worker."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath

    if "$" in s or kwargs.get("usetex") or not isinstance(prop, FontProperties | str | None):
        return TextPath(xy, s, size, prop, **kwargs)
    font = prop.copy() if isinstance(prop, FontProperties) else prop
    key = (tuple(xy), s, size, font, tuple(sorted(kwargs.items())), font_settings())
    return _once(_OUTLINES, key, lambda: _kept_text_path()(xy, s, size, font, **kwargs))


@functools.cache
def _kept_text_path() -> type:
    """matplotlib's TextPath with its own extents computed once (`text_path`)."""
    from matplotlib.textpath import TextPath

    class KeptTextPath(TextPath):
        _extents: Any = None

        def get_extents(self, transform: Any = None, **kwargs: Any) -> Any:
            if transform is not None or kwargs:
                return super().get_extents(transform, **kwargs)
            if self._extents is None:
                self._extents = super().get_extents()
            return self._extents.frozen()

    return KeptTextPath


def images(fig: Any) -> dict[str, bytes]:
    """{"svg": …, "png": …} of one drawn figure (cropped to what is drawn)."""
    out = {}
    for fmt in ("svg", "png"):
        buffer = io.BytesIO()
        fig.savefig(buffer, format=fmt, bbox_inches="tight",
                    metadata={"Date": None} if fmt == "svg" else None)
        out[fmt] = buffer.getvalue()
    return out
