"""The samples of a codegen run (paper 004 §4.1): for each category, `per_category`
personas of its domain's bundled list (`diagbench.benchmarks.personas`; seeded, without
repetition while it lasts), each with a domain of application of that domain; each
persona asked for every FRL of the category at every complexity level, with every
prompting approach."""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import asdict
from typing import Any, cast

from diagbench.benchmarks.personas import APPLICATIONS, bundled
from diagbench.benchmarks.synthesis import PROMPTINGS, Prompting, Signals, template_hash
from diagbench.languages import category_named, languages_of, named


def group_of(s: Signals) -> str:
    """The seed a sample shares with the other levels of its persona and FRL (the id is
    `GROUP.COMPLEXITY.PROMPTING`)."""
    return s.id.split(".")[0]


def plan(categories: list[str], languages: list[str], per_category: int,
         complexities: list[str], promptings: list[str], seed: int) -> list[Signals]:
    """Every sample to generate, in a fixed order, seeded."""
    unknown = [p for p in promptings if p not in PROMPTINGS]
    if unknown:
        raise ValueError(f"no prompting approach {unknown[0]!r}")
    rng = random.Random(seed)
    pools: dict[str, list[str]] = {}
    out = []
    for category in categories:
        frls = [lang for lang in languages_of(category) if lang in languages]
        home = category_named(category).domain
        if home not in pools:
            pools[home] = list(bundled().of(home))
            rng.shuffle(pools[home])
        pool = pools[home]
        for n in range(per_category if frls else 0):
            persona = pool.pop(0)
            pool.append(persona)
            domain = rng.choice(APPLICATIONS[home])
            for language in frls:
                for complexity in complexities:
                    for prompting in promptings:
                        out.append(Signals(f"{category}-{language}-{n:03d}.{complexity}."
                                           f"{prompting}", category, language, complexity,
                                           persona, domain, cast(Prompting, prompting)))
    return out


def plan_manifest(samples: list[Signals]) -> dict[str, Any]:
    """What the manifest records about the plan: its size, a hash of every sample's
    signals, the hash of each prompting approach's templates, and the version of each
    rendering engine that checks the codes."""
    from diagbench.languages import make_engine

    text = json.dumps([asdict(s) for s in samples], ensure_ascii=False, sort_keys=True)
    engines = sorted({named(s.language).engine for s in samples})
    return {"samples": len(samples),
            "dataset_hash": hashlib.sha256(text.encode()).hexdigest()[:16],
            "prompt_template_hashes": {p: template_hash(p)
                                       for p in dict.fromkeys(s.prompting for s in samples)},
            "tools": {name: make_engine(name, 1, 60.0).version() for name in engines}}
