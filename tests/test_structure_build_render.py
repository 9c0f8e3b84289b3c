"""The render stage of `build structure`: a build killed while drawing, run again,
draws only the chunks it had not finished and writes the same data set as a build
never interrupted; timings.json counts each engine's samples; the tasks of many
samples are numbered per sample and offer the personas of the other samples."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from diagbench.benchmarks.registry import registered
from diagbench.benchmarks.structure import build
from diagbench.benchmarks.structure.records import StructureSample, generator_settings
from diagbench.benchmarks.structure.tasks import derive

CATEGORIES = ["flowchart", "knowledge-graph"]  # drawn by dot: quick to start
LANGUAGES = ["dot", "rdf"]


def _build(out: Path) -> None:
    registered()  # baseline:synth
    settings = generator_settings("baseline:synth", 0.7, 4096, 0)
    build.build_structure(out, settings, CATEGORIES, LANGUAGES, 2, ["low", "medium"], 0)


def _files(root: Path) -> dict[str, str]:
    """Every file of the data set but its timings and the models' responses (each with
    its latency): its sha256."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and p.name != "timings.json"
            and p.parent.name != "generation"}


class Killed(BaseException):
    """Stands for the build's process being killed while an engine draws."""


def test_a_killed_build_run_again_redraws_only_what_it_had_not_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(build, "CHUNK", 1)  # 4 samples: 4 chunks, 2 per engine
    _build(tmp_path / "whole")
    timings = json.loads((tmp_path / "whole" / "timings.json").read_text())
    assert {k: v["samples"] for k, v in timings["engines"].items()} == \
        {"graphviz": 2, "rdf-graphviz": 2}

    draw = build._draw_chunk
    calls: list[str] = []

    def killed_at_the_third(*args, **kwargs):
        calls.append(args[3])
        if len(calls) == 3:
            raise Killed
        return draw(*args, **kwargs)

    monkeypatch.setattr(build, "_draw_chunk", killed_at_the_third)
    with pytest.raises(Killed):
        _build(tmp_path / "again")
    kept = sorted(p.stem for p in (tmp_path / "again" / ".rendered").glob("*.json"))
    assert len(kept) >= 2 and calls[2] not in kept  # the third was not kept

    calls.clear()
    monkeypatch.setattr(build, "_draw_chunk", lambda *a, **k: (calls.append(a[3]),
                                                                draw(*a, **k)))
    _build(tmp_path / "again")
    assert len(calls) == 4 - len(kept) and not set(calls) & set(kept)
    assert not (tmp_path / "again" / ".rendered").exists()
    files = _files(tmp_path / "again")
    assert files == _files(tmp_path / "whole")
    assert {"samples.jsonl", "tasks.jsonl", "build.json"} <= set(files)
    assert sum(name.startswith("images/") for name in files) == 4


def _sample(n: int, persona: str) -> StructureSample:
    return StructureSample(f"s{n}", "class", "plantuml", "PlantUML", "low", persona, "retail",
                           None, None, f"sources/s{n}.txt", False, "class",
                           f"images/s{n}.png", 10, 10, "", 1, 1, {}, None, {}, None, None,
                           None)


def test_each_sample_numbers_its_own_tasks_and_is_offered_the_others_personas():
    samples = [_sample(n, persona) for n, persona in enumerate("ABCDEA")]
    tasks = derive(samples, 0)
    for s in samples:
        own = [t.id for t in tasks if t.sample == s.id]
        assert own == [f"{s.id}/association/0", f"{s.id}/image_to_code/1"]
    for t in (t for t in tasks if t.task == "association"):
        persona = next(s.persona for s in samples if s.id == t.sample)
        assert t.options is not None and len(set(t.options)) == 4
        # the options are four of the other personas, one replaced by the sample's own
        # unless the gold is NONE
        others = set(t.options) - {persona}
        assert others <= set("ABCDE") - {persona}
        assert (t.gold == "NONE") == (persona not in t.options)
