"""The locks (`locks/*.txt`, written by `scripts/lock.sh` with uv): every package pinned
exactly with its hashes, every requirement of `pyproject.toml` and `locks/*.in` met by
its pin, and `.venv` holding exactly `locks/main.txt`, as `scripts/setup.sh` installs it.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
LOCKS = ROOT / "locks"


def _entries(lock: Path) -> list[tuple[Requirement, list[str]]]:
    """The lock's requirements with their hashes (continuation lines joined)."""
    text = re.sub(r"\\\n", " ", lock.read_text())
    out = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        spec, *hashes = line.split(" --hash=")
        out.append((Requirement(spec.strip()), [h.strip() for h in hashes]))
    return out


def _pins(lock: Path) -> dict[str, Version]:
    """{name: version} of the lock's entries whose markers hold for this interpreter."""
    pins = {}
    for req, _ in _entries(lock):
        if req.marker is None or req.marker.evaluate():
            (spec,) = req.specifier
            pins[canonicalize_name(req.name)] = Version(spec.version)
    return pins


def _requirements(*sources: Path, extras: tuple[str, ...] = ()) -> list[Requirement]:
    """The requirements a lock was compiled from: pyproject's (with EXTRAS) and .in files."""
    reqs: list[str] = []
    for source in sources:
        if source.suffix == ".toml":
            project = tomllib.loads(source.read_text())["project"]
            reqs += project["dependencies"]
            for extra in extras:
                reqs += project["optional-dependencies"][extra]
        else:
            reqs += [line.split("#", 1)[0].strip() for line in source.read_text().splitlines()]
    return [Requirement(r) for r in reqs if r]


@pytest.mark.parametrize("lock", ["main.txt", "harness.txt"])
def test_every_lock_entry_is_one_exact_version_with_hashes(lock: str):
    entries = _entries(LOCKS / lock)
    assert len(entries) > 50
    for req, hashes in entries:
        (spec,) = req.specifier
        assert spec.operator == "==", req
        assert hashes and all(re.fullmatch(r"sha256:[0-9a-f]{64}", h) for h in hashes), req


@pytest.mark.parametrize(("lock", "sources", "extras"), [
    ("main.txt", ("../pyproject.toml", "tools.in"), ("dev", "ray")),
    ("harness.txt", ("../pyproject.toml", "harness.in"), ()),
])
def test_lock_meets_every_requirement_it_was_made_from(lock: str, sources: tuple[str, ...],
                                                        extras: tuple[str, ...]):
    pins = _pins(LOCKS / lock)
    for req in _requirements(*(LOCKS / s for s in sources), extras=extras):
        if req.marker is not None and not req.marker.evaluate():
            continue
        name = canonicalize_name(req.name)
        assert name in pins, f"{req} is not in locks/{lock}: run scripts/lock.sh"
        assert req.specifier.contains(pins[name], prereleases=True), \
            f"locks/{lock} pins {name}=={pins[name]}, outside {req}: run scripts/lock.sh"


def test_venv_holds_exactly_the_main_lock():
    if Path(sys.prefix).resolve() != (ROOT / ".venv").resolve():
        pytest.skip(f"not run from {ROOT / '.venv'} (scripts/setup.sh installs the lock there)")
    frozen = subprocess.run([sys.executable, "-m", "pip", "freeze", "--all",
                             "--exclude-editable"], capture_output=True, text=True, check=True)
    installed = {}
    for line in frozen.stdout.splitlines():
        name, _, version = line.partition("==")
        installed[canonicalize_name(name)] = Version(version)
    assert installed == _pins(LOCKS / "main.txt")
