"""The LLM-as-judge filter of `build structure` (paper 004 §3.3, Fig. 9) and the
1024-px images of `eval structure` (§5.1): the prompt against the paper's text, the
strict verdict reading, baseline:judge's offline checks, the judge asked through the
runner of a fake OpenAI server on 127.0.0.1 (thresholds, unparsable replies, failed
calls, resumed builds), and the size of the images a model is sent."""

from __future__ import annotations

import base64
import io
import json
import os
import re
from pathlib import Path

import pytest
from PIL import Image

from diagbench.benchmarks.structure.judging import (
    BELOW,
    CALL_FAILED,
    JUDGE_SYSTEM,
    JUDGE_USER,
    UNPARSABLE,
    judge_samples,
    offline_verdict,
    parse_verdict,
)
from diagbench.benchmarks.structure.planned import Planned
from diagbench.benchmarks.structure.records import generator_settings
from tests.cli import read_jsonl, run_cli
from tests.fake_providers import FakeServer

PAPER = Path(__file__).resolve().parents[2] / "shared" / "papers" / "004_34f8485b6a3a0424.txt"
CLASS = "@startuml\nclass Order\nclass Customer\nclass Product\nCustomer --> Order\n" \
        "Order *-- Product\n@enduml\n"


def test_fig9_prompt_is_the_papers():
    text = PAPER.read_text(encoding="utf-8")
    block = text[text.index("Dataset LLM-as-a-Judge correctness scoring"):
                 text.index("Figure 9: Prompt for scoring")]
    ours = JUDGE_SYSTEM + "\n" + JUDGE_USER
    lines = [ln.strip() for ln in block.splitlines()[1:]]
    checked = [ln for ln in lines if ln and ln not in ("System Prompt:", "User Prompt:")]
    for line in checked:
        assert line in ours, line
    assert len(checked) == 26


@pytest.mark.parametrize(("reply", "status", "correct"), [
    ("correct: true\nexplanation: consistent.", "parsed", "true"),
    ("correct: <false>\n\nexplanation: the description names 5 classes, the code 4.",
     "parsed", "false"),
    ("**correct:** null\n**explanation:** cannot tell", "parsed", "null"),
    ("Correct: TRUE", "parsed", "true"),
    ("The code is correct.", "unparsable", None),
    ("correct: yes\nexplanation: fine", "unparsable", None),
    ("correct: true\ncorrect: false", "unparsable", None),
    ("correct: true, mostly", "unparsable", None),
    ("", "unparsable", None),
])
def test_parse_verdict_strictly(reply, status, correct):
    v = parse_verdict(reply)
    assert (v.status, v.correct) == (status, correct)
    assert (v.score is None) == (correct is None)


def test_verdict_explanation_and_scores():
    v = parse_verdict("correct: false\nexplanation: two classes are missing.")
    assert (v.score, v.explanation) == (0.0, "two classes are missing.")
    assert parse_verdict("correct: null").score == 0.5
    assert parse_verdict("correct: true").score == 1.0


@pytest.mark.parametrize(("description", "correct", "why"), [
    ("Three classes: a customer places orders made of products.", "true",
     "1 stated count"),
    ("The model has 3 classes and 2 relations.", "true", "2 stated counts"),
    ("The model has 4 classes.", "false", "states 4 classes, the code has 3"),
    ("Orders are linked by one composition and two associations.", "false",
     "states 2 associations, the code has 1"),
    ("No numbers here.", "true", "0 stated counts"),
])
def test_offline_judge_checks_stated_counts(description, correct, why):
    reply = offline_verdict("PlantUML", CLASS, description)
    assert parse_verdict(reply).correct == correct
    assert why in reply


def test_offline_judge_rejects_code_that_does_not_parse():
    reply = offline_verdict("PlantUML", "@startuml\nclass Order {\n@enduml\n", "One class.")
    assert parse_verdict(reply).correct == "false" and "line" in reply
    # a language diagbench does not read: no verdict either way
    assert parse_verdict(offline_verdict("VHDL", CLASS, "")).correct == "null"


def _png(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (120, 80), "white").save(path)


def test_judge_samples_through_the_runner(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("DIAGBENCH_CACHE", str(tmp_path / "cache.sqlite"))
    replies = {"P-true": "correct: true\nexplanation: fine", "P-false": "correct: false\n"
               "explanation: wrong", "P-null": "correct: null\nexplanation: unsure",
               "P-prose": "It all looks right to me."}
    names = ["P-fail", *replies]  # the first request gets a 400 (one connection: in order)
    samples = []
    for name in names:
        _png(tmp_path / "images" / f"{name}.png")
        samples.append(Planned(name, "class", "plantuml", "low", "persona", "banking",
                               problem=name, description="Three classes.", code=CLASS,
                               image=f"images/{name}.png"))
    seen: list[dict] = []
    with FakeServer(["400"], reply=lambda p: replies[re.search(r"P-\w+", p).group(0)]
                    ) as server:
        server.on_body = seen.append
        settings = generator_settings(f"openai:judge@{server.base_url}", 0.0, 256, 0)
        verdicts = judge_samples(samples, settings, tmp_path, 0.5, max_connections=1)
    assert [s.reason for s in samples] == [CALL_FAILED, None, BELOW, None, UNPARSABLE]
    assert {k: v.correct for k, v in verdicts.items()} == {
        "P-fail": None, "P-true": "true", "P-false": "false", "P-null": "null",
        "P-prose": None}
    assert verdicts["P-prose"].reason == "no line `correct: true|false|null`"
    body = seen[-1]  # the system prompt with the category; the user prompt, no image
    assert body["messages"][0]["content"].startswith(
        "You are a professional expert in UML class diagram,")
    content = body["messages"][1]["content"]
    parts = content if isinstance(content, list) else [{"type": "text", "text": content}]
    assert [p["type"] for p in parts] == ["text"]  # "judge from text only" (Fig. 9)
    assert "Code Language: PlantUML" in parts[0]["text"]
    assert (tmp_path / "generation" / "judge_responses.jsonl").is_file()
    samples[2].reason = None  # null is kept at 0.5, removed at 1.0
    with FakeServer(reply=lambda p: replies[re.search(r"P-\w+", p).group(0)]) as server:
        settings = generator_settings(f"openai:judge@{server.base_url}", 0.0, 256, 0)
        judge_samples(samples[1:4], settings, tmp_path, 1.0)
    assert [s.reason for s in samples[1:4]] == [None, BELOW, BELOW]


#: The fake judge's verdict by the complexity baseline:synth writes into each problem.
VERDICT_BY_COMPLEXITY = {"low": "true", "medium": "false", "high": "null"}
ARGS = ("--model", "baseline:synth", "--categories", "flowchart", "--languages", "dot",
        "--per-category", "3", "--seed", "19")  # Graphviz: fast; the high one is 293 × 1129


def _judge_reply(prompt: str) -> str:
    complexity = re.search(r"a (low|medium|high)-complexity", prompt).group(1)
    return f"correct: {VERDICT_BY_COMPLEXITY[complexity]}\nexplanation: by complexity."


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    """A data set judged by a fake OpenAI judge, built twice (the second resumes)."""
    tmp = tmp_path_factory.mktemp("judged")
    env = {**os.environ, "OPENAI_API_KEY": "k", "DIAGBENCH_CACHE": str(tmp / "c.sqlite")}
    out = tmp / "data"
    with FakeServer(reply=_judge_reply) as server:
        args = ("build", "structure", "--out", str(out), *ARGS, "--judge",
                f"openai:judge@{server.base_url}")
        first = run_cli(*args, env=env, timeout=900)
        assert first.returncode == 0, first.stderr
        build = (out / "build.json").read_bytes()
        asked = len(server.requests)
        again = run_cli(*args, env=env, timeout=900)
        assert again.returncode == 0, again.stderr
        assert len(server.requests) == asked == 3  # nothing asked again
    assert (out / "build.json").read_bytes() == build
    return out, first.stdout


def test_build_removes_what_the_judge_scores_below_the_threshold(judged):
    out, stdout = judged
    info = json.loads((out / "build.json").read_text())
    assert info["judge"]["verdicts"] == {"true": 1, "null": 1, "false": 1, "unparsable": 0,
                                         "call_error": 0}
    assert info["judge"]["removed"] == 1 and info["judge"]["threshold"] == 0.5
    assert "kappa" in info["judge"]
    assert info["removed"] == {BELOW: 1}
    assert [r["id"] for r in info["rejected"]] == ["flowchart-dot-001"]  # medium: false
    samples = read_jsonl(out / "samples.jsonl")
    assert [(s["id"], s["judge"]["correct"]) for s in samples] == [
        ("flowchart-dot-000", "true"), ("flowchart-dot-002", "null")]
    assert not (out / "images" / "flowchart-dot-001.png").exists()
    assert "removed 1 (threshold 0.5)" in stdout
    assert {t["sample"] for t in read_jsonl(out / "tasks.jsonl")} == {s["id"] for s in samples}


def test_judge_info_gives_kappa_against_the_deterministic_check():
    from diagbench.benchmarks.structure.judging import judge_info
    from diagbench.benchmarks.structure.records import Verdict

    verdicts = {"a": Verdict("parsed", "true"), "b": Verdict("parsed", "false"),
                "c": Verdict("parsed", "null"), "d": Verdict("unparsable")}
    checks = {"a": True, "b": True, "c": False, "d": True}
    # kept at threshold 0.5: a, c (null scores 0.5); d has no verdict. Pairs (check,
    # kept): (T, T), (T, F), (F, T): p_o = 1/3, p_e = (2/3)(2/3) + (1/3)(1/3) = 5/9,
    # κ = (1/3 − 5/9)/(1 − 5/9) = −1/2
    assert judge_info("m", 0.5, verdicts, checks).kappa == -0.5
    assert judge_info("m", 0.5, verdicts).kappa is None


def test_without_judge_the_build_says_it_was_not_run(tmp_path):
    done = run_cli("build", "structure", "--out", str(tmp_path / "d"), *ARGS, timeout=900)
    assert done.returncode == 0, done.stderr
    info = json.loads((tmp_path / "d" / "build.json").read_text())
    assert info["judge"].startswith("not run: no --judge given")
    assert info["removed"] == {} and info["stages"]["kept"] == 3
    assert all(s["judge"] is None for s in read_jsonl(tmp_path / "d" / "samples.jsonl"))
    assert "judge: not run" in done.stdout


def test_judge_threshold_without_judge_is_a_usage_error(tmp_path):
    done = run_cli("build", "structure", "--out", str(tmp_path / "d"), *ARGS,
                   "--judge-threshold", "0.9", timeout=900)
    assert done.returncode == 2 and "--judge-threshold is for --judge" in done.stderr
    assert not (tmp_path / "d").exists()


def test_unusable_judge_stops_the_build(tmp_path):
    done = run_cli("build", "structure", "--out", str(tmp_path / "d"), *ARGS, "--judge",
                   "nosuch:model", timeout=900)
    assert done.returncode == 3 and "--judge" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "d").exists()


def _eval(data: Path, run: Path, *extra: str) -> tuple[list[tuple[int, int]], dict, str]:
    """Run eval of the model-written questions and image-to-code against a fake VLM
    answering each question with its gold answer (image-to-code: every sample's image
    is sent); (the sizes of the images it received, the run's manifest, what eval
    printed)."""
    tasks = [t for t in read_jsonl(data / "tasks.jsonl") if t["task"] == "model_question"]
    gold = {t["question"]: t["gold"] for t in tasks}
    assert len(gold) == len(tasks) >= 1  # told apart by their text
    sizes: list[tuple[int, int]] = []

    def seen(body: dict) -> None:
        for part in body["messages"][-1]["content"]:
            if part["type"] == "image_url":
                data64 = part["image_url"]["url"].split(",", 1)[1]
                sizes.append(Image.open(io.BytesIO(base64.b64decode(data64))).size)

    env = {**os.environ, "OPENAI_API_KEY": "k", "DIAGBENCH_CACHE": str(run.parent / "c.sq")}
    with FakeServer(reply=lambda p: str(gold.get(p, "digraph { a -> b }"))) as server:
        server.on_body = seen
        done = run_cli("eval", "structure", "--data", str(data), "--tasks",
                       "model_question,image_to_code", "--model",
                       f"openai:vlm@{server.base_url}", "--out", str(run), *extra, env=env,
                       timeout=900)
    assert done.returncode == 0, done.stderr
    return sizes, json.loads((run / "manifest.json").read_text()), done.stdout


def test_eval_sends_images_at_most_1024_px(judged, tmp_path):
    data, _ = judged
    samples = read_jsonl(data / "samples.jsonl")
    originals = {s["image"]: (s["width"], s["height"]) for s in samples}
    assert max(max(wh) for wh in originals.values()) > 1024  # one must be shrunk
    sizes, manifest, printed = _eval(data, tmp_path / "run")
    assert sizes and max(max(wh) for wh in sizes) == 1024
    assert manifest["models"][0]["parameters"]["image_policy"]["max_side"] == 1024
    scores = read_jsonl(tmp_path / "run" / "scores.jsonl")
    questions = [s for s in scores if s["task"] == "model_question"]
    written = [t for t in read_jsonl(data / "tasks.jsonl") if t["task"] == "model_question"]
    assert len(sizes) == len(scores) == len(written) + len(samples)
    assert questions and all(s["correct"] for s in questions)
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    types = summary["models"]["openai:vlm"]["model_question_types"]
    assert sum(v["n"] for v in types.values()) == len(written)
    assert all(v["accuracy"] == 100.0 for v in types.values())
    assert "model-written questions, accuracy % by answer type: " in printed
    assert "Model-written questions by answer type" in (tmp_path / "run" /
                                                       "report.html").read_text()


def test_eval_image_side_can_be_overridden(judged, tmp_path):
    data, _ = judged
    largest = max(max(s["width"], s["height"]) for s in read_jsonl(data / "samples.jsonl"))
    sizes, manifest, _ = _eval(data, tmp_path / "run", "--max-image-side", "2048")
    assert max(max(wh) for wh in sizes) == largest
    assert manifest["models"][0]["parameters"]["image_policy"]["max_side"] == 2048


#: A fake generating model: a low-complexity flowchart whose description states its
#: node count right, a medium one whose description states it wrong (6 drawn, 4 said).
FLOWCHARTS = {
    "low": ("The flowchart has three nodes, one after the other.",
            "digraph { start -> check; check -> done }"),
    "medium": ("It has 4 nodes.",
               "digraph { a -> b; a -> c; b -> d; b -> e; c -> f }"),
}


def _generator(prompt: str) -> str:
    if prompt.startswith("Given a code representation"):  # Fig. 10: no usable question
        return "I would ask about the nodes."
    description, code = FLOWCHARTS[re.search(r"of (low|medium) complexity", prompt).group(1)]
    return (f"Problem:\n\nI need a flowchart.\n\nFunctionality:\n\n{description}\n\n"
            f"Code:\n\n```\n{code}\n```\n\nAnswer:\n\nHere it is.\n")


def test_offline_judge_removes_a_description_that_miscounts(tmp_path):
    env = {**os.environ, "OPENAI_API_KEY": "k", "DIAGBENCH_CACHE": str(tmp_path / "c.sq")}
    out = tmp_path / "data"
    with FakeServer(reply=_generator) as server:
        done = run_cli("build", "structure", "--out", str(out), "--model",
                       f"openai:writer@{server.base_url}", "--categories", "flowchart",
                       "--languages", "dot", "--per-category", "2", "--complexity", "low,medium",
                       "--judge", "baseline:judge", env=env, timeout=900)
    assert done.returncode == 0, done.stderr
    info = json.loads((out / "build.json").read_text())
    assert info["removed"] == {BELOW: 1}
    assert info["rejected"][0]["id"] == "flowchart-dot-001"
    assert "states 4 nodes, the code has 6" in info["rejected"][0]["detail"]
    assert [s["id"] for s in read_jsonl(out / "samples.jsonl")] == ["flowchart-dot-000"]
    # the writer's reply to Fig. 10 is no question: dropped and counted, no task made
    assert info["questions"]["kept"] == 0
    assert info["questions"]["dropped"] == {"not one `User:` and one `Assistant:` part": 1}
    assert "model_question" not in info["tasks"]
