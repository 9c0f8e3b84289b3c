"""SVG rasterised to PNG by librsvg kept warm: what `rsvg-convert --format png
--background-color white --zoom Z` writes, the same bytes, without starting
rsvg-convert for each drawing (its start — loading librsvg, cairo, pango and
fontconfig's font list — was most of a small drawing's rasterising).

A rasteriser is a `render.process` library worker (`python -m diagbench.render.rsvg`, an
empty jail, a minimal environment, an address-space limit, a time-out on every answer)
that calls librsvg and cairo (LGPL) through ctypes as rsvg-convert 2.54 does: an ARGB
surface of the zoomed size rounded up, painted white, scaled by the zoomed size over the
natural one, the document rendered into the natural viewport at 96 dpi, written by
cairo's PNG writer. Each drawing thread has one (`to_png`). It draws only
what it is sure to draw as rsvg-convert does — an SVG with a size of its own; anything
else (no size, a refused or oversized document, a rasteriser that cannot start) is left
to rsvg-convert itself (`to_png` answers None), whose drawing and message stand.
"""

from __future__ import annotations

import ctypes
import math
import threading
from typing import Any

from diagbench.render.process import LibraryWorker, serve, thread_worker

#: The address space a rasteriser may use.
MEMORY_BYTES = 2 * 1024**3
#: The largest side cairo draws (rsvg-convert refuses larger images).
MAX_SIDE = 32767
_DRAWN, _LEFT = b"png", b"left"


class Rasteriser(LibraryWorker):
    """One warm rasteriser process (see the module's docstring)."""

    def __init__(self) -> None:
        super().__init__("diagbench.render.rsvg", "librsvg", MEMORY_BYTES)

    def to_png(self, svg: bytes, zoom: str, timeout: float) -> bytes | None:
        """The PNG of `svg` at `zoom` (as rsvg-convert reads it), or None when it is left
        to rsvg-convert; subprocess.TimeoutExpired past `timeout` seconds."""
        answer = self.ask([zoom.encode(), svg], 2, timeout)
        return answer[1] if answer is not None and answer[0] == _DRAWN else None


_THREAD = threading.local()


def to_png(svg: bytes, zoom: str, timeout: float) -> bytes | None:
    """The PNG of `svg` at `zoom` by this thread's rasteriser (started with its first
    drawing, ended with the thread), or None when it is left to rsvg-convert;
    subprocess.TimeoutExpired past `timeout` seconds."""
    return thread_worker(_THREAD, "rasteriser", Rasteriser).to_png(svg, zoom, timeout)


# --- the rasteriser's side (its own process) ----------------------------------------------


class _Rectangle(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double),
                ("width", ctypes.c_double), ("height", ctypes.c_double)]


_WRITE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(ctypes.c_ubyte),
                          ctypes.c_uint)


def _libraries() -> tuple[ctypes.CDLL, ctypes.CDLL, ctypes.CDLL]:
    """librsvg, cairo and GObject with the signatures used here."""
    rsvg, cairo = ctypes.CDLL("librsvg-2.so.2"), ctypes.CDLL("libcairo.so.2")
    gobject = ctypes.CDLL("libgobject-2.0.so.0")
    pointer, double = ctypes.c_void_p, ctypes.c_double
    signatures: list[tuple[Any, Any, list[Any]]] = [
        (rsvg.rsvg_handle_new_from_data, pointer, [ctypes.c_char_p, ctypes.c_size_t, pointer]),
        (rsvg.rsvg_handle_set_dpi_x_y, None, [pointer, double, double]),
        (rsvg.rsvg_handle_get_intrinsic_size_in_pixels, ctypes.c_int,
         [pointer, ctypes.POINTER(double), ctypes.POINTER(double)]),
        (rsvg.rsvg_handle_render_document, ctypes.c_int,
         [pointer, pointer, ctypes.POINTER(_Rectangle), pointer]),
        (cairo.cairo_image_surface_create, pointer, [ctypes.c_int, ctypes.c_int, ctypes.c_int]),
        (cairo.cairo_surface_status, ctypes.c_int, [pointer]),
        (cairo.cairo_create, pointer, [pointer]),
        (cairo.cairo_set_source_rgba, None, [pointer, double, double, double, double]),
        (cairo.cairo_paint, None, [pointer]),
        (cairo.cairo_scale, None, [pointer, double, double]),
        (cairo.cairo_destroy, None, [pointer]),
        (cairo.cairo_surface_write_to_png_stream, ctypes.c_int, [pointer, _WRITE, pointer]),
        (cairo.cairo_surface_destroy, None, [pointer]),
        (gobject.g_object_unref, None, [pointer]),
    ]
    for function, result, arguments in signatures:
        function.restype, function.argtypes = result, arguments
    return rsvg, cairo, gobject


def rasterise(libraries: tuple[ctypes.CDLL, ctypes.CDLL, ctypes.CDLL], svg: bytes,
              zoom: float) -> bytes | None:
    """rsvg-convert's PNG of `svg` at `zoom` on white, or None for what it leaves to
    rsvg-convert (see the module's docstring)."""
    rsvg, cairo, gobject = libraries
    handle = rsvg.rsvg_handle_new_from_data(svg, len(svg), None)
    if not handle:
        return None
    try:
        rsvg.rsvg_handle_set_dpi_x_y(handle, 96.0, 96.0)
        width, height = ctypes.c_double(), ctypes.c_double()
        if not rsvg.rsvg_handle_get_intrinsic_size_in_pixels(
                handle, ctypes.byref(width), ctypes.byref(height)) \
                or width.value <= 0 or height.value <= 0:
            return None
        zoomed_width, zoomed_height = width.value * zoom, height.value * zoom
        pixels = (math.ceil(zoomed_width), math.ceil(zoomed_height))
        if max(pixels) > MAX_SIDE:
            return None
        surface = cairo.cairo_image_surface_create(0, *pixels)  # 0: ARGB32
        try:
            return _drawn(libraries, handle, surface, (width.value, height.value),
                          (zoomed_width, zoomed_height))
        finally:
            cairo.cairo_surface_destroy(surface)
    finally:
        gobject.g_object_unref(handle)


def _drawn(libraries: tuple[ctypes.CDLL, ctypes.CDLL, ctypes.CDLL], handle: int,
           surface: int, natural: tuple[float, float],
           zoomed: tuple[float, float]) -> bytes | None:
    """The document of `handle` drawn on `surface` and written as PNG (None on failure)."""
    rsvg, cairo, _ = libraries
    if cairo.cairo_surface_status(surface):
        return None
    context = cairo.cairo_create(surface)
    try:
        cairo.cairo_set_source_rgba(context, 1.0, 1.0, 1.0, 1.0)
        cairo.cairo_paint(context)
        cairo.cairo_scale(context, zoomed[0] / natural[0], zoomed[1] / natural[1])
        viewport = _Rectangle(0.0, 0.0, *natural)
        if not rsvg.rsvg_handle_render_document(handle, context, ctypes.byref(viewport), None):
            return None
    finally:
        cairo.cairo_destroy(context)
    chunks: list[bytes] = []

    def write(_closure: int, data: ctypes.Array[ctypes.c_ubyte], size: int) -> int:
        chunks.append(ctypes.string_at(data, size))
        return 0

    if cairo.cairo_surface_write_to_png_stream(surface, _WRITE(write), None):
        return None
    return b"".join(chunks)


def main() -> None:
    """Answer each request (a zoom, an SVG) with `png` and the PNG, or `left` and
    nothing, until the input ends."""
    libraries = _libraries()

    def answer(request: list[bytes]) -> list[bytes]:
        png = rasterise(libraries, request[1], float(request[0]))
        return [_DRAWN, png] if png is not None else [_LEFT, b""]

    serve(answer, 2)


if __name__ == "__main__":
    main()
