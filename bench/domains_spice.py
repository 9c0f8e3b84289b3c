"""Netlists per second of the electrical-circuit language (SPICE): diagbench's reader,
ngspice's listing (the oracle, one sandboxed process a netlist), netlistsvg's schematic
(one warm Node process; SVG and PNG in one pass, PNG by rsvg-convert), the drawn
statistics, and the similarity of a netlist with another writing of it — on the
generator's netlists, and how many the reader, ngspice and the drawing count alike.

`--diagrams` netlists per complexity level (seeded); Node's start (netlistsvg loading)
is an untimed batch, scipy's import one untimed comparison; the engine draws
`--jobs` netlists at a time (they share the one Node process).
Usage: python bench/domains_spice.py [--diagrams N] [--jobs J]  (default 10, 2)
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import time
from pathlib import Path

from diagbench.languages import named
from diagbench.languages.spice.engine import SchematicEngine, schematic_statistics
from diagbench.languages.spice.ngspice import disagreements
from diagbench.languages.spice.read import read_spice
from diagbench.languages.spice.synth import rewrite_spice, synth_spice

LEVELS = ("low", "medium", "high")


def per_second(count: int, start: float) -> float:
    return count / max(time.perf_counter() - start, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--diagrams", type=int, default=10, help="netlists per level")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    engine = SchematicEngine(jobs=args.jobs, timeout=120)
    print(engine.version())
    out = Path(tempfile.mkdtemp(prefix="diagbench-bench-"))
    try:
        warm = [synth_spice(random.Random(-k), "low") for k in range(1, 2 * args.jobs + 1)]
        engine.render(warm, out, "svg")  # the Node processes start
        warm = warm[0]
        named("spice").compare_code(warm, warm, True)  # imports scipy
        print(f"{'level':6} {'nets':>4} {'parts':>5} {'read/s':>8} {'ngspice/s':>9} "
              f"{'render/s':>8} {'stats/s':>8} {'compare/s':>9} {'agree':>5}")
        for level in LEVELS:
            codes = [synth_spice(random.Random(seed), level) for seed in range(args.diagrams)]
            start = time.perf_counter()
            parsed = [read_spice(code)[0] for code in codes]
            read = per_second(len(codes), start)
            start = time.perf_counter()
            oracle = [disagreements(code) for code in codes]
            ngspice = per_second(len(codes), start)
            start = time.perf_counter()
            svgs = SchematicEngine(jobs=args.jobs, timeout=120).render(codes, out, "svg")
            render = per_second(len(codes), start)
            texts = [r.image.read_text(encoding="utf-8") for r in svgs if r.image]
            start = time.perf_counter()
            drawn = [schematic_statistics(text) for text in texts]
            stats = per_second(len(texts), start)
            others = [rewrite_spice(code, random.Random(1)) or "" for code in codes]
            start = time.perf_counter()
            scores = [named("spice").compare_code(code, other, True).score
                      for code, other in zip(codes, others, strict=True)]
            compare = per_second(len(codes), start)
            agree = sum(not o and all(p.counts()[k] == d[k] for k in d) and s == 1.0
                        for p, d, o, s in zip(parsed, drawn, oracle, scores, strict=True))
            parts = sum(p.counts()["components"] for p in parsed) // max(len(parsed), 1)
            print(f"{level:6} {len(codes):4} {parts:5} {read:8.0f} {ngspice:9.1f} "
                  f"{render:8.2f} {stats:8.0f} {compare:9.1f} {agree:5}")
    finally:
        shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
