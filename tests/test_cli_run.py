"""`diagbench run`: a run directory with manifest and responses, resume, --fail-on-error,
bad request files, and no key in any file."""

from __future__ import annotations

import base64
import io
import json
import os
import subprocess
import sys

from PIL import Image

from tests.fake_providers import FakeServer

SECRET = "sk-diagbench-LEAKCHECK-run-987654321"


def run(tmp_path, *args):
    env = {**os.environ, "OPENAI_API_KEY": SECRET, "DIAGBENCH_CACHE": str(tmp_path / "c.sqlite")}
    return subprocess.run([sys.executable, "-m", "diagbench", "run", *args], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120, check=False)


def requests_file(tmp_path, n=12):
    Image.new("RGB", (20, 20), "white").save(tmp_path / "img.png")
    lines = [json.dumps({"id": f"r{k}", "prompt": f"q{k}", "images": ["img.png"]})
             for k in range(n)]
    path = tmp_path / "requests.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_run_writes_manifest_and_responses_and_fails_on_errors(tmp_path):
    path = requests_file(tmp_path)
    out = tmp_path / "run"
    with FakeServer(["400", "400"]) as server:
        model = f"openai:gpt-4o@{server.base_url}"
        first = run(tmp_path, str(path), "--model", model, "--out", str(out),
                    "--fail-on-error", "0.1", "--no-cache")
        assert first.returncode == 1, first.stderr
        assert "10 answered, 2 errors" in first.stdout
        manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
        assert manifest["summary"]["tokens"] == {"input_tokens": 110, "output_tokens": 70,
                                                 "reasoning_tokens": 0}
        assert manifest["summary"]["estimated_cost_usd"] == round((110 * 2.5 + 70 * 10) / 1e6, 6)
        assert manifest["model"] == "gpt-4o" and len(manifest["dataset_hash"]) == 64
        assert manifest["summary"]["served_models"] == ["gpt-4o-served"]
        again = run(tmp_path, str(path), "--model", model, "--out", str(out), "--no-cache")
        assert again.returncode == 0 and len(server.requests) == 14  # only the 2 failures
    lines = [json.loads(x) for x in (out / "responses.jsonl").read_text("utf-8").splitlines()]
    assert len(lines) == 12 and all(r["status"] == "ok" for r in lines)
    for file in tmp_path.rglob("*"):
        if file.is_file():
            assert SECRET.encode() not in file.read_bytes(), file


def test_limit_and_bad_request_files(tmp_path):
    path = requests_file(tmp_path)
    with FakeServer() as server:
        model = f"openai:gpt-4o@{server.base_url}"
        limited = run(tmp_path, str(path), "--model", model, "--out", "r", "--limit", "3")
        assert limited.returncode == 0 and len(server.requests) == 3
        bad = tmp_path / "bad.jsonl"
        bad.write_text('{"prompt": "ok"}\nnot json\n', encoding="utf-8")
        broken = run(tmp_path, str(bad), "--model", model, "--out", "r2")
        assert broken.returncode == 3 and f"{bad}:2: not a request object" in broken.stderr
        bad.write_text('{"prompt": "ok", "images": ["missing.png"]}\n', encoding="utf-8")
        missing = run(tmp_path, str(bad), "--model", model, "--out", "r3")
        assert missing.returncode == 3 and ":1: image not readable" in missing.stderr
        assert len(server.requests) == 3


def sent_image_size(body: dict) -> tuple[int, int]:
    url = body["messages"][0]["content"][0]["image_url"]["url"]
    data = base64.b64decode(url.split(",", 1)[1])
    with Image.open(io.BytesIO(data)) as image:
        return image.size


def test_image_policy_is_applied_and_logged_per_sample(tmp_path):
    path = requests_file(tmp_path, n=2)
    Image.new("RGB", (900, 300), "white").save(tmp_path / "img.png")
    with FakeServer() as server:
        done = run(tmp_path, str(path), "--model", f"openai:gpt-4o@{server.base_url}",
                   "--out", "r", "--max-image-side", "300")
        assert done.returncode == 0, done.stderr
        assert [sent_image_size(body) for body in server.requests] == [(300, 100)] * 2
        assert server.requests[0]["messages"][0]["content"][0]["image_url"]["detail"] == "high"
    records = [json.loads(x) for x in (tmp_path / "r/responses.jsonl").read_text().splitlines()]
    [image] = records[0]["images"]
    assert (image["width"], image["height"], image["resized_from"][:2]) == (300, 100, [900, 300])
    assert {r["id"] for r in records} == {"r0", "r1"}
    manifest = json.loads((tmp_path / "r/manifest.json").read_text(encoding="utf-8"))
    assert manifest["parameters"]["image_policy"] == {"max_side": 300, "max_bytes": None}
    (tmp_path / "img.png").write_text("not an image", encoding="utf-8")
    bad = run(tmp_path, str(path), "--model", "openai:gpt-4o@http://127.0.0.1:9/v1",
              "--out", "r2")
    assert bad.returncode == 3 and ":1: " in bad.stderr and "not a readable image" in bad.stderr


def test_repeats_ask_each_request_again_only_when_sampling(tmp_path):
    path = requests_file(tmp_path, n=2)
    with FakeServer() as server:
        model = f"openai:gpt-4o@{server.base_url}"
        sampled = run(tmp_path, str(path), "--model", model, "--out", "r",
                      "--temperature", "0.7", "--repeats", "3")
        assert sampled.returncode == 0, sampled.stderr
        assert len(server.requests) == 6
        again = run(tmp_path, str(path), "--model", model, "--out", "r2",
                    "--temperature", "0.7", "--repeats", "3")
        assert again.returncode == 0 and len(server.requests) == 6  # all six from the cache
        greedy = run(tmp_path, str(path), "--model", model, "--out", "r3", "--repeats", "3")
        assert greedy.returncode == 2 and "--repeats needs --temperature" in greedy.stderr
    records = [json.loads(x) for x in (tmp_path / "r/responses.jsonl").read_text().splitlines()]
    assert sorted(r["id"] for r in records) == ["r0#0", "r0#1", "r0#2", "r1#0", "r1#1", "r1#2"]
    assert len({r["key"] for r in records}) == 6
