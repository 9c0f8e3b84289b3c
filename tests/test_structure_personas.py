"""Personas per domain (the bundled set, a user's folder, how `plan` draws them) and the
association distractors drawn as STRUDEL draws them."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
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
from diagbench.languages import DOMAINS, category_named

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

def test_plan_draws_without_repetition_then_cycles(tmp_path):
    own = read_folder(_folder(tmp_path, chemistry="# three\nP1\n\nP2\nP3\n"))
    samples = plan(["molecule"], ["smiles"], 5, ["low", "high"], 1, own)
    drawn = [s.persona for s in samples]
    assert sorted(drawn[:3]) == ["P1", "P2", "P3"]  # each once while they last
    assert drawn[3:] == drawn[:2]  # then the same order again
    assert [s.complexity for s in samples] == ["low", "high", "low", "high", "low"]


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
    return subprocess.run([sys.executable, "-m", "diagbench", *args], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=600)


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
    assert info["personas"] == {
        "name": str(folder), "counts": {"games-music": 3},
        "sha256": {"games-music": hashlib.sha256(b"Erin\nFrank\nGrace").hexdigest()}}
    rows = [json.loads(line) for line in
            (tmp_path / "data" / "samples.jsonl").read_text(encoding="utf-8").splitlines()]
    assert rows and {r["persona"] for r in rows} <= {"Erin", "Frank", "Grace"}
    assert {r["domain"] for r in rows} <= set(APPLICATIONS["games-music"])
