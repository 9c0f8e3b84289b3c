"""Shared fixtures: the real-world diagrams of ../shared/data and PlantUML renders of them."""

from __future__ import annotations

import re
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
