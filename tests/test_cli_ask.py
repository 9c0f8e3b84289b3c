"""`diagbench ask` against a real local server: answer, cache, errors, and no key in any file."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from PIL import Image

from tests.fake_providers import FakeServer, gemini_thinking

SECRET = "sk-diagbench-LEAKCHECK-0123456789"


def ask(tmp_path, *args):
    env = {**os.environ, "OPENAI_API_KEY": SECRET, "DIAGBENCH_CACHE": str(tmp_path / "c.sqlite")}
    return subprocess.run([sys.executable, "-m", "diagbench", "ask", *args], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=60, check=False)


def test_ask_answers_caches_and_leaks_no_key(tmp_path):
    image = tmp_path / "d.png"
    Image.new("RGB", (30, 20), "white").save(image)
    with FakeServer(["400"]) as server:
        model = f"openai:gpt-4o@{server.base_url}"
        failed = ask(tmp_path, "--model", model, "--image", str(image), "Read it.")
        assert failed.returncode == 1 and "HTTP 400" in failed.stderr and failed.stdout == ""
        done = ask(tmp_path, "--model", model, "--image", str(image), "Read it.")
        assert done.returncode == 0 and done.stdout.strip() == "echo: Read it."
        again = ask(tmp_path, "--model", model, "--image", str(image), "--json", "Read it.")
        assert json.loads(again.stdout)["cached"] is True
        assert len(server.requests) == 2
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path
    for out in (failed, done, again):
        assert SECRET not in out.stdout + out.stderr


def test_bad_model_names_and_missing_keys_exit_3(tmp_path):
    assert ask(tmp_path, "--model", "nope:x", "hi").returncode == 3
    vllm = ask(tmp_path, "--model", "vllm:qwen", "hi")
    assert vllm.returncode == 3 and "needs a server" in vllm.stderr
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    missing = subprocess.run([sys.executable, "-m", "diagbench", "ask", "--model",
                              "openai:gpt-4o", "hi"], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=60, check=False)
    assert missing.returncode == 3 and "OPENAI_API_KEY" in missing.stderr


def test_gemini_takes_a_thinking_level_or_budget_and_nothing_else(tmp_path):
    env = {**os.environ, "GEMINI_API_KEY": "k", "ANTHROPIC_API_KEY": "k",
           "DIAGBENCH_CACHE": str(tmp_path / "c.sqlite")}

    def run(*args):
        return subprocess.run([sys.executable, "-m", "diagbench", "ask", *args], cwd=tmp_path,
                              env=env, capture_output=True, text=True, timeout=60, check=False)

    with FakeServer(thoughts=40) as server:
        done = run("--model", f"gemini:gemini-3@{server.url}", "--reasoning", "low", "--json",
                   "hi")
        assert done.returncode == 0, done.stderr
        assert gemini_thinking(server.requests[0]) == {"thinkingLevel": "LOW"}
        assert json.loads(done.stdout)["usage"]["output_tokens"] == 47  # 7 + 40 thinking
        wrong = run("--model", f"gemini:gemini-3@{server.url}", "--reasoning", "lots", "hi")
        assert wrong.returncode == 3 and "a token budget or a thinking level " \
            "(minimal|low|medium|high), not 'lots'" in wrong.stderr
        claude = run("--model", f"anthropic:claude@{server.url}", "--reasoning", "low", "hi")
        assert claude.returncode == 3 and "is a token budget, not 'low'" in claude.stderr
        assert len(server.requests) == 1
