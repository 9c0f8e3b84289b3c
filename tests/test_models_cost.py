"""Tokens, dollars and truncation of a run: the price table (bundled, `--prices FILE`,
its errors), costs worked out by hand (batch at half price), the share of answers cut
by the token limit, and `--max-cost` stopping a run at its cap and resuming under a
higher one (a real HTTP server on 127.0.0.1 speaking OpenAI's wire format)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from diagbench.models.prices import PriceTableError, load_prices
from diagbench.models.response import Usage
from tests.fake_providers import FakeServer

PROMPTS = [f"question {k}" for k in range(5)]


def test_the_bundled_table_names_its_date_and_source():
    table = load_prices()
    assert table.date and "pricing" in table.source and table.batch_discount == 0.5
    # 110 input and 70 output tokens of gpt-4o at 2.5 and 10 USD per million:
    # (110·2.5 + 70·10)/10⁶ = 0.000975; at the batch price half of it
    usage = Usage(110, 70, 0)
    assert table.cost("openai:gpt-4o", usage) == pytest.approx(0.000975)
    assert table.cost("openai:gpt-4o", usage, batch=True) == pytest.approx(0.0004875)
    assert table.cost("openai:unknown", usage) is None


@pytest.mark.parametrize(("text", "error"), [
    ("{", "prices.json:1: not JSON"),
    ('{"openai:x": [1, 2]}', 'needs "_date" and "_source"'),
    ('{"_date": "d", "_source": "s", "x": [1, 2]}', "'x': expected \"PROVIDER:MODEL\""),
    ('{"_date": "d", "_source": "s", "a:b": [1, -2]}', "'a:b': expected"),
    ('{"_date": "d", "_source": "s", "_batch_discount": 2}', '"_batch_discount" must be'),
])
def test_a_bad_price_table_names_the_file_and_the_reason(tmp_path, text, error):
    path = tmp_path / "prices.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PriceTableError, match=None) as caught:
        load_prices(path)
    assert str(caught.value).startswith(str(path)) and error in str(caught.value)


def _run(tmp_path: Path, server: FakeServer, out: str, *options: str
         ) -> subprocess.CompletedProcess:
    requests = tmp_path / "requests.jsonl"
    requests.write_text("".join(json.dumps({"id": f"q{k}", "prompt": p}) + "\n"
                                for k, p in enumerate(PROMPTS)), encoding="utf-8")
    prices = tmp_path / "prices.json"
    # 11 input + 7 output tokens an answer (the fake's usage) at 10,000 USD per million
    # each: 18 · 0.01 = 0.18 USD an answer
    prices.write_text(json.dumps({"_date": "2026-11-29", "_source": "test",
                                  "openai:gpt-test": [10_000, 10_000]}), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "diagbench", "run", str(requests), "--model",
         f"openai:gpt-test@{server.base_url}", "--prices", str(prices), "--out",
         str(tmp_path / out), "--max-connections", "1", "--no-cache", *options],
        capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "OPENAI_API_KEY": "sk-test"})


def test_a_tiny_max_tokens_reports_the_share_of_answers_cut(tmp_path):
    with FakeServer() as server:
        # "echo: question k" is 3 words; the fake cuts an answer at max_tokens words
        done = _run(tmp_path, server, "cut", "--max-tokens", "2")
    assert done.returncode == 0, done.stderr
    summary = json.loads((tmp_path / "cut" / "manifest.json").read_text())["summary"]
    assert (summary["truncated"], summary["truncated_share"]) == (5, 1.0)
    assert "5 cut by the token limit (100.0 %)" in done.stdout
    assert summary["estimated_cost_usd"] == pytest.approx(5 * 0.18)


def test_max_cost_stops_the_run_and_a_higher_cap_resumes_it(tmp_path):
    with FakeServer() as server:
        # one at a time: spent 0, 0.18, 0.36 → sent; 0.54 ≥ 0.5 → the last two not sent
        done = _run(tmp_path, server, "capped", "--max-cost", "0.5")
        assert done.returncode == 0, done.stderr
        assert len(server.requests) == 3
        records = [json.loads(line) for line in
                   (tmp_path / "capped" / "responses.jsonl").read_text().splitlines()]
        assert sorted(r["status"] for r in records) == ["error", "error", "ok", "ok", "ok"]
        assert all(r["error"].startswith("not sent: the run's cost reached --max-cost 0.5")
                   for r in records if r["status"] == "error")
        # the 3 answers already cost 0.54: under a cap of 1 the other two are sent
        # (0.72, 0.90), and nothing is asked twice
        done = _run(tmp_path, server, "capped", "--max-cost", "1")
        assert done.returncode == 0, done.stderr
        assert len(server.requests) == 5
    summary = json.loads((tmp_path / "capped" / "manifest.json").read_text())["summary"]
    assert (summary["ok"], summary["errors"]) == (5, 0)


def test_max_cost_needs_a_price_and_no_batch(tmp_path):
    with FakeServer() as server:
        done = _run(tmp_path, server, "x", "--max-cost", "1", "--batch")
        assert done.returncode == 3 and "--max-cost caps online calls" in done.stderr
    requests = tmp_path / "requests.jsonl"
    done = subprocess.run([sys.executable, "-m", "diagbench", "run", str(requests), "--model",
                           "openai:unpriced@http://127.0.0.1:9/v1", "--max-cost", "1", "--out",
                           str(tmp_path / "y")], capture_output=True, text=True, timeout=120,
                          check=False, env={**os.environ, "OPENAI_API_KEY": "sk-test"})
    assert done.returncode == 3
    assert "--max-cost needs the price of openai:unpriced" in done.stderr


def test_usage_block_by_hand():
    from diagbench.benchmarks.asking import Answer
    from diagbench.benchmarks.protocol import SampleValue
    from diagbench.benchmarks.usage import correct_count, model_usage
    from diagbench.models.settings import ModelSettings

    settings = ModelSettings.from_json({"name": "openai:gpt-4o", "provider": "openai",
                                        "model": "gpt-4o", "base_url": None,
                                        "parameters": {"image_policy": {}}})
    answers = {f"q{k}": Answer(f"q{k}", "ok", "x", usage=Usage(110, 70, 20),
                               finish_reason="length" if k == 0 else "stop")
               for k in range(4)} | {"q9": Answer("q9", "call_error", error="boom")}
    values = [SampleValue("m", "accuracy", f"q{k}", "d", float(k < 2)) for k in range(4)]
    assert correct_count(values, ["accuracy"]) == 2
    assert correct_count([SampleValue("m", "score", "q", "d", 0.5)], ["score"]) is None
    usage = model_usage(answers, settings, 2)
    # 4 answers (the failed call is none) at 0.000975 USD each; 2 right
    assert usage["answers"] == 4 and usage["truncated"] == 1
    assert usage["truncated_share"] == 0.25
    assert usage["tokens"] == {"input_tokens": 440, "output_tokens": 280,
                               "reasoning_tokens": 80}
    assert usage["cost_usd"] == pytest.approx(0.0039)
    assert usage["cost_per_correct_usd"] == pytest.approx(0.00195)


def test_an_eval_keeps_each_models_usage_beside_its_summary(tmp_path):
    from tests.sadu_fixture import write_sadu

    sadu = write_sadu(tmp_path / "sadu")
    env = {**os.environ, "OPENAI_API_KEY": "sk-test", "DIAGBENCH_CACHE": str(tmp_path / "c")}
    assert subprocess.run([sys.executable, "-m", "diagbench", "import", "sadu",
                           str(sadu / "dataset" / "SAD"), "--out", str(tmp_path / "data")],
                          capture_output=True, timeout=300, env=env).returncode == 0
    with FakeServer() as server:
        prices = tmp_path / "prices.json"
        prices.write_text(json.dumps({"_date": "2026-11-29", "_source": "test",
                                      "openai:gpt-test": [10_000, 10_000]}), encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "-m", "diagbench", "eval", "archqa", "--data",
             str(tmp_path / "data"), "--model", f"openai:gpt-test@{server.base_url}",
             "--max-tokens", "2", "--prices", str(prices), "--out", str(tmp_path / "run")],
            capture_output=True, text=True, timeout=300, env=env, check=False)
    assert done.returncode == 0, done.stderr
    usage = json.loads((tmp_path / "run" / "usage.json").read_text())
    # every echo of a question is longer than 2 words: all 8 answers cut; 0.18 USD each
    assert usage["openai:gpt-test"]["truncated_share"] == 1.0
    assert usage["openai:gpt-test"]["cost_usd"] == pytest.approx(8 * 0.18)
    assert "cut by the token limit 8 (100.0 %); cost $1.4400" in done.stdout
    page = (tmp_path / "run" / "report.html").read_text(encoding="utf-8")
    assert "Tokens, truncation and cost" in page and "<td>100.0 %</td>" in page
    assert "<td>1.4400</td>" in page
    assert "Intervals: naive and clustered by diagram" in page
    # the viewer marks each answer cut by the token limit
    assert subprocess.run([sys.executable, "-m", "diagbench", "view", str(tmp_path / "run"),
                           "--out", str(tmp_path / "v")], capture_output=True, timeout=300,
                          env=env).returncode == 0
    shown = (tmp_path / "v" / "samples.js").read_text(encoding="utf-8")
    assert shown.count('["cut by the token limit"]') == 8
    # the leaderboard gives the run's cost beside its accuracy, and per point of it
    board = subprocess.run([sys.executable, "-m", "diagbench", "leaderboard",
                            str(tmp_path / "run"), "--format", "json"], capture_output=True,
                           text=True, timeout=300, env=env)
    [row] = json.loads(board.stdout)["rows"]
    [cell] = row["cells"].values()
    assert cell["cost_usd"] == pytest.approx(8 * 0.18)
    assert cell["cost_per_point"] == (pytest.approx(8 * 0.18 / cell["value"])
                                      if cell["value"] else None)


def test_a_batch_run_costs_half(tmp_path):
    from tests.fake_providers import FakeBatches

    with FakeBatches() as server:
        done = _run(tmp_path, server, "batched", "--batch", "--batch-poll", "0")
    assert done.returncode == 0, done.stderr
    manifest = json.loads((tmp_path / "batched" / "manifest.json").read_text())
    # the same 5 answers as online (0.18 USD each), at the batch discount of ½
    assert manifest["summary"]["estimated_cost_usd"] == pytest.approx(5 * 0.09)
    assert manifest["prices"]["batch_discount"] == 0.5
