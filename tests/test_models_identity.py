"""One typed model identity: `PROVIDER:MODEL[@BASE_URL]` (plus endpoints) parsed once,
written to and read from a manifest by one record, never its key; two models that differ
only by their server are two models of a run, with two directories. The models package
names no benchmark and holds no command-line code; a benchmark's offline reference
models resolve from the CLI whatever was imported before."""

from __future__ import annotations

import ast
import asyncio
import json
import os
from pathlib import Path

import pytest

from diagbench.benchmarks.runs import model_dir_name, model_names
from diagbench.models.image_policy import ImagePolicy
from diagbench.models.offline import Baselines, OfflineBaseline
from diagbench.models.providers import ModelSpec, ModelSpecError
from diagbench.models.request import GenerationConfig, user_request
from diagbench.models.retry import CallError, RetryPolicy
from diagbench.models.settings import ModelSettings
from tests.cli import run_cli
from tests.fake_providers import FakeServer

MODELS = Path(__file__).parents[1] / "src" / "diagbench" / "models"
SECRET = "sk-diagbench-LEAKCHECK-identity-24680"


def test_a_name_is_parsed_once_into_the_whole_identity():
    spec = ModelSpec.parse("vllm:Qwen/VL@http://10.0.0.1:8000/v1", ("http://10.0.0.2:8000/v1",))
    assert spec == ModelSpec("vllm", "Qwen/VL", "http://10.0.0.1:8000/v1",
                             ("http://10.0.0.2:8000/v1",))
    assert spec.name == "vllm:Qwen/VL"
    assert spec.urls() == ["http://10.0.0.1:8000/v1", "http://10.0.0.2:8000/v1"]
    assert ModelSpec.parse("ollama:llava") == ModelSpec("ollama", "llava",
                                                        "http://127.0.0.1:11434/v1")
    with pytest.raises(ModelSpecError, match="--endpoint serves a model named with its server"):
        ModelSpec.parse("openai:gpt-4o", ("http://10.0.0.2:8000/v1",))
    with pytest.raises(ModelSpecError, match="no user or password"):
        ModelSpec.parse("vllm:m@http://127.0.0.1:1/v1", ("http://u:p@10.0.0.2/v1",))


def test_the_manifest_record_is_written_and_read_by_one_record_without_the_key():
    spec = ModelSpec("vllm", "m", "http://10.0.0.1/v1", ("http://10.0.0.2/v1",))
    settings = ModelSettings(spec, GenerationConfig(temperature=0.5, seed=3, stop=("END",)),
                             9.0, RetryPolicy(), ImagePolicy(512, None), None, key=SECRET)
    record = settings.to_json()
    assert list(record) == ["name", "provider", "model", "base_url", "endpoints",
                            "parameters"]
    assert record["endpoints"] == ["http://10.0.0.1/v1", "http://10.0.0.2/v1"]
    text = json.dumps(record)
    assert SECRET not in text and SECRET not in repr(settings)
    back = ModelSettings.from_json(json.loads(text))
    assert back.spec == spec and back.config == settings.config
    assert back.images == settings.images and back.key is None
    assert back.to_json() == record
    # the request a replayed run rebuilds is the one the live run sent
    assert back.request("q").key() == settings.request("q").key()


def test_models_differing_only_by_server_get_their_own_names():
    one = ModelSpec("vllm", "m", "http://10.0.0.1:8000/v1")
    two = ModelSpec("vllm", "m", "http://10.0.0.2:8000/v1")
    other = ModelSpec("openai", "gpt-4o", "https://api.openai.com/v1")
    names = model_names([one, two, other])
    assert names == ["vllm:m@http://10.0.0.1:8000/v1", "vllm:m@http://10.0.0.2:8000/v1",
                     "openai:gpt-4o"]
    assert [model_dir_name(n) for n in names] == [
        "vllm_m_http_10.0.0.1_8000_v1", "vllm_m_http_10.0.0.2_8000_v1", "openai_gpt-4o"]
    # no clash: the names (and directories) of runs written before stay as they were
    assert model_names([one, other]) == ["vllm:m", "openai:gpt-4o"]


def test_two_servers_of_one_model_name_get_two_directories(tmp_path):
    env = {**os.environ, "OPENAI_API_KEY": SECRET, "DIAGBENCH_CACHE": str(tmp_path / "c.sqlite")}
    run = tmp_path / "run"
    with FakeServer(reply=lambda p: "from the first") as first, \
            FakeServer(reply=lambda p: "from the second") as second:
        args = ["eval", "codegen", "--categories", "flowchart", "--languages", "dot",
                "--per-category", "1", "--model", f"openai:coder@{first.base_url}",
                "--model", f"openai:coder@{second.base_url}", "--out", str(run)]
        done = run_cli(*args, env=env)
        assert done.returncode == 0, done.stderr
        asked = {first.base_url: len(first.requests), second.base_url: len(second.requests)}
        assert all(asked.values())
        scores = (run / "scores.jsonl").read_bytes()
        done = run_cli("score", "codegen", str(run), env=env)  # from the saved responses
        assert done.returncode == 0, done.stderr
        assert (run / "scores.jsonl").read_bytes() == scores
        assert len(first.requests) + len(second.requests) == sum(asked.values())
    dirs = sorted(p.name for p in (run / "models").iterdir())
    port = {url: url.split(":")[2].split("/")[0] for url in asked}
    assert dirs == sorted(f"openai_coder_http_127.0.0.1_{port[url]}_v1" for url in asked)
    for url, reply in ((first.base_url, "from the first"), (second.base_url, "from the second")):
        lines = [json.loads(x) for x in (run / "models" / f"openai_coder_http_127.0.0.1_"
                                                          f"{port[url]}_v1" / "responses.jsonl")
                 .read_text(encoding="utf-8").splitlines()]
        assert len(lines) == asked[url] and {x["text"] for x in lines} == {reply}
    manifest = json.loads((run / "manifest.json").read_text(encoding="utf-8"))
    assert [m["base_url"] for m in manifest["models"]] == [first.base_url, second.base_url]
    summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    assert sorted(summary["models"]) == sorted(f"openai:coder@{url}" for url in asked)
    for file in run.rglob("*"):
        if file.is_file():
            assert SECRET.encode() not in file.read_bytes(), file


def test_a_benchmarks_baseline_resolves_from_the_command_line_in_a_fresh_process(tmp_path):
    done = run_cli("ask", "--model", "baseline:prior", "What is drawn?")
    assert done.returncode == 1  # found and called: it answers only prior-bias questions
    assert "not a prior-bias question" in done.stderr
    done = run_cli("ask", "--model", "baseline:nope", "What is drawn?")
    assert done.returncode == 3
    assert done.stderr.strip() == ("diagbench: error: 'baseline:nope': baseline models are "
                                   "blind, judge, ocr, prior, synth, vision-uml")


def test_the_baseline_table_keeps_each_function_once_in_order_and_refuses_an_unknown_one():
    table = Baselines()
    table.register("x", "pkg.mod:answer")
    table.register("x", "pkg.mod:answer")  # the same declaration twice (a re-import)
    table.register("x", "other.mod:answer")  # another benchmark's function for the name
    assert dict(table) == {"x": ("pkg.mod:answer", "other.mod:answer")}
    request = user_request("baseline", "no-such-baseline", "q")
    with pytest.raises(CallError, match="no baseline 'no-such-baseline' is registered") as exc:
        asyncio.run(OfflineBaseline("not-needed").call(request))
    assert not exc.value.retryable


def _strings_and_imports(path: Path) -> tuple[list[str], list[str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    strings = [n.value for n in ast.walk(tree)
               if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    imports = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    imports += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    return strings, imports


@pytest.mark.parametrize("path", sorted(MODELS.rglob("*.py")),
                         ids=lambda p: str(p.relative_to(MODELS)))
def test_the_models_package_names_no_benchmark_and_holds_no_command_line(path):
    strings, imports = _strings_and_imports(path)
    assert not [s for s in strings if "diagbench.benchmarks" in s or "diagbench.cli" in s]
    assert not [m for m in imports if m.startswith(("diagbench.benchmarks", "diagbench.cli",
                                                    "click"))]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Attribute)
                and isinstance(n.value, ast.Name) and (n.value.id, n.attr) == ("sys", "exit")]
