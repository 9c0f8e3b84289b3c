"""`diagbench convert`: prompts and captions as sent, and bad images recorded with their
reason while the run goes on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from diagbench.benchmarks.conversion.prompts import PAPER, load_prompt
from diagbench.render.plantuml_pipe import PlantUMLEngine
from tests.fake_providers import FakeServer

SCRIPT = "@startuml\nparticipant UE\nparticipant AMF\nUE -> AMF : Registration Request\n@enduml\n"


def _convert(tmp_path: Path, *args: str, env_extra: dict | None = None):
    env = {**os.environ, "OPENAI_API_KEY": "sk-test",
           "DIAGBENCH_CACHE": str(tmp_path / "cache.sqlite"), **(env_extra or {})}
    return subprocess.run([sys.executable, "-m", "diagbench", "convert", *args], env=env,
                          capture_output=True, text=True, timeout=300, check=False)


@pytest.fixture(scope="module")
def diagram(tmp_path_factory) -> Path:
    """A real PlantUML render of SCRIPT."""
    tmp = tmp_path_factory.mktemp("diagram")
    [result] = PlantUMLEngine(jobs=1).render([SCRIPT], tmp, "png")
    assert result.ok, result.error
    return result.image


def test_paper_prompt_is_verbatim():
    prompt = load_prompt("paper")
    assert prompt.text("UE registration").startswith(
        'Generate puml script for given 3GPP standard call flow diagram of "UE registration" '
        "according to puml documentation. Please consider following important points:\n"
        "1. Correctly identify participants/actors.\n")
    assert prompt.text(None).startswith("Generate puml script for given 3GPP standard call "
                                        "flow diagram according to puml documentation.")
    assert prompt.text(None).endswith("7. Correctly identify color if any.")
    assert PAPER.count("\n") == 7


def test_captions_prompts_and_outputs(tmp_path, diagram):
    images = tmp_path / "images"
    images.mkdir()
    for name in ("a", "b"):
        (images / f"{name}.png").write_bytes(diagram.read_bytes())
    (images / "a.txt").write_text("Figure 3: Registration\n")
    answers = {"a": f"Sure:\n```plantuml\n{SCRIPT}```", "b": "```\nUE -> AMF : x\n"}
    with FakeServer(reply=lambda p: answers["a" if "Registration" in p else "b"]) as server:
        done = _convert(tmp_path, str(images), "--model", f"openai:vlm@{server.base_url}",
                        "--out", str(tmp_path / "out"), "--prompt", "cot", "--caption",
                        "Fallback caption")
        prompts = [next(p["text"] for p in r["messages"][-1]["content"] if p["type"] == "text")
                   for r in server.requests]
    assert done.returncode == 0, done.stderr
    assert sorted(prompts) == sorted([load_prompt("cot").text("Figure 3: Registration"),
                                      load_prompt("cot").text("Fallback caption")])
    records = {r["name"]: r for r in map(json.loads, (tmp_path / "out" / "conversions.jsonl")
                                         .read_text().splitlines())}
    assert records["a"]["caption"] == "Figure 3: Registration"
    assert records["a"]["valid"] and records["a"]["extraction"] == []
    assert records["b"]["extraction"] == ["the code block is not closed: the answer was cut "
                                          "short", "@startuml missing: added",
                                          "@enduml missing: added"]
    assert (tmp_path / "out" / "pred" / "b.puml").read_text() == \
        "@startuml\nUE -> AMF : x\n@enduml\n"
    assert (tmp_path / "out" / "pred" / "b.png").is_file()
    assert "2 valid" in done.stdout


def test_invalid_script_is_recorded_with_the_engine_line(tmp_path, diagram):
    with FakeServer(reply=lambda p: "@startuml\nUE -> AMF : ok\nthis is not plantuml\n"
                                    "@enduml") as server:
        done = _convert(tmp_path, str(diagram), "--model", f"openai:vlm@{server.base_url}",
                        "--out", str(tmp_path / "out"))
    assert done.returncode == 1
    [record] = map(json.loads, (tmp_path / "out" / "conversions.jsonl").read_text().splitlines())
    assert record["status"] == "converted" and record["valid"] is False
    assert record["render_error_line"] == 3
    assert "script does not render" in done.stderr


def test_unknown_prompt_file_exits_3(tmp_path, diagram):
    done = _convert(tmp_path, str(diagram), "--model", "openai:vlm@http://127.0.0.1:9/v1",
                    "--out", str(tmp_path / "out"), "--prompt", str(tmp_path / "nope.txt"))
    assert done.returncode == 3
    assert "nope.txt: not one of paper, cot, minimal" in done.stderr
    assert "Traceback" not in done.stderr


def test_bad_images_are_recorded_and_the_run_goes_on(tmp_path, diagram):
    images = tmp_path / "images"
    images.mkdir()
    (images / "notes.png").write_text("these are my notes, not an image")
    Image.new("RGB", (1, 1), "white").save(images / "dot.png")
    Image.new("RGB", (120, 20_000), "white").save(images / "tall.png")
    Image.new("RGB", (400, 300), "white").save(images / "blank.png")
    (images / "good.png").write_bytes(diagram.read_bytes())
    done = _convert(tmp_path, str(images), "--model", "baseline:ocr", "--out",
                    str(tmp_path / "out"))
    assert done.returncode == 3, done.stderr
    assert "Traceback" not in done.stderr
    records = {r["name"]: r for r in map(json.loads, (tmp_path / "out" / "conversions.jsonl")
                                         .read_text().splitlines())}
    assert sorted(records) == ["blank", "dot", "good", "notes", "tall"]
    assert records["notes"]["status"] == "image_error"
    assert "not a readable image" in records["notes"]["error"]
    assert records["dot"]["status"] == "image_error"
    assert "1×1 px: too small" in records["dot"]["error"]
    assert records["tall"]["status"] == "image_error"
    assert "120×20000 px: over the limit" in records["tall"]["error"]
    assert records["blank"]["status"] == "call_error"
    assert records["blank"]["error"]
    assert records["good"]["status"] == "converted" and records["good"]["valid"]
    for name in ("notes", "dot", "tall", "blank"):
        assert f"diagbench: {name}: " in done.stderr


def test_an_image_of_the_papers_largest_size_converts_when_shrunk(tmp_path, diagram):
    """7548 × 6510 px (49 MP, the largest figure of paper 000's set): refused as it is
    (over 40 MP), converted with --max-image-side 2048, the model seeing 2048 × 1766."""
    images = tmp_path / "images"
    images.mkdir()
    with Image.open(diagram) as small:
        big = Image.new("RGB", (7548, 6510), "white")
        big.paste(small.convert("RGB").resize((small.width * 8, small.height * 8)), (40, 40))
    big.save(images / "figure.png")
    refused = _convert(tmp_path, str(images), "--model", "baseline:ocr", "--out",
                       str(tmp_path / "as-is"))
    assert refused.returncode == 3
    assert "7548×6510 px: over the limit" in refused.stderr
    done = _convert(tmp_path, str(images), "--model", "baseline:ocr", "--max-image-side",
                    "2048", "--out", str(tmp_path / "shrunk"))
    assert done.returncode == 0, done.stderr
    [record] = map(json.loads, (tmp_path / "shrunk" / "conversions.jsonl").read_text()
                   .splitlines())
    assert record["status"] == "converted", record["error"]
    [response] = map(json.loads, next((tmp_path / "shrunk").rglob("responses.jsonl"))
                     .read_text().splitlines())
    [sent] = response["images"]
    assert (sent["width"], sent["height"], sent["resized_from"][:2]) == (2048, 1766,
                                                                         [7548, 6510])
