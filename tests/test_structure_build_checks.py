"""`build structure` loses no category and doubles no task: options that cannot make a
pair are refused, the offline writer's tunes pass the filters at every complexity,
baseline:synth writes a model question in every science category, and a task repeated
(same image, prompt and gold) is dropped and counted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from diagbench.benchmarks.structure.records import StructureTask
from diagbench.benchmarks.structure.tasks import without_duplicates
from tests.cli import run_cli


def test_a_category_without_any_of_the_languages_is_refused(tmp_path):
    done = run_cli("build", "structure", "--model", "baseline:synth", "--out",
                   str(tmp_path / "d"), "--categories", "class", "--languages", "fen", timeout=900)
    assert done.returncode == 2
    assert "--categories class: none of --languages fen draws it (its FRLs: plantuml, " \
           "mermaid)" in done.stderr
    assert not (tmp_path / "d").exists()
    unused = run_cli("build", "structure", "--model", "baseline:synth", "--out",
                     str(tmp_path / "d"), "--categories", "class", "--languages", "plantuml,fen",
                     timeout=900)
    assert unused.returncode == 2
    assert "--languages fen: draws none of --categories class" in unused.stderr


def test_an_engine_that_cannot_run_stops_the_build_before_any_sample(tmp_path):
    """Without Node on the PATH Mermaid cannot draw: the build says which engine, for
    which FRL and why, exits 3 and has written no sample (it was found 30 minutes into a
    14,400-sample build, as an internal error)."""
    import os

    env = {k: v for k, v in os.environ.items() if k != "PATH"} | {"PATH": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "diagbench", "build", "structure", "--model", "baseline:synth",
         "--out", str(tmp_path / "d"), "--categories", "gantt", "--languages", "mermaid"],
        capture_output=True, text=True, timeout=900, env=env)
    assert done.returncode == 3, done.stderr
    assert "the engine mermaid of --languages mermaid cannot run here: " in done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert not (tmp_path / "d" / "generation").exists()


def test_every_science_category_keeps_its_samples_and_model_questions(tmp_path):
    """Music at each complexity (a low tune on one line was 7.6 times as wide as high, a
    medium one 4.3: both removed by the [0.25, 4] filter), and a model-written question
    for each sample of the categories whose questions were empty ("User:")."""
    out = tmp_path / "d"
    categories = "music,reaction,dna-sequence,rna-structure,map,chess-board"
    done = run_cli("build", "structure", "--model", "baseline:synth", "--out", str(out),
                   "--categories", categories, "--per-category", "3", timeout=900)
    assert done.returncode == 0, done.stderr
    info = json.loads((out / "build.json").read_text())
    # every generated diagram within STRUDEL's limits (an RNA structure ≤ 100 bases)
    assert info["kept"] == {"music|abc": 3, "reaction|reaction-smiles": 3,
                            "dna-sequence|fasta": 3, "rna-structure|dotbracket": 3,
                            "map|geojson": 3, "chess-board|fen": 3}
    assert info["filters"]["node limits"] == 0
    samples = [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()]
    music = sorted(s["complexity"] for s in samples if s["category"] == "music")
    assert music == ["high", "low", "medium"]
    assert (info["questions"]["asked"], info["questions"]["kept"]) == (18, 18)
    assert all(s["model_question"] and s["model_question"]["question"] for s in samples)
    assert "warning" not in done.stdout


def _task(number: int, question: str, gold: int, image: str = "images/a.png"
          ) -> StructureTask:
    return StructureTask(f"a/t/{number}", "a", "structural", "class", "plantuml",
                         "PlantUML", image, question, gold)


def test_a_task_asked_twice_is_dropped_and_counted():
    tasks = [_task(0, "How many?", 3), _task(1, "How many?", 3),  # the same: dropped
             _task(2, "How many?", 4),  # another gold: kept
             _task(3, "How many?", 3, "images/b.png"),  # another image: kept
             _task(4, "How many?", 3)]  # the same again: dropped
    kept, dropped = without_duplicates(tasks)
    assert [t.id for t in kept] == ["a/t/0", "a/t/2", "a/t/3"] and dropped == 2


def test_a_full_build_keeps_every_category_and_repeats_no_task(tmp_path: Path):
    out = tmp_path / "d"
    done = run_cli("build", "structure", "--model", "baseline:synth", "--out", str(out),
                   "--per-category", "2", timeout=900)
    assert done.returncode == 0, done.stderr
    info = json.loads((out / "build.json").read_text())
    assert all(n >= 1 for n in info["kept"].values()), info["kept"]
    assert {cell.split("|")[0] for cell in info["kept"]} >= {"music", "chess-board"}
    tasks = [json.loads(line) for line in (out / "tasks.jsonl").read_text().splitlines()]
    keys = [(t["image"], t["question"], json.dumps(t["gold"])) for t in tasks]
    assert len(keys) == len(set(keys)) and info["duplicate_tasks"] > 0
    assert f"duplicate tasks dropped (same image, prompt and gold): " \
           f"{info['duplicate_tasks']}" in done.stdout
    for cell, n in info["kept"].items():
        if n < 2:
            assert f"warning: {cell.replace('|', ' × ')}: {n} of 2 samples kept" in done.stdout


def test_a_cell_the_filters_empty_fails_the_build_unless_allowed(tmp_path):
    """One medium PlantUML state diagram a build: some seeds draw one taller than four
    times its width (seed 1 with this diagbench), which the aspect-ratio filter removes,
    leaving the cell empty: exit 1 naming it; --allow-empty: exit 0 with a warning."""
    args = ("build", "structure", "--model", "baseline:synth", "--categories", "state",
            "--languages", "plantuml", "--per-category", "1", "--complexity", "medium")
    for seed in range(8):
        done = run_cli(*args, "--seed", str(seed), "--out", str(tmp_path / f"s{seed}"), timeout=900)
        if done.returncode != 0:
            break
    assert done.returncode == 1, "no seed of 8 left the cell empty"
    assert "diagbench: error: no sample kept for state × plantuml (the filters removed " \
           "every one" in done.stderr
    assert "kept 0" in done.stdout  # the build's lines are printed all the same
    allowed = run_cli(*args, "--seed", str(seed), "--out", str(tmp_path / "allowed"),
                      "--allow-empty", timeout=900)
    assert allowed.returncode == 0, allowed.stderr
    assert "warning: state × plantuml: no sample kept (--allow-empty)" in allowed.stdout


def test_image_to_code_is_reported_in_each_languages_own_measures():
    """A FEN board with its white pawn pushed one square: 62 of 64 squares right
    (0.96875), not the gold board (exact 0); the report words each language's score by
    its own similarity, not the software diagrams' entity and relation F1."""
    from diagbench.benchmarks.structure.report import similarity_words
    from diagbench.benchmarks.structure.scoring import own_parts
    from diagbench.languages import named

    gold = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    moved = "4k3/8/8/8/8/4P3/8/4K3 w - - 0 1"
    assert own_parts(named("fen").compare_code(gold, moved, True)) == {"accuracy": 0.96875,
                                                                  "exact": 0.0}
    assert own_parts(named("fen").compare_code(gold, gold, True)) == {"accuracy": 1.0,
                                                                 "exact": 1.0}
    assert "64 squares" in similarity_words("fen")
    assert "entity" not in similarity_words("fen")
    assert "which entities and which relations" in similarity_words("plantuml")


def test_reading_shows_progress_while_the_boards_are_searched(monkeypatch):
    """The boards' searches are worked out part by part (`FACTS_AHEAD` at a time), so
    the reading stage's progress moves while Stockfish searches (it sat still for
    minutes before: every board was searched before the first sample counted)."""
    import random

    from diagbench.benchmarks.structure import build
    from diagbench.benchmarks.structure.planned import Planned
    from diagbench.languages import named
    from diagbench.languages.fen import facts

    fen = named("fen")
    searched: list[int] = []
    search = facts.search_ahead
    monkeypatch.setattr(facts, "search_ahead", lambda boards: (
        searched.append(len(boards)), search(boards))[1])
    monkeypatch.setattr(build, "FACTS_AHEAD", 2)
    boards = [Planned(f"chess-board-fen-{k:03d}", "chess-board", "fen", "low", "", "",
                      code=fen.generate(random.Random(k), "low")) for k in range(5)]
    shown: list[int] = []
    build.read_all(boards, lambda: shown.append(sum(searched)))
    assert searched == [2, 2, 1]
    # each sample counted once its own part was searched, before the next part
    assert shown == [2, 2, 4, 4, 5]
    assert all(b.facts for b in boards)
