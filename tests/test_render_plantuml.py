"""The pinned PlantUML helper: verified jar, sandboxed runs, and the bundled examples."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from diagbench.formats.plantuml import parse_sequence
from diagbench.render import plantuml, plantuml_pipe
from diagbench.render.plantuml import PlantUMLError, sandbox_env
from diagbench.render.plantuml_pipe import PipeWorker, PlantUMLEngine
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
    archive = plantuml.class_archive(plantuml.MAX_HEAP)
    assert archive is not None and not archive.exists()
    sources = [SEQUENCE, CLASSES]
    first = PlantUMLEngine(jobs=1).render(sources, _folder(tmp_path / "a"), "png")
    assert archive.is_file() and archive.stat().st_size > 1_000_000
    assert [p.name for p in archive.parent.iterdir()] == [archive.name]  # no leftovers
    worker = PipeWorker("png", archive=archive)
    try:
        data, _ = worker.render(SEQUENCE, 60)
        assert worker.process is not None and str(archive) in _mapped(worker.process.pid)
    finally:
        worker.close()
    monkeypatch.setenv(plantuml.ARCHIVE_ENV, "")
    assert plantuml.class_archive(plantuml.MAX_HEAP) is None
    plain = PlantUMLEngine(jobs=1).render(sources, _folder(tmp_path / "b"), "png")
    assert all(r.ok for r in first + plain)
    assert [r.sha256 for r in first] == [r.sha256 for r in plain]
    assert hashlib.sha256(data).hexdigest() == plain[0].sha256


def test_a_damaged_class_archive_changes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv(plantuml.ARCHIVE_ENV, str(tmp_path))
    archive = plantuml.class_archive(plantuml.MAX_HEAP)
    assert archive is not None
    archive.write_bytes(b"not a class-data archive" * 1000)
    broken = "@startuml\nA -> B\nthis ) is ( junk\n@enduml\n"
    damaged = PlantUMLEngine(jobs=1).render([SEQUENCE, broken], tmp_path, "png")
    sha = damaged[0].sha256
    assert damaged[0].ok and not damaged[1].ok and damaged[1].error_line == 3
    monkeypatch.setenv(plantuml.ARCHIVE_ENV, "")
    [plain] = PlantUMLEngine(jobs=1).render([SEQUENCE], tmp_path, "png")
    assert plain.ok and sha == plain.sha256


def _java_children() -> int:
    """How many `java` processes this process has started and not yet reaped (Linux)."""
    count = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            comm, rest = stat.read_text().rsplit(")", 1)
        except OSError:
            continue
        count += comm.endswith("(java") and int(rest.split()[1]) == os.getpid()
    return count


@pytest.mark.parametrize(("per_jvm", "jvms"), [(150, 1), (2, 2)])
def test_a_small_batch_gets_one_jvm_a_large_one_up_to_jobs(tmp_path, monkeypatch, per_jvm, jvms):
    monkeypatch.setattr(plantuml_pipe, "DIAGRAMS_PER_JVM", per_jvm)
    monkeypatch.setenv(plantuml.ARCHIVE_ENV, "")
    seen: list[int] = []
    results = PlantUMLEngine(jobs=2).render([SEQUENCE, CLASSES] * 3, tmp_path, "png",
                                            progress=lambda: seen.append(_java_children()))
    assert all(r.ok for r in results)
    assert max(seen) == jvms
