"""Untrusted diagram code leaks nothing: no local files, environment, URLs or images."""

from __future__ import annotations

import pytest
from PIL import Image

from diagbench.render.graphviz import GraphvizEngine
from diagbench.render.plantuml_pipe import PlantUMLEngine
from tests.canary import canary_server


@pytest.fixture
def listener():
    """A real HTTP server on 127.0.0.1 that counts the requests it gets."""
    with canary_server(b"@startuml\nA -> B : LEAKED_FROM_URL\n@enduml\n") as (port, hits):
        yield port, hits



def test_plantuml_reads_no_file_env_url_or_image(tmp_path, listener, monkeypatch):
    port, hits = listener
    secret_png = tmp_path / "secret.png"
    Image.new("RGB", (40, 40), (255, 0, 0)).save(secret_png)
    secret_txt = tmp_path / "secret.txt"
    secret_txt.write_text("A -> B : LEAKED_FILE\n", encoding="utf-8")
    monkeypatch.setenv("DIAGBENCH_SECRET", "LEAKED_ENV")
    sources = [
        "@startuml\n!include /etc/passwd\nA -> B\n@enduml\n",
        "@startuml\n!include /tmp/../etc/passwd\nA -> B\n@enduml\n",
        f"@startuml\n!include {secret_txt}\nA -> B\n@enduml\n",
        f"@startuml\n!includeurl http://127.0.0.1:{port}/x\nA -> B\n@enduml\n",
        f"@startuml\n!include http://127.0.0.1:{port}/y\nA -> B\n@enduml\n",
        '@startuml\nA -> B : h=%getenv("HOME") s=%getenv("DIAGBENCH_SECRET")\n@enduml\n',
        '@startuml\nA -> B : fe=%file_exists("/etc/passwd")\n@enduml\n',
        f"@startuml\nA -> B : <img:{secret_png}>\n@enduml\n",
    ]
    results = PlantUMLEngine(jobs=2).render(sources, tmp_path, "svg")
    for source, result in zip(sources, results, strict=True):
        svg = result.image.read_text(encoding="utf-8") if result.ok else ""
        for leak in ("root:x:", "LEAKED_FILE", "LEAKED_URL", "LEAKED_FROM_URL", "LEAKED_ENV",
                     "h=/", "fe=true", "data:image/png"):
            assert leak not in svg, (source, leak)
    assert hits == []


def test_graphviz_reads_no_image_file(tmp_path):
    secret_png = tmp_path / "secret.png"
    Image.new("RGB", (40, 40), (255, 0, 0)).save(secret_png)
    [result] = GraphvizEngine().render(
        [f'digraph {{ a [image="{secret_png}" label=""] }}'], tmp_path, "svg")
    assert result.ok
    svg = result.image.read_text(encoding="utf-8")
    assert "<image" not in svg and "secret" not in svg
