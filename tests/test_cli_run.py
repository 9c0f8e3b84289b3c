"""`diagbench run`: a run directory with manifest and responses, resume, --fail-on-error,
bad request files, and no key in any file."""

from __future__ import annotations

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
