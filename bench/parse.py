"""Parser throughput: a synthetic corpus of sequence diagrams, parsed on one core.

Then diagrams/s of every graph reader (Mermaid kinds, DOT, DBML, PlantUML graph kinds)
on generated diagrams (bench/parse_graph.py).

Prints diagrams/s, lines/s and peak memory (over 1,000 diagrams and over all of
them), beside the same corpus merely split into lines (the floor any parser pays)
and the issue's target of 5,000 diagrams/s. Usage: python bench/parse.py [--diagrams N] [--seed S]
"""

from __future__ import annotations

import argparse
import gc
import random
import time
import tracemalloc

from diagbench.formats.plantuml import parse_sequence
from synthetic import synthetic_diagram

TARGET_PER_SECOND = 5_000


def timed(work, corpus: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) to run `work` on every text of `corpus`.

    On a shared machine the CPU time is the steadier figure: another process taking the
    core lengthens the wall time, not the CPU time."""
    start, cpu = time.perf_counter(), time.process_time()
    for text in corpus:
        work(text)
    return time.perf_counter() - start, time.process_time() - cpu


def peak_memory(corpus: list[str]) -> tuple[int, int]:
    """(peak traced bytes while parsing the texts of `corpus` one after the other, bytes
    still traced after a full collection).

    The peak creeps up with the number of diagrams until CPython's tuple free lists are full
    (about 2 MB, by some 30,000 diagrams); a full collection empties them, so the second
    figure is what the parser keeps (its bounded tables)."""
    tracemalloc.start()
    for text in corpus:
        parse_sequence(text)
    _, peak = tracemalloc.get_traced_memory()
    gc.collect()
    kept, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak, kept


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--diagrams", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--graph-diagrams", type=int, default=300,
                    help="generated diagrams per graph language/kind (0: skip them)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    corpus = [synthetic_diagram(rng) for _ in range(args.diagrams)]
    lines = sum(text.count("\n") for text in corpus)
    print(f"corpus: {len(corpus):,} diagrams, {lines:,} lines, "
          f"{sum(map(len, corpus)) / 1e6:.1f} MB")

    split, _ = timed(str.splitlines, corpus)
    parse, parse_cpu = timed(parse_sequence, corpus)
    small = min(1000, len(corpus))
    (peak_small, kept_small), (peak_all, kept_all) = (peak_memory(corpus[:small]),
                                                      peak_memory(corpus))

    rate = len(corpus) / parse
    print(f"{'':24}{'seconds':>10}{'diagrams/s':>14}{'lines/s':>14}")
    print(f"{'split into lines':24}{split:>10.3f}{len(corpus) / split:>14,.0f}"
          f"{lines / split:>14,.0f}")
    print(f"{'parse_sequence':24}{parse:>10.3f}{rate:>14,.0f}{lines / parse:>14,.0f}")
    print(f"{'parse_sequence (CPU)':24}{parse_cpu:>10.3f}{len(corpus) / parse_cpu:>14,.0f}"
          f"{lines / parse_cpu:>14,.0f}")
    print(f"parse / split time: {parse / split:,.0f}x; "
          f"rate / target ({TARGET_PER_SECOND:,}/s): {rate / TARGET_PER_SECOND:.2f}x wall, "
          f"{len(corpus) / parse_cpu / TARGET_PER_SECOND:.2f}x CPU")
    print(f"peak traced memory while parsing one diagram at a time: {peak_small / 1e6:.2f} MB "
          f"over {small:,} diagrams, {peak_all / 1e6:.2f} MB over {len(corpus):,} "
          f"({peak_all / peak_small:.2f}x: CPython's tuple free lists filling); kept after a "
          f"full collection: {kept_small / 1e3:.1f} kB and {kept_all / 1e3:.1f} kB")
    if args.graph_diagrams:
        from parse_graph import print_graph_rates

        print_graph_rates(args.graph_diagrams, args.seed)


if __name__ == "__main__":
    main()
