"""The pinned PlantUML helper: verified jar, sandboxed runs, and the bundled examples."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from diagbench.formats.plantuml import parse_sequence
from diagbench.render import plantuml, plantuml_channels, plantuml_pipe, process
from diagbench.render.plantuml import PlantUMLError, sandbox_env
from diagbench.render.plantuml_channels import ChannelWorker, SharedJVM, launcher_jar
from diagbench.render.plantuml_pipe import PlantUMLEngine
from diagbench.render.plantuml_process import PipeWorker
from tests.conftest import REPO, svg_counts
from tests.plantuml_batch import render_batch

EXAMPLES = sorted((REPO / "examples" / "callflows" / "gold").glob("*.puml"))


def test_version_is_the_pinned_one():
    assert plantuml.PLANTUML_VERSION in plantuml.version()


def test_altered_jar_is_refused(tmp_path, monkeypatch):
    fake = tmp_path / "plantuml.jar"
    fake.write_bytes(b"PK\x03\x04 not the real jar")
    monkeypatch.setenv(plantuml.JAR_ENV, str(fake))
    with pytest.raises(PlantUMLError, match="is not the pinned"):
        plantuml.jar_path()


def test_sandbox_env_drops_secrets_and_sets_the_profile(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-should-not-leak")
    env = sandbox_env()
    assert env["PLANTUML_SECURITY_PROFILE"] == "SANDBOX"
    assert "OPENAI_API_KEY" not in env


def test_rendered_image_leaks_no_file_nor_environment(tmp_path, monkeypatch):
    secret = tmp_path / "secret.txt"
    secret.write_text("A -> B : TOPSECRETFILE\n", encoding="utf-8")
    monkeypatch.setenv("DIAGBENCH_TEST_SECRET", "TOPSECRETENV")
    source = (f"@startuml\n!include {secret}\n"
              'A -> B : %getenv("DIAGBENCH_TEST_SECRET") %getenv("HOME")\n@enduml\n')
    [images] = render_batch([source], work=tmp_path / "out").images
    svg = images[0].read_text(encoding="utf-8")
    assert "TOPSECRETFILE" not in svg
    assert "TOPSECRETENV" not in svg


def test_bundled_examples_render_and_agree_with_the_parser(tmp_path):
    assert len(EXAMPLES) >= 3
    texts = [p.read_text(encoding="utf-8") for p in EXAMPLES]
    batch = render_batch(texts, work=tmp_path)
    assert batch.returncode == 0, batch.stderr
    for path, text, images in zip(EXAMPLES, texts, batch.images, strict=True):
        [parsed] = parse_sequence(text)
        assert not parsed.diagnostics, path
        counts = parsed.diagram.counts()
        [image] = images
        assert svg_counts(image.read_text(encoding="utf-8")) == (
            "SEQUENCE", counts["participants"], counts["messages"]), path


def test_named_blocks_map_to_their_source_in_order(tmp_path):
    named = "@startuml ../../escape\nA -> B\n@enduml\n@startuml second\nC -> D\nD -> E\n@enduml\n"
    batch = render_batch([named, "@startuml\nX -> Y\n@enduml\n"], work=tmp_path)
    assert [len(images) for images in batch.images] == [2, 1]
    assert [svg_counts(p.read_text(encoding="utf-8"))[1:] for p in batch.images[0]] == [
        (2, 1), (3, 2)]
    assert all(p.parent == batch.images[1][0].parent for p in batch.images[0])


CLASSES = "@startuml\nclass A {\n  +x : int\n}\nclass B\nA <|-- B\nA o-- C\n@enduml\n"
SEQUENCE = "@startuml\nAlice -> Bob : hello\nBob --> Alice : hi\nnote over Bob : ok\n@enduml\n"


def _folder(path: Path) -> Path:
    path.mkdir()
    return path


def _mapped(pid: int) -> set[str]:
    """The files a process has mapped into memory (Linux)."""
    with open(f"/proc/{pid}/maps", encoding="utf-8") as maps:
        return {line.split(maxsplit=5)[5].strip() for line in maps if line.count(" ") >= 5
                and "/" in line}


def test_class_archive_is_written_once_then_mapped_with_the_same_images(tmp_path, monkeypatch):
    monkeypatch.setenv(plantuml.ARCHIVE_ENV, str(tmp_path / "cache"))
    two_channels = f"{2 * plantuml.MAX_HEAP_MB}m"  # jobs=1: one PNG and one SVG channel
    archive = plantuml.class_archive(two_channels, launcher_jar())
    assert archive is not None and not archive.exists()
    sources = [SEQUENCE, CLASSES]
    writer = PlantUMLEngine(jobs=1)
    first = writer.render(sources, _folder(tmp_path / "a"), "png")
    assert not archive.exists()  # written at the engine's clean close
    writer.close()
    assert archive.is_file() and archive.stat().st_size > 1_000_000
    assert not [p.name for p in archive.parent.iterdir() if p.suffix not in (".jsa", ".jar")]
    assert [p.suffix for p in archive.parent.iterdir()].count(".jsa") == 1  # no leftovers
    maps: list[set[str]] = []
    second = PlantUMLEngine(jobs=1).render(
        sources, _folder(tmp_path / "b"), "png",
        progress=lambda: maps.extend(_mapped(pid) for pid in _java_children()))
    assert maps and all(str(archive) in mapped for mapped in maps)
    monkeypatch.setenv(plantuml.ARCHIVE_ENV, "")
    assert plantuml.class_archive(plantuml.MAX_HEAP) is None
    plain = PlantUMLEngine(jobs=1).render(sources, _folder(tmp_path / "c"), "png")
    assert all(r.ok for r in first + second + plain)
    assert [r.sha256 for r in first] == [r.sha256 for r in second] == [r.sha256 for r in plain]


def test_a_pipe_worker_maps_its_archive(tmp_path, monkeypatch):
    monkeypatch.setenv(plantuml.ARCHIVE_ENV, str(tmp_path))
    archive = plantuml.class_archive(plantuml.MAX_HEAP)
    assert archive is not None
    writer = PipeWorker("png", archive=archive, write_archive=True)
    first, _ = writer.render(SEQUENCE, 60)
    writer.close()
    assert archive.is_file()
    worker = PipeWorker("png", archive=archive)
    try:
        data, _ = worker.render(SEQUENCE, 60)
        assert worker.process is not None and str(archive) in _mapped(worker.process.pid)
    finally:
        worker.close()
    assert data == first and data.startswith(b"\x89PNG")


def test_a_damaged_class_archive_is_ignored_then_written_again(tmp_path, monkeypatch):
    """A damaged archive (Java ignores it) changes no image; the engine whose JVM did not
    map it removes it once that JVM has drawn, the next engine's clean close writes a new
    one, and the engine after that maps it: the same images each time."""
    monkeypatch.setenv(plantuml.ARCHIVE_ENV, str(tmp_path / "cache"))
    two_channels = f"{2 * plantuml.MAX_HEAP_MB}m"  # jobs=1: one PNG and one SVG channel
    archive = plantuml.class_archive(two_channels, launcher_jar())
    assert archive is not None
    archive.parent.mkdir(parents=True, exist_ok=True)
    archive.write_bytes(b"not a class-data archive" * 1000)
    damaged = PlantUMLEngine(jobs=1)
    first = damaged.render([SEQUENCE], _folder(tmp_path / "a"), "png")
    assert first[0].ok and not archive.exists()  # not mapped: removed
    damaged.close()
    assert not archive.exists()  # that JVM was not started to write one
    writer = PlantUMLEngine(jobs=1)
    second = writer.render([SEQUENCE], _folder(tmp_path / "b"), "png")
    writer.close()
    assert archive.is_file() and archive.stat().st_size > 1_000_000
    maps: list[set[str]] = []
    third = PlantUMLEngine(jobs=1).render(
        [SEQUENCE], _folder(tmp_path / "c"), "png",
        progress=lambda: maps.extend(_mapped(pid) for pid in _java_children()))
    assert maps and all(str(archive) in mapped for mapped in maps) and archive.is_file()
    assert first[0].sha256 == second[0].sha256 == third[0].sha256


def _plantuml_jvms() -> list[int]:
    """The PlantUML `java` processes this process has started and not yet reaped (Linux;
    not a warm VARNA JVM)."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            comm, rest = stat.read_text().rsplit(")", 1)
            command = (stat.parent / "cmdline").read_bytes().lower()
        except OSError:
            continue
        if comm.endswith("(java") and int(rest.split()[1]) == os.getpid() \
                and b"plantuml" in command:
            pids.append(int(stat.parent.name))
    return pids


#: The PlantUML JVMs alive when the running test started (left warm by an earlier one).
_EARLIER: set[int] = set()


@pytest.fixture(autouse=True)
def _earlier_jvms():
    _EARLIER.clear()
    _EARLIER.update(_plantuml_jvms())
    yield


def _java_children() -> list[int]:
    """The PlantUML JVMs the running test has started and not yet reaped."""
    return [pid for pid in _plantuml_jvms() if pid not in _EARLIER]


def _channel_threads(pid: int) -> int:
    """How many of a JVM's threads are the launcher's channels (Linux)."""
    names = []
    for comm in Path(f"/proc/{pid}/task").glob("*/comm"):
        try:
            names.append(comm.read_text())
        except OSError:
            continue
    return sum(name.startswith("diagbench-chann") for name in names)


def test_an_engine_keeps_one_jvm_for_both_formats_with_a_channel_per_job_and_format(
        tmp_path, monkeypatch):
    """PNG and SVG batches of one engine are drawn by one JVM, started by the first and
    ended by `close()`, with `jobs` channels per format; the images are those of an engine
    that draws one format only."""
    monkeypatch.setenv(plantuml.ARCHIVE_ENV, "")
    seen: list[tuple[int, ...]] = []

    def look() -> None:
        seen.append(tuple((pid, _channel_threads(pid)) for pid in _java_children()))

    sources = [SEQUENCE, CLASSES] * 3
    engine = PlantUMLEngine(jobs=2)
    try:
        pngs = engine.render(sources, _folder(tmp_path / "png"), "png", progress=look)
        svgs = engine.render(sources, _folder(tmp_path / "svg"), "svg", progress=look)
        again = engine.render(sources[:2], _folder(tmp_path / "again"), "png", progress=look)
    finally:
        engine.close()
    assert not _java_children()
    assert len(set(seen)) == 1 and len(seen[0]) == 1 and seen[0][0][1] == 4
    assert all(r.ok for r in pngs + svgs + again)
    alone = {fmt: PlantUMLEngine(jobs=1).render(sources[:2], _folder(tmp_path / f"1{fmt}"),
                                                fmt) for fmt in ("svg", "png")}
    assert [r.sha256 for r in pngs[:2]] == [r.sha256 for r in again] == \
        [r.sha256 for r in alone["png"]]
    assert [r.sha256 for r in svgs[:2]] == [r.sha256 for r in alone["svg"]]
    assert svgs[0].image is not None and b"<svg" in svgs[0].image.read_bytes()[:1000]


def test_channels_draw_the_same_images_as_one_jvm_per_worker(tmp_path, monkeypatch):
    monkeypatch.setenv(plantuml.ARCHIVE_ENV, "")
    broken = "@startuml\nA -> B\nthis ) is ( junk\n@enduml\n"
    sources = [SEQUENCE, CLASSES, broken, *(path.read_text() for path in EXAMPLES[:6])]
    shared = PlantUMLEngine(jobs=2).render(sources, _folder(tmp_path / "a"), "png")
    monkeypatch.setattr(plantuml_pipe, "launcher_jar", lambda: None)
    single = PlantUMLEngine(jobs=2).render(sources, _folder(tmp_path / "b"), "png")
    assert [(r.ok, r.sha256, r.error, r.error_line) for r in shared] == \
        [(r.ok, r.sha256, r.error, r.error_line) for r in single]
    assert [r.ok for r in shared].count(False) == 1 and shared[2].error_line == 3


@pytest.mark.skipif(shutil.which("jcmd") is None, reason="no jcmd to ask the JVM")
@pytest.mark.parametrize("channels", [True, False])
def test_a_warm_jvm_keeps_plantuml_s_text_layout_from_the_optimising_compiler(
        tmp_path, monkeypatch, channels):
    """The warm JVM (channels, or one per worker without `javac`) runs with diagbench's
    compiler directives: the optimising compiler (C2) excluded from PlantUML's text layout,
    the quick one (C1) not; the JVM's own tally of them is kept off the image stream."""
    monkeypatch.setenv(plantuml.ARCHIVE_ENV, "")
    if not channels:
        monkeypatch.setattr(plantuml_pipe, "launcher_jar", lambda: None)
    engine = PlantUMLEngine(jobs=1)
    try:
        drawn = engine.render([CLASSES], _folder(tmp_path / "png"), "png")
        (pid,) = _java_children()
        said = subprocess.run(["jcmd", str(pid), "Compiler.directives_print"],
                              capture_output=True, text=True, timeout=120, check=True).stdout
    finally:
        engine.close()
    assert drawn[0].ok and drawn[0].image is not None
    assert drawn[0].image.read_bytes().startswith(b"\x89PNG")
    ours = said.split("Directive:")[1]  # the first one listed, before the default
    assert "net/sourceforge/plantuml/klimt/creole/*.*" in ours
    c1, c2 = ours.split("c2 directives:")
    assert " Exclude:true " in c2 and " Exclude:true " not in c1


def _doubling(n: int) -> str:
    """A diagram whose label costs PlantUML's preprocessor 2^(n+1) calls (no loop its guard
    would stop): n = 14 takes a tenth of a second in a warm JVM, n = 26 minutes, n = 40
    (2^41 calls) never ends in a test's lifetime."""
    return ("@startuml\n!function $f($n)\n!if $n == 0\n!return 0\n!endif\n"
            f"!return $f($n - 1) + $f($n - 1)\n!endfunction\nA -> B : $f({n})\n@enduml\n")


#: A diagram that never ends, and a time-out no diagram that ends at once reaches, even
#: on a loaded machine with the JVM's start counted in the first diagram of a channel.
NEVER_ENDS, GENEROUS = _doubling(40), 30


def test_a_diagram_that_never_ends_times_out_while_the_other_channel_draws_on(tmp_path,
                                                                          monkeypatch):
    """While one channel waits out its time-out, the other draws its diagrams; the one
    that never ends is reported as timed out, every other is drawn, the same image."""
    monkeypatch.setenv(plantuml.ARCHIVE_ENV, "")
    sources = [NEVER_ENDS, *[_doubling(6)] * 8]
    engine = PlantUMLEngine(jobs=2, timeout=GENEROUS)
    try:  # both channels started first: their first diagram may take the JVM's start too
        engine.render([_doubling(6)] * 2, _folder(tmp_path / "started"), "png")
        results = engine.render(sources, tmp_path, "png")
    finally:
        engine.close()
    assert [r.ok for r in results] == [False] + [True] * 8
    assert results[0].error == f"timed out after {GENEROUS} s (process restarted)"
    assert len({r.sha256 for r in results[1:]}) == 1


def test_the_jvm_start_is_not_counted_in_the_first_diagram_s_time_out(tmp_path, monkeypatch):
    """A JVM and its class loading take seconds to start (without a class-data archive,
    more): the first diagram a channel draws gets `STARTUP_SECONDS` more than its one-second
    time-out, and is drawn."""
    monkeypatch.setenv(plantuml.ARCHIVE_ENV, "")
    engine = PlantUMLEngine(jobs=1, timeout=1.0)
    try:
        [png] = engine.render([CLASSES], _folder(tmp_path / "png"), "png")
        [svg] = engine.render([CLASSES], _folder(tmp_path / "svg"), "svg")
    finally:
        engine.close()
    assert png.ok and svg.ok, (png.error, svg.error)


def test_a_channel_whose_jvm_ends_under_it_draws_its_diagram_again_in_the_next(monkeypatch):
    """A JVM ended by another channel's time-out ends under every channel: one that has
    just sent its diagram draws it again in a fresh JVM, and it is not its error. The
    end is made to come exactly then (the JVM ended as the channel writes), so that the
    test does not hang on which of two processes is faster."""
    monkeypatch.setenv(plantuml.ARCHIVE_ENV, "")
    launcher = launcher_jar()
    if launcher is None:
        pytest.skip("needs javac for the channels' launcher")
    jvm = SharedJVM(("png", "png"), launcher, write_archive=False)
    first, second = ChannelWorker(jvm, 0), ChannelWorker(jvm, 1)
    ended: list[int] = []
    write = plantuml_channels.write_within

    def end_then_write(fd: int, data: bytes, timeout: float) -> None:
        if not ended:  # what the first channel's time-out does, as the second writes
            ended.append(jvm.generation)
            jvm.end(jvm.generation)
        write(fd, data, timeout)

    try:
        expected, _ = first.render(SEQUENCE, GENEROUS)
        first_pid = jvm.process.pid if jvm.process else None
        monkeypatch.setattr(plantuml_channels, "write_within", end_then_write)
        image, stderr = second.render(SEQUENCE, GENEROUS)
        assert image == expected and "ERROR" not in stderr
        assert ended == [0] and jvm.generation == 1 and jvm.running(1)
        assert jvm.process is not None and jvm.process.pid != first_pid
    finally:
        jvm.close(clean=False)


@pytest.mark.parametrize(("per_jvm", "jvms"), [(150, 1), (2, 2)])
def test_without_javac_a_small_batch_gets_one_jvm_a_large_one_up_to_jobs(tmp_path, monkeypatch,
                                                                          per_jvm, jvms):
    monkeypatch.setattr(plantuml_pipe, "launcher_jar", lambda: None)
    monkeypatch.setattr(process, "DIAGRAMS_PER_JVM", per_jvm)
    monkeypatch.setenv(plantuml.ARCHIVE_ENV, "")
    seen: list[int] = []
    results = PlantUMLEngine(jobs=2).render([SEQUENCE, CLASSES] * 3, tmp_path, "png",
                                            progress=lambda: seen.append(len(_java_children())))
    assert all(r.ok for r in results)
    assert max(seen) == jvms
