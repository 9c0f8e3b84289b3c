"""Chemistry throughput: SMILES molecules per second, read (RDKit in-process: parse,
sanitise, rings, groups) and rendered (the `rdkit` engine: SVG + PNG in one pass per
molecule, warm worker processes), on seeded generated molecules of the three complexity
levels. The first render batch includes the workers' start (RDKit's import); a second
batch on the same molecules shows the rate once they are up.
Usage: python bench/domains_chem.py [--molecules N] [--jobs J] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from diagbench.formats.smiles import read_smiles
from diagbench.formats.smiles_synth import synth_smiles
from diagbench.render.rdkit import RdkitEngine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--molecules", type=int, default=60)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    levels = ("low", "medium", "high")
    codes = [synth_smiles(rng, levels[k % 3]) for k in range(args.molecules)]

    start = time.perf_counter()
    parsed = [read_smiles(code) for code in codes]
    read_rate = len(codes) / (time.perf_counter() - start)
    assert all(not p[0].errors for p in parsed)
    print(f"read   (RDKit reader)           {read_rate:8.1f} molecules/s")

    engine = RdkitEngine(jobs=args.jobs)
    for label in ("cold: workers start", "warm"):
        with tempfile.TemporaryDirectory() as out:
            start = time.perf_counter()
            results = engine.render(codes, Path(out), "png")
            rate = len(codes) / (time.perf_counter() - start)
        assert all(r.ok for r in results), [r.error for r in results if not r.ok]
        print(f"render (rdkit, {args.jobs} jobs, {label:19}) {rate:8.1f} molecules/s "
              "(SVG + PNG each)")


if __name__ == "__main__":
    main()
