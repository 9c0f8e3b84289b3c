"""The personas and domains of application that seed generated samples (paper 004 §3.1:
"domain-specific persona descriptions as seed", "a domain as an input signal").

Each of STRUDEL's eight domains (`diagbench.languages.DOMAINS`) has its own personas —
a sample of a category is written for a persona of its category's domain, so that a
molecule is asked for by a chemist and a class diagram by a software engineer — and
its own domains of application, one of which is set in each prompt. diagbench bundles a
persona set written for it (`personas_bundled/<domain>.txt`, Apache-2.0 like the rest;
STRUDEL's are drawn from PersonaHub-style data, 25,000 per category, not shipped).

A user brings their own set as a folder of the same files (`<domain>.txt`, one persona a
line, `#` lines are comments): `read_folder(DIR)`, given to `build structure` as
`--personas DIR`; a domain without a file there has no personas, and a build that
needs it stops with an error naming the file. The build records which set it used
(`PersonaSet`: its name, and per domain the count and a hash of the personas).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from diagbench.records import Record

#: The domains of application a prompt names, per STRUDEL domain (the categories of
#: system modelling and business are domain-agnostic, §3.1: the domain steers their
#: content; baseline:synth has a vocabulary of each of those two domains' entries).
APPLICATIONS: dict[str, tuple[str, ...]] = {
    "software": ("e-commerce", "healthcare", "banking", "education", "logistics", "travel",
                 "manufacturing", "streaming"),
    "business": ("logistics", "manufacturing", "banking", "insurance", "hospitality",
                 "construction", "e-commerce", "healthcare"),
    "chemistry": ("pharmaceutical research", "polymer materials", "food chemistry",
                  "environmental analysis", "agrochemicals", "cosmetics formulation",
                  "battery materials", "teaching laboratories"),
    "biology": ("evolutionary studies", "microbiology", "genomics", "conservation",
                "virology", "plant breeding", "molecular diagnostics", "marine biology"),
    "geography": ("urban planning", "hydrology", "disaster response", "transport planning",
                  "agriculture", "tourism", "environmental monitoring", "school geography"),
    "games-music": ("chess coaching", "tournament analysis", "music education",
                    "folk music archiving", "composition", "game commentary",
                    "choir practice", "puzzle books"),
    "engineering": ("power electronics", "embedded systems", "FPGA prototyping",
                    "quantum computing research", "audio electronics",
                    "automotive electronics", "digital logic teaching", "telecommunications"),
    "computer-science": ("computer vision", "natural language processing", "semantic web",
                         "recommender systems", "linked open data", "robotics",
                         "medical imaging", "digital libraries"),
}
BUNDLED = "diagbench"


class PersonaError(ValueError):
    """A persona set that cannot be used: a line repeated, or no personas for a domain a
    build needs (the message names the file)."""


@dataclass(frozen=True, slots=True)
class PersonaSet(Record):
    """Which personas a build drew from (build.json): the set's `name` ("diagbench" for
    the bundled one, else the folder given), and per domain the number of personas and
    the sha256 of their text (one a line, in order)."""

    name: str
    counts: dict[str, int]
    sha256: dict[str, str]


@dataclass(frozen=True, slots=True)
class Personas:
    """A persona set: its name and its personas per domain, in file order."""

    name: str
    by_domain: Mapping[str, tuple[str, ...]]

    def of(self, domain: str) -> tuple[str, ...]:
        """The personas of `domain`; a `PersonaError` when there are none."""
        found = self.by_domain.get(domain, ())
        if not found:
            raise PersonaError(f"persona set {self.name}: no personas for the domain "
                               f"{domain!r} ({domain}.txt)")
        return found

    def record(self, domains: list[str]) -> PersonaSet:
        """What build.json records of the `domains` used."""
        used = list(dict.fromkeys(domains))
        return PersonaSet(self.name, {d: len(self.of(d)) for d in used},
                          {d: hashlib.sha256("\n".join(self.of(d)).encode()).hexdigest()
                           for d in used})


def parse(text: str, where: str) -> tuple[str, ...]:
    """The personas of one file's `text` (`where` names it in errors): one a line,
    blank and `#` lines skipped; a repeated persona is a `PersonaError`."""
    out: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        persona = line.strip()
        if not persona or persona.startswith("#"):
            continue
        if persona in out:
            raise PersonaError(f"{where}:{number}: the persona of line {out[persona]} again")
        out[persona] = number
    return tuple(out)


@cache
def bundled() -> Personas:
    """diagbench's own persona set (the `personas_bundled/<domain>.txt` files)."""
    here = resources.files("diagbench.benchmarks").joinpath("personas_bundled")
    return Personas(BUNDLED, {d: parse(here.joinpath(f"{d}.txt").read_text(encoding="utf-8"),
                                       f"{d}.txt") for d in APPLICATIONS})


def read_folder(folder: Path) -> Personas:
    """A user's persona set: `folder`'s `<domain>.txt` files (a domain without a file has
    no personas); a `PersonaError` when the folder does not exist or holds none."""
    if not folder.is_dir():
        raise PersonaError(f"{folder}: not a folder of persona files (<domain>.txt)")
    found = {d: parse(path.read_text(encoding="utf-8", errors="replace"), str(path))
             for d in APPLICATIONS if (path := folder / f"{d}.txt").is_file()}
    if not any(found.values()):
        raise PersonaError(f"{folder}: no persona files; expected any of "
                           + ", ".join(f"{d}.txt" for d in APPLICATIONS))
    return Personas(str(folder), found)
