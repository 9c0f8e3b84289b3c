"""The warm librsvg rasteriser (render.rsvg) behind `programs.svg_to_png`: the bytes
rsvg-convert itself writes, one process for many drawings, what it cannot draw left to
rsvg-convert (its message kept), and its time-out."""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path

import pytest

from diagbench.render import programs, rsvg
from diagbench.render.programs import program, svg_to_png
from tests.threads import in_a_thread

#: SVGs drawn as the engines draw them: sizes in points (schemdraw), in pixels with a
#: view box (VARNA, netlistsvg), text, strokes, fills and a curve.
SVGS = [
    b'<svg xmlns="http://www.w3.org/2000/svg" width="151.2pt" height="72.5pt" '
    b'viewBox="0 0 151.2 72.5"><path d="M 10 10 C 40 60 80 0 140 60" stroke="black" '
    b'fill="none" stroke-width="2"/><text x="12" y="50" font-size="14">A and B</text></svg>',
    b'<svg xmlns="http://www.w3.org/2000/svg" width="233.7" height="97.1" '
    b'viewBox="-3.2 4.5 233.7 97.1"><circle cx="40" cy="50" r="17" fill="#dbe8f6" '
    b'stroke="rgb(0%, 0%, 100%)"/><line x1="0" y1="10" x2="220" y2="90" stroke="grey"/>'
    b'<text x="35" y="55" font-size="8">G</text></svg>',
]


def rsvg_convert(svg: bytes, zoom: float) -> bytes:
    """What rsvg-convert itself writes (the reference)."""
    return subprocess.run([program("rsvg-convert"), "--format", "png", "--background-color",
                           "white", "--zoom", f"{zoom:.4f}"], input=svg, capture_output=True,
                          check=True).stdout


@pytest.fixture
def no_rsvg_convert(monkeypatch):
    """The rsvg-convert runs svg_to_png makes (counted, still made)."""
    runs: list[list[str]] = []
    real = programs.run_program

    def counted(command, *args, **kwargs):
        runs.append(command)
        return real(command, *args, **kwargs)

    monkeypatch.setattr(programs, "run_program", counted)
    return runs


@pytest.mark.parametrize("zoom", [1.0, 2.0, 3.9500083653141544])
def test_the_warm_rasteriser_writes_rsvg_convert_s_own_bytes(zoom, no_rsvg_convert):
    for svg in SVGS:
        assert svg_to_png(svg, 30.0, zoom) == rsvg_convert(svg, zoom)
    assert no_rsvg_convert == []


def test_one_process_a_thread_draws_drawing_after_drawing_and_ends_with_it():
    def six() -> tuple[list[bytes | None], int, int]:
        pngs = [rsvg.to_png(SVGS[k % 2], "1.5000", 30.0) for k in range(6)]
        process = rsvg._THREAD.rasteriser.process
        return pngs, process.started, process.process.pid

    pngs, started, pid = in_a_thread(six)
    assert pngs == [rsvg_convert(SVGS[k % 2], 1.5) for k in range(6)]
    assert started == 1
    assert not Path(f"/proc/{pid}").exists()  # ended with its thread


def test_threads_drawing_at_once_have_a_rasteriser_each():
    pids: list[int] = []
    barrier = threading.Barrier(3)

    def draw() -> None:
        barrier.wait()
        assert rsvg.to_png(SVGS[0], "2.0000", 30.0) == rsvg_convert(SVGS[0], 2.0)
        pids.append(rsvg._THREAD.rasteriser.process.process.pid)

    threads = [threading.Thread(target=draw) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(pids)) == 3


def test_what_it_cannot_draw_is_rsvg_convert_s_with_its_message(no_rsvg_convert):
    with pytest.raises(ValueError, match=r"^rsvg-convert: Error reading SVG"):
        svg_to_png(b"<svg", 30.0)
    # no size of its own (a view box only): drawn by rsvg-convert, as before
    boxed = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10"><rect width="5" ' \
            b'height="5"/></svg>'
    assert svg_to_png(boxed, 30.0) == rsvg_convert(boxed, 1.0)
    assert len(no_rsvg_convert) == 2


def test_a_rasteriser_that_never_answers_times_out_and_one_that_cannot_start_is_left():
    silent = rsvg.Rasteriser()
    silent.process.command = ["sleep", "600"]  # reads nothing, answers nothing
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            silent.process.ensure()  # started: only the drawing's own time-out applies
            silent.to_png(SVGS[0], "1.0000", 0.5)
    finally:
        silent.close()
    ended = rsvg.Rasteriser()
    ended.process.command = ["true"]  # ends at once, as without librsvg
    assert ended.to_png(SVGS[0], "1.0000", 30.0) is None and ended.unusable
    started = ended.process.started
    assert ended.to_png(SVGS[0], "1.0000", 30.0) is None
    assert ended.process.started == started  # not started again
