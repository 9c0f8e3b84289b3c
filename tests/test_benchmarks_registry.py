"""The benchmark registry and the generic commands: `benchmarks`, `eval`, `score` (from
the saved responses, no model called), `report`; the registries of providers, baselines
and engines; what the CLI imports at start-up."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from diagbench.benchmarks.registry import registered
from diagbench.models.offline import BASELINES
from diagbench.models.providers import PROVIDERS
from diagbench.references import load
from diagbench.render.engines import ENGINES

HEAVY = ("numpy", "scipy", "matplotlib", "PIL", "anthropic", "openai", "google.genai",
         "onnxruntime", "rapidocr_onnxruntime", "cv2", "datasets", "pyarrow", "ray")


def _diagbench(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "diagbench", *args], capture_output=True,
                          text=True, timeout=600, check=False, env={**os.environ, **(env or {})})


def test_benchmarks_lists_every_registered_benchmark_one_line_each():
    done = _diagbench("benchmarks")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["archqa", "codegen", "conversion",
                                                   "prior-bias", "structure"]
    assert all(len(line.split(maxsplit=1)[1]) > 20 for line in lines)


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["eval", "--help"],
                                  ["eval", "conversion", "--help"],
                                  ["eval", "codegen", "--help"], ["build", "--help"],
                                  ["export", "--help"], ["import", "--help"]])
def test_start_up_imports_no_heavy_library(args):
    code = (f"import sys\nfrom diagbench.cli import cli\ntry:\n    cli.main({args!r})\n"
            f"except SystemExit:\n    pass\nprint('LOADED', *sorted(m for m in {HEAVY!r} "
            "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.splitlines()[-1] == "LOADED"


def test_model_names_resolve_whatever_was_imported_before():
    code = ("import sys\nfrom diagbench.models.providers import ModelSpec\n"
            "spec = ModelSpec.parse('baseline:prior')\n"
            "print(spec.model, 'diagbench.benchmarks.prior_bias.baselines' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.split() == ["prior", "False"]


registered()  # the benchmarks register their baselines


@pytest.mark.parametrize("reference", sorted({*(r for refs in BASELINES.values() for r in refs),
                                              *(p.adapter for p in PROVIDERS.values()),
                                              *ENGINES.values()}))
def test_every_registry_entry_loads(reference):
    assert callable(load(reference))


def test_build_lists_only_benchmarks_with_something_to_build():
    done = _diagbench("build", "--help")
    commands = done.stdout.split("Commands:")[1].split()
    assert "prior-bias" in commands and "conversion" not in commands


def test_unknown_benchmark_and_foreign_run_are_clear_errors(tmp_path):
    done = _diagbench("score", "nope", str(tmp_path))
    assert done.returncode == 2 and ("no benchmark 'nope' (known: archqa, codegen, "
                                      "conversion, prior-bias, structure)") in done.stderr
    (tmp_path / "manifest.json").write_text(json.dumps({"benchmark": "prior-bias",
                                                        "options": {}}))
    done = _diagbench("score", "conversion", str(tmp_path))
    assert done.returncode == 3
    assert done.stderr.strip() == (f"diagbench: error: {tmp_path / 'manifest.json'}: not a run "
                                   "of conversion written by diagbench eval")


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A prior-bias run of baseline:prior over a small build."""
    root = tmp_path_factory.mktemp("registry")
    data = root / "data"
    built = _diagbench("build", "prior-bias", "--out", str(data), "--per-cell", "2",
                       "--scale", "1", "--seed", "5")
    assert built.returncode == 0, built.stderr
    done = _diagbench("eval", "prior-bias", "--data", str(data), "--model", "baseline:prior",
                      "--out", str(root / "run"))
    assert done.returncode == 0, done.stderr
    return root / "run"


def test_score_from_saved_responses_and_report_reproduce_eval(run):
    before = {name: (run / name).read_bytes()
              for name in ("scores.jsonl", "summary.json", "report.html")}
    done = _diagbench("score", "prior-bias", str(run))
    assert done.returncode == 0, done.stderr
    assert "Δ = 100.0" in done.stdout
    (run / "report.html").unlink()
    done = _diagbench("report", "prior-bias", str(run))
    assert done.returncode == 0 and done.stdout.strip() == f"report: {run / 'report.html'}"
    assert {name: (run / name).read_bytes() for name in before} == before


def test_a_response_missing_from_the_run_is_a_failed_call(run, tmp_path):
    copy = tmp_path / "run"
    subprocess.run(["cp", "-r", str(run), str(copy)], check=True)
    responses = copy / "models" / "baseline_prior" / "responses.jsonl"
    lines = responses.read_text().splitlines()
    dropped = json.loads(lines[0])["id"]
    responses.write_text("\n".join(lines[1:]) + "\n")
    data = Path(json.loads((copy / "manifest.json").read_text())["option_paths"]["data"])
    rows = [json.loads(line) for line in (data / "manifest.jsonl").read_text().splitlines()]
    # a stage-1 answer (names:DIAGRAM@1x) is used by every instance of its diagram;
    # a stage-2 answer (ID@1x) by its instance alone
    expected = (sum(r["diagram"] == dropped[len("names:"):-len("@1x")] for r in rows)
                if dropped.startswith("names:") else 1)
    done = _diagbench("score", "prior-bias", str(copy))
    assert done.returncode == 0, done.stderr
    summary = json.loads((copy / "summary.json").read_text())["models"]["baseline:prior"]
    assert summary["errors"] == expected and summary["answered"] == len(rows) - expected
    failed = [json.loads(x) for x in (copy / "scores.jsonl").read_text().splitlines()
              if json.loads(x)["status"] == "error"]
    assert {f["error"] for f in failed} == {"no saved response in this run"}
