"""Cache keys hit and miss for visible reasons, every generation parameter is in the key and
the manifest; answered requests survive kill -9."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import fields

from diagbench.models.cache import ResponseCache
from diagbench.models.image_policy import ImagePolicy
from diagbench.models.providers import ModelSpec
from diagbench.models.request import KEY_EXCLUDED, GenerationConfig, ImagePart, user_request
from diagbench.models.retry import RetryPolicy
from diagbench.models.settings import ModelSettings

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(64))


def request(prompt="Convert this diagram to PlantUML.", image=PNG, **config):
    return user_request("openai", "gpt-4o", prompt, (ImagePart(image),),
                        GenerationConfig(**config))


def test_key_changes_with_what_is_asked_and_only_that():
    base = request()
    assert request().key() == base.key()
    assert request(image=PNG[:-1] + b"\x00").key() != base.key()  # one image byte
    assert request(prompt="Convert this diagram.").key() != base.key()
    # the repeat index matters only when sampling
    greedy = [user_request("openai", "gpt-4o", "p", repeat=k).key() for k in (0, 1)]
    sampled = [user_request("openai", "gpt-4o", "p", config=GenerationConfig(temperature=1.0),
                            repeat=k).key() for k in (0, 1)]
    assert greedy[0] == greedy[1] and sampled[0] != sampled[1]
    canonical = base.canonical()
    assert canonical["messages"][0]["parts"][0] == {
        "image_sha256": ImagePart(PNG).sha256, "media_type": "image/png"}
    assert "max_connections" not in json.dumps(canonical)


#: A value other than the default for every GenerationConfig field.
CHANGED = {"temperature": 0.7, "max_tokens": 10, "seed": 1, "stop": ("@enduml",),
           "reasoning": "high", "top_p": 0.9}


def test_every_generation_parameter_is_in_the_key_and_the_manifest():
    assert set(CHANGED) == {f.name for f in fields(GenerationConfig)}, "new field: add it here"
    assert set(CHANGED) >= KEY_EXCLUDED  # only real fields are excluded

    def parameters(config):
        return ModelSettings(ModelSpec.parse("baseline:ocr"), config, 1.0, RetryPolicy(),
                             ImagePolicy(), None).parameters()

    base = request()
    for name, value in CHANGED.items():
        assert (request(**{name: value}).key() != base.key()) == (name not in KEY_EXCLUDED), name
        assert parameters(GenerationConfig(**{name: value})) != parameters(GenerationConfig())
    assert list(parameters(GenerationConfig())) == [  # manifests written before `stop`
        "temperature", "max_tokens", "seed", "reasoning", "image_policy"]


def test_cache_round_trip_stats_explain_clear(tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    req = request()
    assert cache.get(req.key()) is None
    cache.put(req, {"text": "@startuml\nA -> B\n@enduml", "status": "ok"})
    assert cache.get(req.key())["text"].startswith("@startuml")
    assert cache.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert cache.stats()["by_model"] == {"openai:gpt-4o": 1}
    explained = cache.explain(req.key()[:12])
    assert explained["key"] == req.key() and explained["request"]["model"] == "gpt-4o"
    assert cache.clear() == 1 and cache.get(req.key()) is None


def test_answered_requests_survive_kill_9(tmp_path):
    path = tmp_path / "c.sqlite"
    script = textwrap.dedent(f"""
        import sys, time
        from diagbench.models.cache import ResponseCache
        from diagbench.models.request import user_request
        cache = ResponseCache({str(path)!r})
        for k in range(1000):
            cache.put(user_request("openai", "m", f"q{{k}}"), {{"text": f"a{{k}}"}})
            if k == 49:
                cache.flush()
                print("50", flush=True)
                time.sleep(60)
    """)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "50"
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    cache = ResponseCache(path)
    assert cache.stats()["entries"] == 50
    assert cache.get(user_request("openai", "m", "q49").key()) == {"text": "a49"}


def test_each_answer_is_committed_as_it_arrives_without_a_flush(tmp_path):
    path = tmp_path / "c.sqlite"
    writer, reader = ResponseCache(path), ResponseCache(path)
    req = request()
    writer.put(req, {"text": "first"})
    assert writer.get(req.key()) == {"text": "first"}  # queued or written: seen at once
    deadline = time.monotonic() + 10
    while reader.get(req.key()) is None and time.monotonic() < deadline:
        time.sleep(0.01)  # another connection sees it once the writer thread commits
    assert reader.get(req.key()) == {"text": "first"}
    writer.put(req, {"text": "second"})
    writer.close()  # writes what is queued
    assert reader.get(req.key()) == {"text": "second"}


def test_cache_cli(tmp_path):
    path = tmp_path / "c.sqlite"
    req = request()
    ResponseCache(path).put(req, {"text": "x"})

    def run(*args):
        return subprocess.run([sys.executable, "-m", "diagbench", "cache", *args,
                               "--cache", str(path)], capture_output=True, text=True,
                              timeout=60, check=False)

    assert json.loads(run("stats").stdout)["entries"] == 1
    shown = run("explain", req.key()[:16])
    assert shown.returncode == 0 and ImagePart(PNG).sha256 in shown.stdout
    missing = run("explain", "ffff")
    assert missing.returncode == 3 and "no single cache entry" in missing.stderr
    assert run("clear", "--yes").stdout.strip() == "deleted 1 responses"
