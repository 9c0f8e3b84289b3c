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
    env = {**os.environ, "OPENAI_API_KEY": "k", "ANTHROPIC_API_KEY": "k",
           "GEMINI_API_KEY": "k", "DIAGBENCH_CACHE": str(tmp_path / "c.sqlite")}

    def ask(model: str, *extra: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "diagbench", "ask", "--model", model,
                               *extra, "Read it."], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=60, check=False)

    with FakeServer() as server:
        for model in (f"openai:gpt-4o@{server.base_url}", f"anthropic:claude@{server.url}",
                      f"gemini:gemini-2@{server.url}"):
            done = ask(model, "--top-p", "0.5")
            assert done.returncode == 0, done.stderr
        plain = ask(f"openai:gpt-4o@{server.base_url}")
        assert plain.returncode == 0, plain.stderr
        bad = ask(f"openai:gpt-4o@{server.base_url}", "--top-p", "0")
        assert bad.returncode == 2 and "--top-p" in bad.stderr
    openai_body, anthropic_body, gemini_body, plain_body = server.requests
    assert openai_body["top_p"] == anthropic_body["top_p"] == 0.5
    assert gemini_body["generationConfig"]["topP"] == 0.5
    assert "top_p" not in plain_body


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


def test_generation_calls_send_strudels_system_prompt_of_each_step():
    from diagbench.benchmarks.synthesis import Signals, ask_all, first_ask

    one = Signals("s1", "class", "plantuml", "low", "a teacher", "education")
    assert first_ask(one).system == ("You are an AI assistant expert at simulating user "
                                     "interactions and generating solutions with "
                                     "functional descriptions.")
    two = Signals("s2", "class", "plantuml", "low", "a teacher", "education", "sequential")
    assert first_ask(two).system == "You are an AI assistant expert at simulating user " \
        "interactions."
    seen = []

    def answer(asks):
        from diagbench.benchmarks.asking import Answer
        seen.extend(a for a in asks if a not in seen)
        return {a.id: Answer(a.id, "ok", "Problem: draw my classes") for a in asks}

    ask_all([two], answer)
    assert [a.system for a in seen][1].startswith("You are a helpful AI assistant expert "
                                                  "in generating solutions")
