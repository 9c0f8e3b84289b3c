"""The warm Graphviz (render.graphviz_warm) behind the Graphviz engine: what `dot -T<fmt>`
writes and says, the same bytes, messages and exit status, many diagrams in one process,
a PNG's SVG from the same layout kept for the next batch, files outside the jail out of
reach, and `dot` itself for whatever the warm process cannot draw."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from PIL import Image

from diagbench.render import graphviz, graphviz_warm
from diagbench.render.graphviz import GraphvizEngine, dot_version
from diagbench.render.graphviz_warm import DotOutput
from diagbench.render.process import frame
from tests.conftest import REALWORLD
from tests.threads import in_a_thread

#: Graphviz's own example graphs with clusters: drawn after another graph by a process
#: that drew before, Graphviz (which orders subgraphs by where it allocated their names)
#: drew some of their clusters in another order than `dot`.
CLUSTERED = ["KW91.gv", "clust.gv", "clust2.gv", "clust4.gv", "try.gv"]

#: Sources as the engines give them: records, clusters (whose order hangs on where
#: Graphviz allocated their names: a process that drew before drew them in another order),
#: HTML-like labels, another layout, a Latin-1 source, warnings, syntax errors and an
#: error found while laying out.
SOURCES = [
    "digraph R { node [shape=record]; s [label=\"<f0> left|<f1> mid|<f2> right\"];"
    " t [label=\"{a|{b|c}}\"]; s:f1 -> t; }",
    "digraph G {\n subgraph cluster_0 { label=\"hello\"; a -> b; a -> c; color=hotpink }\n"
    " subgraph cluster_1 { label=\"MSDOT\"; style=dashed; x -> y; x -> z; y -> q }\n"
    " top -> a; top -> y; y -> b;\n}\n",
    "graph H { n [shape=plaintext, label=<<table><tr><td port=\"p\"><b>bold</b></td>"
    "<td bgcolor=\"#1f4e79\">x</td></tr></table>>]; n:p -- m; layout=neato }",
    "digraph L { charset=latin1; a [label=\"café ÿ\"]; a -> b; }",
    "digraph W { a [shape=nosuchshape]; a -> b [arrowhead=nosucharrow]; }",
    "digraph {\n a -> b\n c -> -> d\n}",
    "digraph E {\n a -> b;\n b [label=<<table><tr></table>>];\n}",
    "graph { a -> b }",
]


def dot(source: bytes, fmt: str) -> DotOutput:
    """What `dot -T<fmt>` itself writes, says and exits with (the reference)."""
    with tempfile.TemporaryDirectory() as jail:
        done = subprocess.run(["dot", f"-T{fmt}"], input=source, capture_output=True,
                              cwd=jail, check=False, env={
                                  "PATH": "/usr/bin:/bin", "HOME": jail, "LC_ALL": "C.UTF-8",
                                  "SERVER_NAME": "diagbench", "GV_FILE_PATH": jail})
    return DotOutput(done.stdout, done.stderr.decode("utf-8", "replace"), done.returncode)


def encoded(source: str) -> bytes:
    return source.encode("latin-1" if "latin1" in source else "utf-8")


@pytest.fixture
def dot_runs(monkeypatch):
    """The `dot` processes the engine starts to draw (counted, still started)."""
    runs: list[list[str]] = []
    real = graphviz.run_program

    def counted(command, *args, **kwargs):
        if command[-1].startswith("-T"):  # not `dot -V`
            runs.append(command)
        return real(command, *args, **kwargs)

    monkeypatch.setattr(graphviz, "run_program", counted)
    return runs


@pytest.fixture
def warm_draws(monkeypatch):
    """The requests the engine makes of the warm Graphviz (counted, still made)."""
    draws: list[tuple[str, ...]] = []
    real = graphviz_warm.draw

    def counted(source, formats, timeout, version):
        draws.append(formats)
        return real(source, formats, timeout, version)

    monkeypatch.setattr(graphviz_warm, "draw", counted)
    return draws


def test_one_process_draws_every_source_as_dot_does_png_and_svg_from_one_layout():
    gallery = [(REALWORLD / "graphviz-gallery" / "directed" / name).read_text(encoding="utf-8")
               for name in CLUSTERED]

    def draw_all():
        drawn = [graphviz_warm.draw(encoded(s), ("png", "svg"), 30.0, dot_version())
                 for s in SOURCES + gallery]
        return drawn, graphviz_warm._THREAD.worker.process

    drawn, process = in_a_thread(draw_all)
    for source, outputs in zip(SOURCES + gallery, drawn, strict=True):
        assert outputs is not None, source
        for fmt in ("png", "svg"):
            assert outputs[fmt] == dot(encoded(source), fmt), (source, fmt)
    assert process.started == 1
    assert not process.running  # ended with its thread
    # the sources do what they are here for
    assert "Warning" in drawn[4]["png"].stderr and drawn[4]["png"].returncode == 0
    assert drawn[5]["svg"].returncode == 1 and "syntax error in line 3" in drawn[5]["svg"].stderr
    assert drawn[6]["svg"].returncode == 1 and drawn[6]["svg"].data


def test_the_engine_starts_no_dot_and_keeps_a_png_s_svg_for_the_next_batch(
        tmp_path, dot_runs, warm_draws):
    engine = GraphvizEngine(jobs=1)
    (tmp_path / "png").mkdir()
    (tmp_path / "svg").mkdir()
    pngs = engine.render(SOURCES, tmp_path / "png", "png")
    svgs = engine.render(SOURCES, tmp_path / "svg", "svg")
    assert dot_runs == [] and warm_draws == [("png", "svg")] * len(SOURCES)
    for source, png, svg in zip(SOURCES, pngs, svgs, strict=True):
        for result, fmt in ((png, "png"), (svg, "svg")):
            reference = dot(encoded(source), fmt)
            assert result.ok == (not reference.returncode), source
            if result.ok:
                assert result.image is not None
                assert result.image.read_bytes() == reference.data
            else:
                assert result.error == reference.stderr.strip().splitlines()[0]
    assert (pngs[5].error, pngs[5].error_line) == (svgs[5].error, 3)
    # kept for one batch: drawn again after it, and after `close`
    engine.render(SOURCES[:1], tmp_path / "svg", "svg")
    assert warm_draws[-1] == ("svg",)
    engine.render(SOURCES[:1], tmp_path / "png", "png")
    engine.close()
    engine.render(SOURCES[:1], tmp_path / "svg", "svg")
    assert warm_draws[-2:] == [("png", "svg"), ("svg",)] and dot_runs == []


def test_image_and_shapefile_read_no_file_outside_the_jail(tmp_path, dot_runs):
    secret = tmp_path / "secret.png"
    Image.new("RGB", (60, 60), (255, 0, 0)).save(secret)
    sources = [f'digraph {{ a [image="{secret}" label=""] }}',
               f'digraph {{ a [shape=custom shapefile="{secret}" label="x"] }}',
               f'digraph {{ imagepath="{tmp_path}"; a [image="secret.png" label=""] }}']
    engine = GraphvizEngine(jobs=1)
    svgs = engine.render(sources, tmp_path, "svg")
    pngs = engine.render(sources, tmp_path, "png")
    assert dot_runs == []
    for svg, png in zip(svgs, pngs, strict=True):
        assert svg.ok and png.ok and png.image is not None
        assert "<image" not in svg.image.read_text(encoding="utf-8")
        with Image.open(png.image) as drawn:
            assert (255, 0, 0) not in {colour for _, colour in
                                       drawn.convert("RGB").getcolors(1 << 20)}


def test_a_worker_killed_mid_batch_loses_no_diagram_and_none_outlives_the_render(
        tmp_path, dot_runs):
    killed: list[int] = []
    started: list[int] = []
    pids: set[int] = set()

    def kill_after_the_second() -> None:  # in the drawing thread, after each diagram
        process = graphviz_warm._THREAD.worker.process
        started.append(process.started)
        assert process.process is not None
        pids.add(process.process.pid)
        if not killed and process.process is not None and process.requests == 2:
            killed.append(process.process.pid)
            os.kill(process.process.pid, signal.SIGKILL)
            process.process.wait()

    results = GraphvizEngine(jobs=1).render(SOURCES[:5], tmp_path, "png",
                                           kill_after_the_second)
    assert len(killed) == 1 and started == [1, 1, 2, 2, 2]  # the next: a fresh process
    for source, result in zip(SOURCES[:5], results, strict=True):
        assert result.ok and result.image is not None
        assert result.image.read_bytes() == dot(encoded(source), "png").data
    assert dot_runs == []
    assert len(pids) == 2 and not any(Path(f"/proc/{pid}").exists() for pid in pids)


def test_a_worker_that_dies_on_a_request_leaves_it_to_dot(tmp_path, dot_runs, monkeypatch):
    # says it is ready, then ends on the first byte of a request
    dies = [sys.executable, "-c", "import sys; sys.stdout.buffer.write("
            f"{frame(b'ready')!r}); sys.stdout.flush(); sys.stdin.buffer.read(1)"]
    real = graphviz_warm.GraphvizWorker.__init__

    def dying(self, version: str) -> None:
        real(self, version)
        self.process.command = dies

    monkeypatch.setattr(graphviz_warm.GraphvizWorker, "__init__", dying)
    results = GraphvizEngine(jobs=1).render(SOURCES[:2], tmp_path, "png")
    assert len(dot_runs) == 2
    assert [r.image.read_bytes() for r in results if r.image] == \
        [dot(encoded(s), "png").data for s in SOURCES[:2]]


@pytest.mark.parametrize("missing", ["library", "version"])
def test_without_the_library_dot_draws_and_the_worker_is_not_started_again(
        tmp_path, dot_runs, monkeypatch, missing):
    if missing == "library":
        monkeypatch.setattr(graphviz_warm, "LIBRARIES",
                            ("libcgraph-missing.so.6", "libgvc.so.6"))
    else:  # a libgvc of another Graphviz than `dot`'s
        real = graphviz_warm.draw
        monkeypatch.setattr(graphviz_warm, "draw", lambda source, formats, timeout, _:
                            real(source, formats, timeout, "0.0.0"))
    workers: list[graphviz_warm.GraphvizWorker] = []
    results = GraphvizEngine(jobs=1).render(
        SOURCES[:3], tmp_path, "svg", lambda: workers.append(graphviz_warm._THREAD.worker))
    assert len(dot_runs) == 3
    assert workers[-1].unusable and workers[-1].process.started == 1
    assert [r.image.read_bytes() for r in results if r.image] == \
        [dot(encoded(s), "svg").data for s in SOURCES[:3]]


def test_a_source_of_two_graphs_and_another_format_are_dot_s(tmp_path, dot_runs):
    two = "digraph A { a -> b }\ndigraph B { c -> d }\n"
    assert in_a_thread(
        lambda: graphviz_warm.draw(two.encode(), ("svg",), 30.0, dot_version())) is None
    [svg] = GraphvizEngine(jobs=1).render([two], tmp_path, "svg")
    assert svg.ok and svg.image is not None
    assert svg.image.read_bytes() == dot(two.encode(), "svg").data
    GraphvizEngine(jobs=1).render([SOURCES[1]], tmp_path, "dot")
    assert [command[-1] for command in dot_runs] == ["-Tsvg", "-Tdot"]


def test_a_worker_that_never_answers_times_out():
    silent = graphviz_warm.GraphvizWorker(dot_version())
    silent.process.command = ["sleep", "600"]  # reads nothing, answers nothing
    try:
        silent.process.ensure()  # started: only the diagram's own time-out applies
        with pytest.raises(subprocess.TimeoutExpired):
            silent.draw(b"digraph { a }", ("png",), 0.5)
    finally:
        silent.close()


def _until(done, seconds: float = 30.0) -> None:
    """Wait until `done()` (at most `seconds`: a bound, not a measure)."""
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        time.sleep(0.01)


def _waiting_child(pid: int) -> int:
    """The child a worker forked for its next request (once it has forked it)."""
    children = Path(f"/proc/{pid}/task/{pid}/children")
    _until(lambda: bool(children.read_text().split()))
    [child] = children.read_text().split()
    return int(child)


def test_a_diagram_s_child_that_fails_leaves_it_to_dot_and_the_worker_goes_on():
    def ask():
        worker = graphviz_warm.GraphvizWorker(dot_version())
        try:
            failed = worker.ask([b"\xff", b"digraph { a }"], 2, 30.0)  # formats not text
            # the child waiting for the next request, killed: no answer, another waits
            assert worker.process.process is not None
            waiting = _waiting_child(worker.process.process.pid)
            os.kill(waiting, signal.SIGKILL)
            _until(lambda: not Path(f"/proc/{waiting}").exists())  # ended before a request
            drawn = worker.draw(encoded(SOURCES[0]), ("svg",), 30.0)
            return failed, drawn, worker.process.started
        finally:
            worker.close()

    failed, drawn, started = in_a_thread(ask)
    assert failed == [b"left", b""]
    assert drawn == {"svg": dot(encoded(SOURCES[0]), "svg")} and started == 1
