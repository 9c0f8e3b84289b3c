"""Diagrams per second of the biology languages (issue 31), per engine: reading (the
language's reader on its synth's codes) and rendering (PNG, then SVG from the same
drawing, in the engine's worker processes; the first batch includes starting them).

Each language's `synth` writes `--diagrams` codes per complexity level (seeded); the
reader is timed on all of them (after one untimed read that imports its library), the
engine renders them with `--jobs` workers.
Usage: python bench/domains_biology.py [--diagrams N] [--jobs J]  (default 10, 2)
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import time
from pathlib import Path

from diagbench.languages import make_engine, named

#: The columns `measure` fills.
HEADER = (f"{'language':8} {'engine':6} {'codes':>5} {'read/s':>9} {'render/s':>9} "
          f"{'+svg/s':>9} {'valid':>5}")


def measure(name: str, diagrams: int, jobs: int) -> str:
    """The `HEADER` row of one language: its synth's codes read and rendered."""
    language = named(name)
    synth = language.generate
    codes = [synth(random.Random(seed), level) for level in ("low", "medium", "high")
             for seed in range(diagrams)]
    language.read(codes[0])  # imports the field's library: not timed
    start = time.perf_counter()
    for code in codes:
        language.read(code)
    read = len(codes) / (time.perf_counter() - start)
    engine = make_engine(language.engine, jobs, 60.0)
    out = Path(tempfile.mkdtemp(prefix="diagbench-bench-"))
    try:
        start = time.perf_counter()
        pngs = engine.render(codes, out, "png")
        png = len(codes) / (time.perf_counter() - start)
        start = time.perf_counter()
        engine.render(codes, out, "svg")
        svg = len(codes) / (time.perf_counter() - start)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    valid = sum(r.ok for r in pngs)
    return (f"{name:8} {language.engine:6} {len(codes):5} {read:9.1f} {png:9.2f} "
            f"{svg:9.0f} {valid:5}")


def main(names: tuple[str, ...] = ("newick", "fasta"), doc: str = __doc__) -> None:
    """Measure the languages `names` (a script's `doc` describes them)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--diagrams", type=int, default=10, help="codes per complexity level")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    print(HEADER)
    for name in names:
        print(measure(name, args.diagrams, args.jobs))


if __name__ == "__main__":
    main()
