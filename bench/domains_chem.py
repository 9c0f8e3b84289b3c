"""Chemistry throughput: SMILES molecules and reaction SMILES per second, read (RDKit
in-process: parse, sanitise, rings, groups) and rendered (the `rdkit` and
`rdkit-reaction` engines: SVG + PNG in one pass per diagram, warm worker processes), on
seeded generated molecules and reactions of the three complexity levels. A render
batch includes its workers' start (RDKit's import, about a second each): the engine
keeps its workers for one batch, so bigger batches approach the per-diagram rate.
Usage: python bench/domains_chem.py [--diagrams N] [--jobs J] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from diagbench.languages.reaction_smiles.read import read_reaction_smiles
from diagbench.languages.reaction_smiles.synth import synth_reaction
from diagbench.languages.smiles.engine import RdkitEngine, RdkitReactionEngine
from diagbench.languages.smiles.read import read_smiles
from diagbench.languages.smiles.synth import synth_smiles


def _bench(label: str, codes: list[str], read: Callable[[str], list], engine: RdkitEngine
           ) -> None:
    start = time.perf_counter()
    parsed = [read(code) for code in codes]
    rate = len(codes) / (time.perf_counter() - start)
    assert all(not p[0].errors for p in parsed)
    print(f"{label:9} read   (RDKit reader)               {rate:8.1f} /s")
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        results = engine.render(codes, Path(out), "png")
        rate = len(codes) / (time.perf_counter() - start)
    assert all(r.ok for r in results), [r.error for r in results if not r.ok]
    print(f"{label:9} render ({engine.name:14}, {engine.jobs} jobs) {rate:8.1f} /s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--diagrams", type=int, default=30)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    levels = ("low", "medium", "high")
    molecules = [synth_smiles(rng, levels[k % 3]) for k in range(args.diagrams)]
    reactions = [synth_reaction(rng, levels[k % 3]) for k in range(args.diagrams)]
    _bench("molecule", molecules, read_smiles, RdkitEngine(jobs=args.jobs))
    _bench("reaction", reactions, read_reaction_smiles, RdkitReactionEngine(jobs=args.jobs))


if __name__ == "__main__":
    main()
