"""Shared fixtures: the real-world diagrams of ../shared/data and PlantUML renders of them."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from tests.sizes import FULL

# bounded runs repeat (one seed per test); full runs explore (tests/sizes.py)
settings.register_profile("bounded", derandomize=True, database=None)
settings.register_profile("full")
settings.load_profile("full" if FULL else "bounded")

REPO = Path(__file__).resolve().parents[1]
REALWORLD = REPO.parent / "shared" / "data" / "realworld"


def realworld_files() -> list[Path]:
    """Every PlantUML source under ../shared/data/realworld, sorted."""
    if not REALWORLD.is_dir():
        raise RuntimeError(f"{REALWORLD} is missing: tests need ../shared beside the repo")
    return sorted(p for p in REALWORLD.rglob("*") if p.suffix in (".puml", ".plantuml"))


def svg_counts(svg: str) -> tuple[str | None, int, int]:
    """(diagram type, participant heads, messages) as PlantUML drew them."""
    kind = re.search(r'data-diagram-type="(\w+)"', svg)
    return (
        kind.group(1) if kind else None,
        svg.count('<g class="participant participant-head"'),
        svg.count('<g class="message"'),
    )


@pytest.fixture(scope="session")
def realworld_sources() -> list[tuple[Path, str]]:
    return [(p, p.read_text(encoding="utf-8")) for p in realworld_files()]


@pytest.fixture(scope="session")
def domains_data(tmp_path_factory) -> Path:
    """One offline structure build over every category outside software (3 samples a
    category and FRL, judged), with its counterfactual, style and capture twins: shared
    by tests/test_structure_domains.py and tests/test_structure_twins.py."""
    from diagbench.languages import CATEGORIES, languages_of

    science = [c.name for c in CATEGORIES if c.domain != "software"]
    out = tmp_path_factory.mktemp("domains") / "data"
    languages = sorted({name for c in science for name in languages_of(c)})
    done = subprocess.run(
        [sys.executable, "-m", "diagbench", "build", "structure", "--out", str(out),
         "--model", "baseline:synth", "--categories", ",".join(science),
         "--languages", ",".join(languages), "--per-category", "3", "--seed", "3",
         "--judge", "baseline:judge", "--twins", "counterfactual,style,capture"],
        capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stderr
    return out
