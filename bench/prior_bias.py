"""Build time of the prior-bias benchmark (paper 002): generation, PlantUML rendering at 1×
and resizing to 1.5× and 2×, at a given instances-per-cell size, with the paper's
full size (27,156 base instances × 3 scales, Table 1) extrapolated from the rate, in wall
time and in CPU time over the machine's cores (the least an otherwise idle machine takes),
with the load average beside them and a digest of every file written (the same seed gives
the same digest before and after a change).
Target: the full benchmark in under 30 minutes on 2 cores.
Usage: python bench/prior_bias.py [--per-cell N | --paper-sizes] [--jobs J] [--no-wordnet]
                                  [--seed S]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import tempfile
import time
from pathlib import Path

from diagbench.benchmarks.prior_bias.build import build_benchmark
from diagbench.benchmarks.prior_bias.generate import PAPER_SIZES, generate, uniform
from diagbench.benchmarks.prior_bias.vocabulary import load_vocabulary
from diagbench.benchmarks.prior_bias.wordnet import wordnet_chains
from diagbench.languages.rendering import ended
from diagbench.render.plantuml_pipe import PlantUMLEngine

PAPER_BASE = 27_156
TARGET_MINUTES = 30


def cpu_seconds() -> float:
    """CPU seconds of this process and of its children waited for (the JVM, `dot`)."""
    return sum(u.ru_utime + u.ru_stime for u in (resource.getrusage(resource.RUSAGE_SELF),
                                                 resource.getrusage(resource.RUSAGE_CHILDREN)))


def digest(folder: Path) -> str:
    """sha256 over every file's path and content, in path order."""
    total = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        total.update(str(path.relative_to(folder)).encode())
        total.update(hashlib.sha256(path.read_bytes()).digest())
    return total.hexdigest()[:16]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-cell", type=int, default=100)
    ap.add_argument("--paper-sizes", action="store_true", help="Table 1 of the paper")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-wordnet", action="store_true", help="the curated vocabulary only")
    args = ap.parse_args()
    vocabulary = load_vocabulary(extra=None if args.no_wordnet else wordnet_chains())
    sizes = PAPER_SIZES if args.paper_sizes else uniform(args.per_cell)
    start = time.perf_counter()
    generated = generate(vocabulary, sizes, args.seed)
    gen_seconds = time.perf_counter() - start
    engine = PlantUMLEngine(args.jobs)
    with tempfile.TemporaryDirectory() as tmp:
        cpu, start = cpu_seconds(), time.perf_counter()
        try:
            info = build_benchmark(Path(tmp), vocabulary, sizes, args.seed, engine)
        finally:
            ended(engine)  # the JVM's CPU is counted once it is waited for
        seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu
        files = digest(Path(tmp))
    base, images = info["instances"], info["diagrams"] * len(info["scales"])
    cores = os.cpu_count() or 1
    full, full_cpu = (PAPER_BASE * spent / base / 60 for spent in (seconds, cpu / cores))
    source = "curated" if args.no_wordnet else "curated + WordNet"
    size = "Table 1" if args.paper_sizes else f"per cell {args.per_cell}"
    print(f"{size}, {source} vocabulary (it gives {base:,} base instances, "
          f"{info['diagrams']:,} diagrams), {args.jobs} PlantUML channels per format; load "
          f"average {' '.join(f'{x:.1f}' for x in os.getloadavg())} (after)")
    print(f"{'generate s':>11}{'build s':>9}{'CPU s':>8}{'diagrams/s':>12}{'images/s':>10}"
          f"{'instances/s':>13}{'paper size min':>16}{'by CPU/' + str(cores):>10}"
          f"{'vs target':>11}")
    print(f"{gen_seconds:>11.2f}{seconds:>9.1f}{cpu:>8.1f}{info['diagrams'] / seconds:>12.1f}"
          f"{images / seconds:>10.1f}{base / seconds:>13.1f}{full:>16.1f}{full_cpu:>10.1f}"
          f"{TARGET_MINUTES / full:>10.2f}x")
    print(f"(paper size: {PAPER_BASE:,} base instances × 3 scales at this rate, wall; "
          f"'by CPU/{cores}': the CPU spent spread over {cores} cores, the least an idle "
          f"machine would take; instances share a diagram's images, "
          f"{base / info['diagrams']:.2f} per diagram here; files digest {files})")
    assert len(generated.instances) == base


if __name__ == "__main__":
    main()
