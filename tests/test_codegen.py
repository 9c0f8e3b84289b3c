"""The codegen benchmark (paper 004 §4, STRUDEL's code-generation study): the metrics
against hand-computed numbers, `eval codegen` offline with baseline:synth (both
prompting approaches, byte-identical for a seed, score and report again from the saved
responses) and against the fake OpenAI server, whose answers make the validity and
consistency figures known in advance."""

from __future__ import annotations

import json
import os
import re

import pytest

from diagbench.scoring.metrics import code_lengths, complexity_consistency
from tests.cli import read_jsonl, read_view, run_cli
from tests.fake_providers import FakeServer

SMALL = ("--categories", "class,flowchart", "--languages", "plantuml,dot", "--per-category",
         "2", "--sample-seed", "3")


# --- the metrics (§4.1) ----------------------------------------------------------------

def test_consistency_checks_by_hand():
    # medium 11 ≥ 1.1 · 10 holds (exactly 10 %), high 11 = medium 11 is a tie (fails),
    # high 11 ≥ 1.1 · 10 holds → 2 of 3
    assert complexity_consistency([{"low": 10, "medium": 11, "high": 11}]) == 200 / 3
    # 10.9 < 11 fails, 12 ≥ 11.99 holds, 12 ≥ 11 holds
    assert complexity_consistency([{"low": 10, "medium": 10.9, "high": 12}]) == 200 / 3
    # shorter at a higher level never holds
    assert complexity_consistency([{"low": 30, "medium": 20, "high": 10}]) == 0.0


def test_consistency_pools_checks_over_groups_and_skips_missing_levels():
    groups = [{"low": 10, "medium": 20, "high": 40},  # 3 of 3
              {"low": 10, "high": 10},                # 0 of 1 (medium missing: 2 left out)
              {"medium": 5}]                          # no check
    assert complexity_consistency(groups) == 75.0
    assert complexity_consistency([{"low": 1}, {}]) is None
    assert complexity_consistency([{"low": 0, "medium": 0, "high": 0}]) == 0.0  # ties


def test_code_lengths_lines_or_characters():
    five = "a\n\nb\nc\n  \nd\ne\n"  # 5 non-blank lines
    assert code_lengths([five, five + "f\n"]) == ("lines", [5, 6])
    one_liners = ["CCO", "C1=CC=CC=C1\n", "x\ny\nz\nw\n"]  # median 1 line < 5
    assert code_lengths(one_liners) == ("characters", [3, 11, 7])
    # an even count: the median of 4 and 5 lines is 4.5 → characters
    assert code_lengths(["a\nb\nc\nd", "a\nb\nc\nd\ne"])[0] == "characters"


# --- offline with baseline:synth -------------------------------------------------------

@pytest.fixture(scope="module")
def synth_run(tmp_path_factory):
    run = tmp_path_factory.mktemp("codegen") / "run"
    done = run_cli("eval", "codegen", "--model", "baseline:synth", "--out", str(run), *SMALL)
    assert done.returncode == 0, done.stderr
    return run, done.stdout


def test_eval_offline_both_promptings(synth_run):
    run, stdout = synth_run
    scores = read_jsonl(run / "scores.jsonl")
    # 2 categories × 1 FRL each × 2 personas × 3 levels × 2 approaches
    assert len(scores) == 24
    assert {s["prompting"] for s in scores} == {"all-in-one", "sequential"}
    responses = read_jsonl(run / "models" / "baseline_synth" / "responses.jsonl")
    # one call per all-in-one sample, two per sequential one
    assert len(responses) == 12 + 2 * 12
    assert sum(r["id"].endswith("/solution") for r in responses) == 12
    for s in scores:
        assert s["status"] == "ok" and s["valid"] is True and s["measure"] == "lines"
        code = (run / "models" / "baseline_synth" / s["code"]).read_text(encoding="utf-8")
        assert s["length"] == sum(1 for line in code.splitlines() if line.strip())
        # the code as its engine drew it, kept for the viewer
        drawn = run / "models" / "baseline_synth" / s["drawn"]
        assert drawn.read_bytes().startswith(b"\x89PNG")
    # consistency by hand from the codes' lengths
    by_group: dict[tuple[str, str], dict[str, int]] = {}
    for s in scores:
        by_group.setdefault((s["group"], s["prompting"]), {})[s["complexity"]] = s["length"]
    summary = json.loads((run / "summary.json").read_text())
    for prompting in ("all-in-one", "sequential"):
        held = total = 0
        for (_, p), sizes in by_group.items():
            if p == prompting:
                for a, b in (("low", "medium"), ("medium", "high"), ("low", "high")):
                    total += 1
                    held += sizes[b] > sizes[a] and sizes[b] * 10 >= sizes[a] * 11
        cell = summary["models"]["baseline:synth"]["promptings"][prompting]
        assert total == 12 and cell["consistency"] == 100.0 * held / total
        assert cell["validity"] == 100.0 and cell["n"] == 12
    assert "baseline:synth / sequential: 100.0" in stdout
    manifest = json.loads((run / "manifest.json").read_text())
    assert set(manifest["tools"]) == {"plantuml", "graphviz"}
    html = (run / "report.html").read_text(encoding="utf-8")
    assert "Table 4" in html and (run / "plots" / "promptings.png").is_file()


def test_sequential_second_call_is_given_the_problem(synth_run):
    run, _ = synth_run
    responses = {r["id"]: r for r in read_jsonl(run / "models" / "baseline_synth" /
                                                "responses.jsonl")}
    first = responses["flowchart-dot-001.high.sequential"]["text"]
    second = responses["flowchart-dot-001.high.sequential/solution"]["text"]
    assert first.startswith("Problem:") and "Code:" not in first
    assert "Problem:" not in second and "```" in second


def test_byte_identical_for_a_seed_and_rescore_without_calls(synth_run, tmp_path):
    run, _ = synth_run
    again = tmp_path / "again"
    done = run_cli("eval", "codegen", "--model", "baseline:synth", "--out", str(again), *SMALL)
    assert done.returncode == 0, done.stderr
    for name in ("scores.jsonl", "summary.json"):
        assert (again / name).read_bytes() == (run / name).read_bytes(), name
    # score and report again from the saved responses: baseline:synth is never asked
    # (its responses file is left as it was)
    saved = (again / "models" / "baseline_synth" / "responses.jsonl").read_bytes()
    before = (again / "scores.jsonl").read_bytes()
    (again / "scores.jsonl").write_text("", encoding="utf-8")
    done = run_cli("score", "codegen", str(again))
    assert done.returncode == 0, done.stderr
    assert (again / "scores.jsonl").read_bytes() == before
    assert (again / "models" / "baseline_synth" / "responses.jsonl").read_bytes() == saved
    (again / "report.html").unlink()
    done = run_cli("report", "codegen", str(again))
    assert done.returncode == 0 and (again / "report.html").is_file()


def test_bad_option_is_a_usage_error():
    done = run_cli("eval", "codegen", "--model", "baseline:synth", "--out", "x", "--prompting",
                   "both")
    assert done.returncode == 2 and "both: choose among all-in-one,sequential" in done.stderr


def test_nothing_to_ask_is_a_clear_error(tmp_path):
    done = run_cli("eval", "codegen", "--model", "baseline:synth", "--out", str(tmp_path / "r"),
                   "--categories", "class", "--languages", "dbml")
    assert done.returncode == 3
    assert done.stderr.strip() == ("diagbench: error: nothing to ask: no category among "
                                   "class has an FRL among dbml")


# --- against the fake OpenAI server ------------------------------------------------------

def _dot(lines: int, valid: bool = True) -> str:
    body = "".join(f"  n{k} -> n{k + 1};\n" if valid else "  n -> ;\n"
                   for k in range(lines - 2))
    return f"digraph G {{\n{body}}}\n"


#: Non-blank lines of the code answered per approach and level; the sequential high
#: codes do not render, and the sequential low ones are never written (the problem
#: statement comes back empty).
LINES = {"all-in-one": {"low": 10, "medium": 11, "high": 11},
         "sequential": {"low": 10, "medium": 10, "high": 10}}


def _reply(prompt: str) -> str:
    level = re.search(r"^Complexity: (\w+)$", prompt, re.M)
    assert level is not None
    if "<functional description>" not in prompt:  # the first sequential call
        return "" if level[1] == "low" else "Problem:\n\nI need the flow of my parcels drawn.\n"
    if "<problem statement>" in prompt:  # all-in-one
        code = _dot(LINES["all-in-one"][level[1]])
        return f"Problem:\n\nP\n\nFunctionality:\n\nD\n\nCode:\n\n```dot\n{code}```\n"
    assert "Problem statement: I need the flow of my parcels drawn." in prompt
    code = _dot(LINES["sequential"][level[1]], valid=level[1] != "high")
    return f"Functionality:\n\nD\n\nCode:\n\n```\n{code}```\n\nAnswer:\n\nok\n"


def test_eval_against_fake_openai_server(tmp_path):
    env = {**os.environ, "OPENAI_API_KEY": "k", "DIAGBENCH_CACHE": str(tmp_path / "c.sqlite")}
    run = tmp_path / "run"
    args = ("eval", "codegen", "--categories", "flowchart", "--languages", "dot",
            "--per-category", "2", "--model", "openai:coder@{url}", "--out", str(run))
    with FakeServer(reply=_reply) as server:
        done = run_cli(*(a.replace("{url}", server.base_url) for a in args), env=env)
        assert done.returncode == 0, done.stderr
        assert len(server.requests) == 6 + 6 + 4  # no second call after an empty first
        assert all(r["messages"][0]["role"] == "system" for r in server.requests)
        done = run_cli("score", "codegen", str(run), env=env)  # no call
        assert done.returncode == 0, done.stderr
        assert len(server.requests) == 16
        first = (run / "scores.jsonl").read_bytes()
        done = run_cli(*(a.replace("{url}", server.base_url) for a in args), env=env)  # resumes
        assert done.returncode == 0, done.stderr
        assert len(server.requests) == 16 and (run / "scores.jsonl").read_bytes() == first
    summary = json.loads((run / "summary.json").read_text())
    m = next(iter(summary["models"].values()))
    aio, seq = m["promptings"]["all-in-one"], m["promptings"]["sequential"]
    assert (aio["n"], aio["valid"], aio["validity"]) == (6, 6, 100.0)
    assert (seq["n"], seq["valid"]) == (6, 2) and seq["validity"] == pytest.approx(200 / 6)
    assert seq["by_complexity"]["high"]["validity"] == 0.0
    assert seq["by_complexity"]["low"]["validity"] == 0.0
    assert seq["by_complexity"]["medium"]["validity"] == 100.0
    assert m["outcomes"] == {"no_code": 2, "ok": 10}
    # all-in-one: 11 ≥ 11 holds, 11 vs 11 tie, 11 ≥ 11 holds → 2/3 per persona;
    # sequential: medium 10 vs high 10, a tie (the invalid high codes are measured too;
    # the low level has no code, so its two checks are left out) → none
    assert aio["consistency"] == pytest.approx(200 / 3)
    assert seq["consistency"] == 0.0
    assert summary["promptings"]["all-in-one"]["consistency"] == pytest.approx(200 / 3)
    assert summary["promptings"]["sequential"]["validity"] == pytest.approx(200 / 6)
    invalid = [s for s in read_jsonl(run / "scores.jsonl") if s["valid"] is False]
    assert sorted((s["complexity"], s["status"], s["error"][:12]) for s in invalid) == [
        ("high", "ok", "Error: <stdi"), ("high", "ok", "Error: <stdi"),
        ("low", "no_code", "no problem s"), ("low", "no_code", "no problem s")]
    html = (run / "report.html").read_text(encoding="utf-8")
    assert "flowchart-dot-001.low.sequential" in html  # listed with its reason
    assert "flowchart-dot-001.low.all-in-one" not in html  # valid: not listed


def test_failed_calls_are_counted_invalid_and_fail_the_run(tmp_path):
    env = {**os.environ, "OPENAI_API_KEY": "k", "DIAGBENCH_CACHE": str(tmp_path / "c.sqlite")}
    run = tmp_path / "run"
    with FakeServer(script=["400"] * 20, reply=_reply) as server:
        done = run_cli("eval", "codegen", "--categories", "flowchart", "--languages", "dot",
                       "--per-category", "1", "--model", f"openai:coder@{server.base_url}",
                       "--out", str(run), env=env)
        assert done.returncode == 1, done.stderr  # every call failed
        assert len(server.requests) == 6  # no problem statement: no second call
    scores = read_jsonl(run / "scores.jsonl")
    assert [s["status"] for s in scores] == ["call_error"] * 6
    assert all(s["valid"] is None and "400" in s["error"] for s in scores)
    m = next(iter(json.loads((run / "summary.json").read_text())["models"].values()))
    assert m["outcomes"] == {"call_error": 6}
    assert (m["failures"]["asked"], m["failures"]["call_error"]) == (6, 6)
    seq = m["promptings"]["sequential"]
    assert (seq["n"], seq["valid"], seq["validity"]) == (3, 0, 0.0)  # 0 of 3, not "—"
    assert seq["consistency"] is None
    assert "openai:coder: nothing was answered: all 6 samples failed (call_error 6; " \
           "first: HTTP 400" in done.stderr


# --- build structure --prompting sequential ----------------------------------------------

def test_build_structure_sequential(tmp_path):
    out = tmp_path / "data"
    done = run_cli("build", "structure", "--out", str(out), "--model", "baseline:synth",
                   "--categories", "class", "--languages", "plantuml", "--per-category", "2",
                   "--prompting", "sequential")
    assert done.returncode == 0, done.stderr
    info = json.loads((out / "build.json").read_text())
    assert info["prompting"] == "sequential" and info["stages"]["with code"] == 2
    responses = {r["id"]: r["text"]
                 for r in read_jsonl(out / "generation" / "responses.jsonl")}
    assert sorted(responses) == ["class-plantuml-000", "class-plantuml-000/solution",
                                 "class-plantuml-001", "class-plantuml-001/solution"]
    for s in read_jsonl(out / "samples.jsonl"):
        # the problem statement is the first call's, the code the second call's
        assert responses[s["id"]] == f"Problem:\n\n{s['problem']}\n"
        code = (out / s["code"]).read_text(encoding="utf-8")
        assert code.strip() in responses[s["id"] + "/solution"]


def test_the_viewer_shows_each_code_as_drawn(synth_run, tmp_path):
    run, _ = synth_run
    done = run_cli("view", str(run), "--out", str(tmp_path / "v"))
    assert done.returncode == 0, done.stderr
    view = read_view(tmp_path / "v")
    drawn = [s[view["fields"].index("prediction_image")] for s in view["samples"]]
    assert len(drawn) == 24 and all(drawn)
    assert all((tmp_path / "v" / d).read_bytes().startswith(b"\x89PNG") for d in drawn)
