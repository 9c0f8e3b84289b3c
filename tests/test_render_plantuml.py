"""The pinned PlantUML helper: verified jar, sandboxed runs, and the bundled examples."""

from __future__ import annotations

import pytest

from diagbench.formats.plantuml import parse_sequence
from diagbench.render import plantuml
from diagbench.render.plantuml import PlantUMLError, sandbox_env
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
