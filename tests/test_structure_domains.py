"""The structure benchmark over every category outside software (chemistry, biology,
geography, games and music …), offline with baseline:synth: each category's samples are
written by its language's own generator, drawn by its engine with the counts its reader
gives, asked its language's facts (or, for a language without facts, the templates over
its graph or sequence model), and scored; with its twins (`domains_data` in conftest.py:
one build, shared with tests/test_structure_twins.py), whose tasks are checked the same
way. New categories of the language table are covered as they come."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from diagbench.benchmarks.structure.counting import statistics
from diagbench.benchmarks.structure.limits import limits_of, measures, outside
from diagbench.benchmarks.structure.templates import asked_facts
from diagbench.languages import CATEGORIES, named
from tests.cli import read_jsonl

SCIENCE = [c.name for c in CATEGORIES if c.domain != "software"]


@pytest.fixture(scope="module")
def data(domains_data: Path) -> Path:
    return domains_data


def test_every_category_keeps_samples_drawn_as_read(data: Path):
    samples = [s for s in read_jsonl(data / "samples.jsonl") if "twin" not in s]
    # the offline judge reads each description against what the reader counts
    verdicts = json.loads((data / "build.json").read_text(encoding="utf-8"))["judge"]["verdicts"]
    assert verdicts["true"] == len(samples) and verdicts["call_error"] == 0
    kept = defaultdict(list)
    for s in samples:
        kept[s["category"]].append(s)
    assert set(kept) == set(SCIENCE)
    for s in samples:
        # the engine drew what the reader counts (every count both give)
        assert s["drawn"], s["id"]
        assert all(s["counts"][k] == v for k, v in s["drawn"].items()), s["id"]
        # inside its category's node limits (STRUDEL's, else its language's)
        limits = limits_of(s["category"], s["language"])
        code = (data / s["code"]).read_text(encoding="utf-8")
        assert outside(limits, measures(s["counts"], s["statistics"], code),
                       s["language"]) is None, s["id"]


def test_every_category_is_asked_its_languages_facts(data: Path):
    samples = {s["id"]: s for s in read_jsonl(data / "samples.jsonl")}
    tasks = read_jsonl(data / "tasks.jsonl")
    by_category = defaultdict(set)
    for t in tasks:
        by_category[t["category"]].add(t["task"])
    for category in SCIENCE:
        assert {"identification", "quantification", "image_to_code"} <= by_category[category], \
            category
    # list-valued facts are asked, as sets: a molecule's elements, a reaction's product
    # elements, a clade's leaves, a logo's conserved positions
    asked_sets = {t["category"] for t in tasks if t.get("answer_type") == "set"}
    assert {"molecule", "reaction", "phylogenetic-tree", "dna-sequence"} <= asked_sets
    read: dict[str, tuple] = {}  # each sample's code read once: (model, facts)
    for t in tasks:
        if t["task"] not in ("identification", "quantification", "structural"):
            continue
        s = samples[t["sample"]]
        language = named(s["language"])
        if s["id"] not in read:
            code = (data / s["code"]).read_text(encoding="utf-8")
            [parsed] = language.read(code)[:1]
            stats = statistics(parsed, language.domain == "software")[0]
            read[s["id"]] = parsed, {f.question: f.answer
                                     for f in asked_facts(language, parsed, stats).facts}
        parsed, facts = read[s["id"]]
        question = t["question"].rsplit("\n", 1)[0]
        # the fact's own answer, as the task's gold (yes/no for a truth value, a list
        # for a set)
        assert question in facts, (t["id"], question)
        answer = facts[question]
        expected = ("yes" if answer else "no") if isinstance(answer, bool) else \
            list(answer) if isinstance(answer, tuple) else answer
        assert t["gold"] == expected, t["id"]
        assert (t["answer_type"] == "set") == isinstance(answer, tuple), t["id"]
        # no software counting question ("boxes or nodes") for a language with facts
        if language.facts(parsed.diagram):
            assert "boxes or nodes" not in t["question"], t["id"]


def test_eval_scores_every_category(data: Path, tmp_path: Path):
    out = tmp_path / "run"
    done = subprocess.run(
        [sys.executable, "-m", "diagbench", "eval", "structure", "--data", str(data),
         "--out", str(out), "--model", "baseline:synth"],
        capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stderr
    scores = read_jsonl(out / "scores.jsonl")
    assert {s["category"] for s in scores} == set(SCIENCE)
    assert all(s["status"] == "ok" for s in scores)
    # the image-to-code task is scored by the language's own similarity (0: the blind
    # baseline writes PlantUML)
    assert {s["category"] for s in scores if s["task"] == "image_to_code"} == set(SCIENCE)
