"""Build time of the prior-bias benchmark (paper 002): generation, PlantUML rendering at 1×
and resizing to 1.5× and 2×, at a given instances-per-cell size, with the paper's
full size (27,156 base instances × 3 scales, Table 1) extrapolated from the rate.
Target: the full benchmark in under 30 minutes on 2 cores.
Usage: python bench/prior_bias.py [--per-cell N | --paper-sizes] [--jobs J] [--no-wordnet]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from diagbench.benchmarks.prior_bias.build import build_benchmark
from diagbench.benchmarks.prior_bias.generate import PAPER_SIZES, generate, uniform
from diagbench.benchmarks.prior_bias.vocabulary import load_vocabulary
from diagbench.benchmarks.prior_bias.wordnet import wordnet_chains
from diagbench.render.plantuml_pipe import PlantUMLEngine

PAPER_BASE = 27_156
TARGET_MINUTES = 30


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-cell", type=int, default=100)
    ap.add_argument("--paper-sizes", action="store_true", help="Table 1 of the paper")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-wordnet", action="store_true", help="the curated vocabulary only")
    args = ap.parse_args()
    vocabulary = load_vocabulary(extra=None if args.no_wordnet else wordnet_chains())
    sizes = PAPER_SIZES if args.paper_sizes else uniform(args.per_cell)
    start = time.perf_counter()
    generated = generate(vocabulary, sizes)
    gen_seconds = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        info = build_benchmark(Path(tmp), vocabulary, sizes, 0, PlantUMLEngine(args.jobs))
        seconds = time.perf_counter() - start
    base, images = info["instances"], info["diagrams"] * len(info["scales"])
    per_instance = seconds / base
    full = PAPER_BASE * per_instance / 60
    source = "curated" if args.no_wordnet else "curated + WordNet"
    size = "Table 1" if args.paper_sizes else f"per cell {args.per_cell}"
    print(f"{size}, {source} vocabulary (it gives {base:,} base instances, "
          f"{info['diagrams']:,} diagrams), {args.jobs} PlantUML processes")
    print(f"{'generate s':>11}{'build s':>9}{'diagrams/s':>12}{'images/s':>10}"
          f"{'instances/s':>13}{'paper size min':>16}{'vs target':>11}")
    print(f"{gen_seconds:>11.2f}{seconds:>9.1f}{info['diagrams'] / seconds:>12.1f}"
          f"{images / seconds:>10.1f}{base / seconds:>13.1f}{full:>16.1f}"
          f"{TARGET_MINUTES / full:>10.2f}x")
    print(f"(paper size: {PAPER_BASE:,} base instances × 3 scales at this rate; instances "
          f"share a diagram's images, {base / info['diagrams']:.2f} per diagram here)")
    assert len(generated.instances) == base


if __name__ == "__main__":
    main()
