"""A reasoning model's thinking kept apart from its answer (issue 32, item 4): a fake
server answering with its thinking — inside `<think>…</think>` or in each provider's own
field — has it stored apart (`reasoning` in responses.jsonl), the answer scored without
it, and both shown by `diagbench view`."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from diagbench.models.reasoning import split_thinking
from tests.cli import read_view, run_cli
from tests.fake_providers import FakeServer
from tests.sadu_fixture import write_sadu

#: The thinking holds a marked answer (right on every question whose gold is 3); the
#: answer after it holds none: read with its thinking, it would score.
THINKING = 'Three boxes, I think. [start]{"answer": 3}[end]'
ANSWER = "I cannot tell from the image."


@pytest.mark.parametrize(("text", "answer", "thinking"), [
    ("<think>a\nb</think>\n\nfinal", "final", "a\nb"),
    ("a</think>final", "final", "a"),                  # the template wrote <think>
    ("<THINK>x</THINK>y", "y", "x"),
    ("<think>cut short", "", "cut short"),             # ran out of tokens thinking
    ("<think>one</think>mid</think>end", "end", "one</think>mid"),
    ("no tags at all", "no tags at all", None),
    ("<think></think>ok", "ok", None),
])
def test_thinking_is_split_from_the_answer(text, answer, thinking):
    assert split_thinking(text) == (answer, thinking)


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "OPENAI_API_KEY": "k", "ANTHROPIC_API_KEY": "k",
           "GEMINI_API_KEY": "k", "DIAGBENCH_CACHE": str(cwd / "cache.sqlite")}
    return run_cli(*args, cwd=cwd, env=env)


def test_answers_are_scored_without_their_thinking_and_shown_beside_it(tmp_path):
    sadu = write_sadu(tmp_path / "sadu")
    assert _cli("import", "sadu", str(sadu / "dataset" / "SAD"), "--out", "data",
                cwd=tmp_path).returncode == 0
    threes = sum(json.loads(line)["gold"] in (3, [3]) for line in
                 (tmp_path / "data" / "questions.jsonl").read_text().splitlines())
    assert threes  # the thinking would be right on these

    def models(server: FakeServer) -> list[str]:
        return ["--model", f"openai:r1@{server.base_url}",
                "--model", f"anthropic:claude@{server.url}",
                "--model", f"gemini:gem@{server.url}"]

    # the thinking in its own field (each provider's), the answer alone in the text
    with FakeServer(reply=lambda _: ANSWER, thinking=lambda _: THINKING) as server:
        done = _cli("eval", "archqa", "--data", "data", *models(server), "--out", "apart",
                    cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    # the thinking inside the text, as a model served without a reasoning parser writes it
    with FakeServer(reply=lambda _: f"<think>{THINKING}</think>\n{ANSWER}") as server:
        done = _cli("eval", "archqa", "--data", "data", "--model",
                    f"openai:r1@{server.base_url}", "--out", "tags", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    # control: the same marked answer as the answer itself is read and right
    with FakeServer(reply=lambda _: THINKING) as server:
        done = _cli("eval", "archqa", "--data", "data", "--model",
                    f"openai:r1@{server.base_url}", "--out", "control", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    control = [json.loads(x) for x in (tmp_path / "control" / "scores.jsonl").open()]
    assert sum(s["correct"] for s in control) == threes

    for run, names in (("apart", ("openai:r1", "anthropic:claude", "gemini:gem")),
                       ("tags", ("openai:r1",))):
        scores = [json.loads(x) for x in (tmp_path / run / "scores.jsonl").open()]
        assert {s["model"] for s in scores} == set(names)
        assert {s["status"] for s in scores} == {"unparsable"}, run
        assert not any(s["correct"] for s in scores)
        for name in names:
            folder = tmp_path / run / "models" / name.replace(":", "_")
            records = [json.loads(x) for x in (folder / "responses.jsonl").open()]
            assert {(r["text"], r["reasoning"]) for r in records} == {(ANSWER, THINKING)}
        done = _cli("view", run, "--out", f"view-{run}", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        view = read_view(tmp_path / f"view-{run}")
        at = {name: k for k, name in enumerate(view["fields"])}
        assert {(s[at["answer"]], s[at["reasoning"]]) for s in view["samples"]} == \
            {(ANSWER, THINKING)}
