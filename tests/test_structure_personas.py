"""Personas per domain (the bundled set, a user's folder, how `plan` draws them) and the
association distractors drawn as STRUDEL draws them."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from diagbench.benchmarks.personas import (
    APPLICATIONS,
    PersonaError,
    PersonaSet,
    bundled,
    read_folder,
)
from diagbench.benchmarks.structure.build import plan
from diagbench.benchmarks.structure.records import BuildInfo
from diagbench.languages import DOMAINS, category_named
from tests.cli import run_cli

ROOT = Path(__file__).resolve().parents[1]


def _folder(tmp_path: Path, **files: str) -> Path:
    for domain, text in files.items():
        (tmp_path / f"{domain.replace('_', '-')}.txt").write_text(text, encoding="utf-8")
    return tmp_path


# --- the bundled set -------------------------------------------------------------------

def test_every_domain_has_forty_distinct_personas_and_applications():
    assert set(APPLICATIONS) == {d.name for d in DOMAINS}
    for domain in APPLICATIONS:
        personas = bundled().of(domain)
        assert len(set(personas)) == len(personas) >= 40, domain
        assert len(set(APPLICATIONS[domain])) == len(APPLICATIONS[domain]) >= 6, domain
    # the personas of one domain are not another's
    assert not set(bundled().of("chemistry")) & set(bundled().of("software"))


def test_a_molecule_is_asked_for_by_a_chemistry_persona():
    samples = plan(["molecule", "class", "music"], ["smiles", "plantuml", "abc"], 3,
                   ["low"], seed=0)
    for s in samples:
        domain = category_named(s.category).domain
        assert s.persona in bundled().of(domain), s.id
        assert s.domain in APPLICATIONS[domain], s.id
    assert {s.category for s in samples} == {"molecule", "class", "music"}


# --- plan: without repetition while a domain's pool lasts, seeded ----------------------

def test_plan_draws_without_repetition_then_again(tmp_path):
    own = read_folder(_folder(tmp_path, chemistry="# three\nP1\n\nP2\nP3\n"))
    samples = plan(["molecule"], ["smiles"], 8, ["low", "high"], 1, own)
    drawn = [s.persona for s in samples]
    # each once while they last, then each once again (in an order of its own)
    assert sorted(drawn[:3]) == sorted(drawn[3:6]) == ["P1", "P2", "P3"]
    assert len(set(drawn[6:])) == 2
    assert [s.complexity for s in samples] == ["low", "high"] * 4


def test_categories_of_one_domain_share_its_pool(tmp_path):
    own = read_folder(_folder(tmp_path, chemistry="A\nB\nC\nD\n"))
    samples = plan(["molecule", "reaction"], ["smiles", "reaction-smiles"], 2, ["low"], 0, own)
    assert sorted(s.persona for s in samples) == ["A", "B", "C", "D"]


def test_plan_is_seeded():
    args = (["class", "molecule"], ["plantuml", "smiles"], 6, ["low", "medium"])
    first, again, other = plan(*args, seed=3), plan(*args, seed=3), plan(*args, seed=4)
    assert [(s.persona, s.domain) for s in first] == [(s.persona, s.domain) for s in again]
    assert [s.persona for s in first] != [s.persona for s in other]


# --- a user's persona set --------------------------------------------------------------

def test_a_repeated_persona_is_refused_with_its_line(tmp_path):
    folder = _folder(tmp_path, biology="# c\nAlice\nBob\nAlice\n")
    with pytest.raises(PersonaError, match=r"biology\.txt:4: the persona of line 2 again"):
        read_folder(folder)


def test_a_missing_domain_names_its_file(tmp_path):
    own = read_folder(_folder(tmp_path, biology="Alice\n"))
    with pytest.raises(PersonaError, match=r"no personas for the domain 'chemistry' "
                                           r"\(chemistry\.txt\)"):
        own.of("chemistry")
    with pytest.raises(PersonaError, match="not a folder"):
        read_folder(tmp_path / "absent")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(PersonaError, match="no persona files"):
        read_folder(empty)


def test_the_record_names_the_set_and_hashes_each_domain(tmp_path):
    own = read_folder(_folder(tmp_path, biology="# x\nAlice\nBob\n", chemistry="Carol\n"))
    record = own.record(["biology", "chemistry", "biology"])
    assert record == PersonaSet(str(tmp_path), {"biology": 2, "chemistry": 1},
                                {"biology": hashlib.sha256(b"Alice\nBob").hexdigest(),
                                 "chemistry": hashlib.sha256(b"Carol").hexdigest()})
    assert PersonaSet.from_json(record.to_json()) == record


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    return run_cli(*args, cwd=ROOT, env=env)


def test_build_with_a_folder_lacking_a_domain_stops_before_building(tmp_path):
    folder = tmp_path / "p"
    folder.mkdir()
    _folder(folder, software="Dana\n")
    done = _cli("build", "structure", "--model", "baseline:synth", "--categories",
                "chess-board", "--languages", "fen", "--personas", str(folder),
                "--out", str(tmp_path / "data"))
    assert done.returncode == 2, done.stderr
    assert "games-music.txt" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "data" / "build.json").exists()


def test_build_records_the_persona_set(tmp_path):
    folder = tmp_path / "p"
    folder.mkdir()
    _folder(folder, games_music="Erin\nFrank\nGrace\n")
    done = _cli("build", "structure", "--model", "baseline:synth", "--categories",
                "chess-board", "--languages", "fen", "--per-category", "3", "--personas",
                str(folder), "--out", str(tmp_path / "data"), "--allow-empty")
    assert done.returncode == 0, done.stderr
    info = json.loads((tmp_path / "data" / "build.json").read_text(encoding="utf-8"))
    hashed = hashlib.sha256(b"Erin\nFrank\nGrace").hexdigest()
    assert info["personas"] == {"name": str(folder), "counts": {"games-music": 3},
                                "sha256": {"games-music": hashed}}
    assert BuildInfo.from_json(info).personas == PersonaSet(str(folder), {"games-music": 3},
                                                            {"games-music": hashed})
    # a data set built before persona sets named its list in words: still read
    old = BuildInfo.from_json(info | {"personas": "diagbench's bundled list"})
    assert old.personas == "diagbench's bundled list"
    rows = [json.loads(line) for line in
            (tmp_path / "data" / "samples.jsonl").read_text(encoding="utf-8").splitlines()]
    assert rows and {r["persona"] for r in rows} <= {"Erin", "Frank", "Grace"}
    assert {r["domain"] for r in rows} <= set(APPLICATIONS["games-music"])


# --- association distractors as STRUDEL draws them -------------------------------------
# (its category table's contrary_personas / contrary_categories / exclude_domains; its
# assemble_dataset: persona own-or-NONE 1:1, caption own-or-NONE × easy-or-hard 1:1:1:1,
# problem and description yes 2 : no-easy 1 : no-hard 1)

SEEDS = range(60)


def test_contrary_personas_of_a_class_diagram_are_strudels():
    from diagbench.benchmarks.structure.distractors import contrary_personas

    # STRUDEL's class row: circuit hdl logic quantum mol tree dna neural chess music bpmn gantt
    assert contrary_personas("class", "e-commerce") == (
        "electrical-circuit", "digital-hardware", "propositional-logic", "quantum-circuit",
        "molecule", "reaction", "phylogenetic-tree", "dna-sequence", "rna-structure",
        "deep-learning", "chess-board", "music", "business-process", "gantt")
    # set in healthcare: no biologist's or chemist's persona (their exclude_domains)
    assert contrary_personas("class", "healthcare") == (
        "electrical-circuit", "digital-hardware", "propositional-logic", "quantum-circuit",
        "deep-learning", "chess-board", "music", "business-process", "gantt")


def test_contrary_categories_of_a_table_and_of_a_map():
    from diagbench.benchmarks.structure.distractors import contrary_categories

    # STRUDEL's table row: the ten domain-specific keys, sequence, component, state, mind
    assert contrary_categories("table") == (
        "electrical-circuit", "digital-hardware", "propositional-logic", "quantum-circuit",
        "molecule", "reaction", "phylogenetic-tree", "dna-sequence", "rna-structure",
        "deep-learning", "chess-board", "music", "sequence", "component", "state",
        "mind-map")
    # no row for maps: every category of another domain
    contrary = contrary_categories("map")
    assert "map" not in contrary and "class" in contrary and "music" in contrary


def test_persona_options_by_hand():
    import random

    from diagbench.benchmarks.structure.distractors import persona_options

    pools = {"class": ["Own", "C2"], "molecule": ["M"], "phylogenetic-tree": ["T"],
             "chess-board": ["K"], "music": ["U"], "electrical-circuit": ["E"],
             "sequence": ["S"]}
    golds = set()
    for seed in SEEDS:
        options, gold = persona_options("Own", "class", "healthcare", pools,
                                        random.Random(seed))
        golds.add(gold)
        if gold == "NONE":
            # the three contrary categories left (M and T are excluded for healthcare),
            # then the one other category not excluded (S); never its own category's C2
            assert sorted(options) == ["E", "K", "S", "U"]
        else:
            assert options["ABCD".index(gold)] == "Own"
            assert sorted(options) == ["E", "K", "Own", "U"]
    assert golds == {"A", "B", "C", "D", "NONE"}


def test_persona_options_fall_back_on_the_own_category_then_give_up():
    import random

    from diagbench.benchmarks.structure.distractors import persona_options

    alone = {"class": ["Own", "C2", "C3", "C4", "C5"]}
    for seed in SEEDS:
        options, gold = persona_options("Own", "class", "banking", alone, random.Random(seed))
        assert len(set(options)) == 4 and set(options) <= {"Own", "C2", "C3", "C4", "C5"}
        assert (gold == "NONE") == ("Own" not in options)
    assert persona_options("Own", "class", "banking", {"class": ["Own", "C2"]},
                           random.Random(0)) is None


def test_caption_options_easy_and_hard_by_hand():
    import random

    from diagbench.benchmarks.structure.distractors import caption_options

    # molecule's contrary categories hold music, chess and ER here; reaction and class
    # are not contrary to it (the fallback: class first, of another domain)
    pools = {"molecule": ["own", "m2"], "reaction": ["r"], "music": ["u"],
             "chess-board": ["k"], "er": ["e"], "class": ["c"]}
    seen = set()
    for seed in SEEDS:
        options, gold = caption_options("own", "molecule", pools, random.Random(seed))
        drawn = sorted(options)
        if gold == "NONE" and "m2" in options:
            seen.add("hard NONE")
            assert drawn == ["e", "k", "m2", "u"]
        elif gold == "NONE":
            seen.add("easy NONE")  # three contrary, the fourth of another domain
            assert drawn == ["c", "e", "k", "u"]
        elif "m2" in options:
            seen.add("hard")  # one of its own category, two contrary
            assert options["ABCD".index(gold)] == "own"
            assert len(set(drawn) & {"e", "k", "u"}) == 2
        else:
            seen.add("easy")
            assert drawn == ["e", "k", "own", "u"] and options["ABCD".index(gold)] == "own"
    assert seen == {"easy", "hard", "easy NONE", "hard NONE"}


def test_problem_match_texts_by_hand():
    import random

    from diagbench.benchmarks.structure.distractors import matched_text

    pools = {"class": ["P", "P2"], "music": ["Q"], "chess-board": ["K"]}
    kinds = {"own": 0, "same category": 0, "contrary": 0}
    for seed in range(400):
        text, own = matched_text("P", "class", pools, random.Random(seed))
        kind = "own" if text == "P" else "same category" if text == "P2" else "contrary"
        assert own == (kind == "own") and text in {"P", "P2", "Q", "K"}
        kinds[kind] += 1
    # 1/2, 1/4, 1/4 of 400 (seeded: the same counts every run)
    assert 160 <= kinds["own"] <= 240 and 70 <= kinds["same category"] <= 130
    assert 70 <= kinds["contrary"] <= 130
    # nothing else to show: its own text
    assert matched_text("P", "class", {"class": ["P"]}, random.Random(3)) == ("P", True)


def _sample(n: int, category: str, persona: str, domain: str):
    from diagbench.benchmarks.structure.records import StructureSample

    return StructureSample(f"s{n}", category, "x", "X", "low", persona, domain,
                           f"problem {n}", None, f"sources/s{n}.txt", True, category,
                           f"images/s{n}.png", 10, 10, "", 1, 1, {}, None, {}, None, None,
                           f"caption {n}")


def test_derive_asks_with_strudels_distractors():
    from diagbench.benchmarks.structure.tasks import derive

    samples = [_sample(0, "class", "Own", "healthcare"), _sample(1, "class", "C2", "banking"),
               _sample(2, "molecule", "M", "food chemistry"),
               _sample(3, "chess-board", "K", "chess coaching"),
               _sample(4, "music", "U", "composition"),
               _sample(5, "electrical-circuit", "E", "power electronics"),
               _sample(6, "sequence", "S", "travel")]
    for seed in range(8):
        tasks = {t.task: t for t in derive(samples, seed) if t.sample == "s0"}
        options = tasks["association"].options
        assert options is not None and set(options) - {"Own"} <= {"E", "K", "S", "U"}
        assert tasks["association"].question.count("\n(") == 4
        caption = tasks["caption_match"].options
        assert caption is not None and len(set(caption)) == 4
        assert tasks["problem_match"].gold in ("yes", "no")


# --- STRUDEL's per-category limits ------------------------------------------------------

def test_every_strudel_category_has_strudels_limit():
    from diagbench.benchmarks.structure.limits import STRUDEL_LIMITS, limits_of
    from diagbench.languages import category_names, languages_of

    # STRUDEL's 20 (its "mol" and "dna" rows are two categories each here) but the map,
    # which it sets no limit for; diagbench's own extra categories keep their language's
    assert set(STRUDEL_LIMITS) == set(category_names()) - {
        "map", "component", "usecase", "state", "flowchart"}
    for category in category_names():
        for language in languages_of(category):
            sources = {limit.source for limit in limits_of(category, language)}
            assert sources == {"STRUDEL" if category in STRUDEL_LIMITS else "language"}


def test_every_limit_bounds_a_measure_the_model_gives():
    """On an example of each category × FRL: a limit's measure missing would read 0 and
    remove every diagram of the category."""
    from diagbench.benchmarks.structure.counting import statistics
    from diagbench.benchmarks.structure.limits import STRUDEL_LIMITS, measures
    from diagbench.languages import languages_of, named

    for category, limits in STRUDEL_LIMITS.items():
        checked = 0
        kinds = category_named(category).kinds
        for language in languages_of(category):
            own = named(language)
            # the examples named after the category's kind first (fewer files read)
            for path in sorted(own.example_paths(),
                               key=lambda p: not any(k in p.name for k in kinds)):
                code = path.read_text(encoding="utf-8")
                parsed = own.read(code)
                if not parsed or parsed[0].kind not in kinds:
                    continue
                stats, counts = statistics(parsed[0], own.domain == "software")
                given = measures(counts, stats, code)
                for limit in limits:
                    for name in limit.of or (limit.count,):
                        assert any(k == name or (name.endswith(":") and k.startswith(name))
                                   for k in given), (category, language, name)
                checked += 1
                break
        assert checked, category


@pytest.mark.parametrize(("category", "counts", "why"), [
    ("class", {"entities": 15}, None),
    ("class", {"entities": 16}, "entities 16 > 15"),
    ("electrical-circuit", {"components": 12, "resistors": 10, "capacitors": 2}, None),
    ("electrical-circuit", {"components": 12, "resistors": 11, "capacitors": 1},
     "resistors 11 > 10"),
    ("electrical-circuit", {"components": 11, "bjts": 6, "mosfets": 5}, "transistors 11 > 10"),
    ("electrical-circuit", {"components": 0}, "components 0 < 1"),
    ("digital-hardware", {"cells": 20, "cells:$add": 15, "cells:$mux": 5}, None),
    ("digital-hardware", {"cells": 20, "cells:$add": 4, "cells:$mux": 16},
     "cells:$mux 16 > 15"),
    ("propositional-logic", {"gates": 13, "and_gates": 13}, "and_gates 13 > 12"),
    ("quantum-circuit", {"gates": 0, "measurements": 0, "resets": 0}, "operations 0 < 1"),
    ("quantum-circuit", {"gates": 40, "measurements": 13}, "measurements 13 > 12"),
    ("dna-sequence", {"sequences": 1, "positions": 1}, "sequences and positions 2 < 3"),
    ("dna-sequence", {"sequences": 3, "positions": 41}, "positions 41 > 40"),
    ("gantt", {"tasks": 30, "milestones": 6}, "time bars 36 > 35"),
    ("table", {"rows": 15, "columns": 5}, None),
    ("table", {"rows": 16, "columns": 5}, "rows and columns 21 > 20"),
    ("chart", {"traces": 1, "points": 21}, "marks 21 > 20"),
    ("chart", {"traces": 3, "points": 60}, None),  # three series
    ("chart", {"traces": 21, "points": 21}, "marks 21 > 20"),
])
def test_limits_by_hand(category, counts, why):
    from diagbench.benchmarks.structure.limits import limits_of, measures, outside
    from diagbench.languages import languages_of

    language = languages_of(category)[0]
    assert outside(limits_of(category, language), measures(counts, {}, ""), language) == why


def test_leaves_and_characters_are_measured():
    from diagbench.benchmarks.structure.limits import limits_of, measures, outside

    tree = {"entities": {"internal": 24, "leaf": 26}, "relations": {"branch": 49}}
    assert measures({"entities": 50}, tree, "")["entities:leaf"] == 26
    assert outside(limits_of("phylogenetic-tree", "newick"), measures({}, tree, ""),
                   "newick") == "entities:leaf 26 > 25"
    assert outside(limits_of("molecule", "smiles"), measures({}, {}, " C\n"), "smiles") == \
        "characters 1 < 2"
    assert outside(limits_of("molecule", "smiles"), measures({}, {}, "CO"), "smiles") is None
    reaction = "CC(=O)O.OCC>>CC(=O)OCC"  # 22 characters
    assert outside(limits_of("reaction", "reaction-smiles"), measures({}, {}, reaction[:13]),
                   "reaction-smiles") == "characters 13 < 14"


def test_paper_cells_plan_strudels_own_category_frl_pairs():
    """STRUDEL's Table 1: 22 of diagbench's categories, each in its own FRL (class in
    PlantUML, not Mermaid; ER in DBML, not Mermaid), every pair one diagbench draws."""
    from diagbench.benchmarks.structure.taxonomy import PAPER_CELLS
    from diagbench.languages import category_names, languages_of, names

    assert all(set(frls) <= set(languages_of(c)) for c, frls in PAPER_CELLS.items())
    samples = plan(list(category_names()), list(names()), 1, ["low"], 0, cells=PAPER_CELLS)
    pairs = {(s.category, s.language) for s in samples}
    assert len(samples) == len(pairs) == 22
    assert ("class", "plantuml") in pairs and ("class", "mermaid") not in pairs
    assert ("er", "dbml") in pairs and ("er", "mermaid") not in pairs
    assert ("gantt", "mermaid") in pairs and not {"component", "usecase", "state",
                                                  "flowchart"} & {c for c, _ in pairs}


def test_build_with_paper_cells_records_them(tmp_path):
    """build.json records the FRLs each category was drawn in; an FRL drawing none of
    STRUDEL's pairs asked for, or no category of STRUDEL's, is refused before building."""
    done = _cli("build", "structure", "--model", "baseline:synth", "--categories",
                "class,component", "--paper-cells", "--per-category", "1",
                "--out", str(tmp_path / "data"), "--allow-empty")
    assert done.returncode == 0, done.stderr
    info = json.loads((tmp_path / "data" / "build.json").read_text(encoding="utf-8"))
    assert (info["cells"], info["categories"]) == ({"class": ["plantuml"]}, ["class"])
    assert info["stages"]["planned"] == 1
    mermaid = _cli("build", "structure", "--model", "baseline:synth", "--categories",
                   "class", "--languages", "plantuml,mermaid", "--paper-cells",
                   "--out", str(tmp_path / "mermaid"))
    assert mermaid.returncode == 2, mermaid.stderr
    assert "--languages mermaid: draws none of --categories class" in mermaid.stderr
    refused = _cli("build", "structure", "--model", "baseline:synth", "--categories",
                   "component,state", "--paper-cells", "--out", str(tmp_path / "other"))
    assert refused.returncode == 2 and "--paper-cells" in refused.stderr, refused.stderr
    assert "Traceback" not in refused.stderr and not (tmp_path / "other").exists()


def test_a_build_shows_each_stages_progress_as_lines_off_a_terminal(tmp_path):
    """Off a terminal each stage of a build of 21 samples writes progress lines on
    stderr: the diagrams written, read, rendered, judged, then the questions and the
    captions asked; standard output keeps the summary only."""
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin",
           "DIAGBENCH_PROGRESS_SECONDS": "0"}
    done = subprocess.run(
        [sys.executable, "-m", "diagbench", "build", "structure", "--model", "baseline:synth",
         "--judge", "baseline:judge", "--categories", "class", "--languages", "plantuml",
         "--per-category", "21", "--out", str(tmp_path / "data"), "--allow-empty"],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    import re

    finished = [re.match(r"(.+): (\d+)/(\d+) \(100 %\), .*, in ", line)
                for line in done.stderr.splitlines()]
    stages = [m[1] for m in finished if m]
    assert [m[2] for m in finished if m][:3] == ["21", "21", "21"]
    assert stages == ["baseline:synth: writing diagrams", "reading", "rendering",
                      "baseline:judge: judging"] + [
        f"baseline:synth: asking {what}" for what in ("questions", "captions")], stages
    assert "reading" not in done.stdout


def test_a_cell_of_600_asks_no_prompt_twice():
    """600 molecules, 60 chemistry personas, 8 applications, 3 levels: no persona meets
    the same application at the same level twice (a random application did so in 1 of 6
    samples, and the same prompt gets the same answer from baseline:synth)."""
    samples = plan(["molecule"], ["smiles"], 600, ["low", "medium", "high"], 0)
    prompts = Counter((s.complexity, s.persona, s.domain) for s in samples)
    assert len(samples) == 600 and max(prompts.values()) == 1
