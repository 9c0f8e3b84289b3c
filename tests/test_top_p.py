"""--top-p: sent where the provider takes it, in the cache key and manifest only when
set (keys of requests without it unchanged), and the paper's defaults of the structure
benchmark stated in --help."""

from __future__ import annotations

import os
import subprocess
import sys

from click.testing import CliRunner

from diagbench.models.anthropic_messages import message_params
from diagbench.models.gemini import generate_parts
from diagbench.models.openai_compat import chat_body
from diagbench.models.request import GenerationConfig, user_request
from tests.fake_providers import FakeServer

#: The key of this request as diagbench computed it before top-p existed.
KEY_BEFORE_TOP_P = "03124f6f88804e38ea765c3e9c0a36935b0a922e2eb0c651cc4417a659793e3f"


def _request(top_p=None):
    return user_request("openai", "gpt-4o", "How many classes?", config=GenerationConfig(
        temperature=0.2, max_tokens=64, seed=1, top_p=top_p))


def test_key_without_top_p_is_unchanged_and_with_it_differs():
    assert _request().key() == KEY_BEFORE_TOP_P
    assert "top_p" not in _request().canonical()["config"]
    assert _request(0.95).canonical()["config"]["top_p"] == 0.95
    assert _request(0.95).key() != KEY_BEFORE_TOP_P
    assert _request(0.95).key() != _request(0.9).key()


def test_each_provider_sends_top_p_only_when_set():
    assert chat_body(_request(0.95))["top_p"] == 0.95
    assert "top_p" not in chat_body(_request())
    assert message_params(_request(0.95))["top_p"] == 0.95
    assert "top_p" not in message_params(_request())
    assert generate_parts(_request(0.95))[1].top_p == 0.95
    assert generate_parts(_request())[1].top_p is None


def test_manifest_lists_top_p_only_when_set(monkeypatch):
    from diagbench.cli.model_options import _settings

    monkeypatch.setenv("OPENAI_API_KEY", "k")

    def parameters(top_p):
        return _settings("openai:gpt-4o", 0.2, top_p, 64, None, None, 10.0, 0, True, None,
                         None, None, ()).parameters()

    assert "top_p" not in parameters(None)
    assert parameters(0.95)["top_p"] == 0.95


def test_ask_sends_top_p_on_the_wire(tmp_path):
    env = {**os.environ, "OPENAI_API_KEY": "k", "DIAGBENCH_CACHE": str(tmp_path / "c.sqlite")}
    with FakeServer() as server:
        for extra in (["--top-p", "0.5"], []):
            done = subprocess.run(
                [sys.executable, "-m", "diagbench", "ask", "--model",
                 f"openai:gpt-4o@{server.base_url}", *extra, "Read it."], cwd=tmp_path,
                env=env, capture_output=True, text=True, timeout=60, check=False)
            assert done.returncode == 0, done.stderr
        assert server.requests[0]["top_p"] == 0.5
        assert "top_p" not in server.requests[1]
        bad = subprocess.run([sys.executable, "-m", "diagbench", "ask", "--model",
                              f"openai:gpt-4o@{server.base_url}", "--top-p", "0", "hi"],
                             cwd=tmp_path, env=env, capture_output=True, text=True,
                             timeout=60, check=False)
        assert bad.returncode == 2 and "--top-p" in bad.stderr


def test_structure_defaults_are_the_papers():
    from diagbench.cli import cli as main

    runner = CliRunner()
    evaluate = " ".join(runner.invoke(main, ["eval", "structure", "--help"]).output.split())
    assert ("Sampling temperature. Default: the paper's evaluation settings (§5.1). "
            "[default: 0.2;") in evaluate
    assert "[default: 0.95;" in evaluate and "[default: 1024;" in evaluate
    assert evaluate.count("Default: the paper's evaluation settings (§5.1).") == 2
    build = " ".join(runner.invoke(main, ["build", "structure", "--help"]).output.split())
    assert "[default: 0.6;" in build and "(the paper's, §A.1)" in build
    assert "[default: 0.95;" in build
