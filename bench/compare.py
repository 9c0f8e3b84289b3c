"""Comparison throughput: pairs/s and memory of both methods, and one very large pair.

Gold diagrams are synthetic call flows of about 50 lines; predictions carry
planted errors (deleted, reversed, relabelled, duplicated, swapped messages).
Prints pairs/s for `semantic` and `diff` side by side with the issue's target
(500 pairs/s), peak traced memory at two corpus sizes (it must stay flat), and
the time for one pair of 1,000-message diagrams (target < 5 s).
Usage: python bench/compare.py [--pairs N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time
import tracemalloc

from diagbench.compare.counts import Comparison
from diagbench.compare.pair import compare_scripts
from synthetic import predicted, synthetic_diagram

TARGET_PAIRS_PER_SECOND = 500
TARGET_LARGE_SECONDS = 5.0


def corpus(n: int, seed: int, lines: tuple[int, int] = (40, 60)) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    pairs = []
    for _ in range(n):
        gold = synthetic_diagram(rng, lines)
        pairs.append((gold, predicted(gold, rng)))
    return pairs


def pooled_run(pairs, method: str) -> tuple[float, Comparison]:
    """Seconds to compare every pair, pooling the counts as `diagbench compare` does."""
    total = Comparison()
    start = time.perf_counter()
    for gold, pred in pairs:
        total.add(compare_scripts(gold, pred, method))
    return time.perf_counter() - start, total


def peak_memory(pairs, method: str) -> float:
    tracemalloc.start()
    pooled_run(pairs, method)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    pairs = corpus(args.pairs, args.seed)
    lines = sum(g.count("\n") for g, _ in pairs) / len(pairs)
    print(f"corpus: {len(pairs):,} pairs, {lines:.0f} gold lines on average")
    print(f"{'method':<10}{'seconds':>10}{'pairs/s':>10}{'vs target':>11}"
          f"{'peak MB @1k':>13}{'peak MB @N':>12}{'errors/gold':>13}")
    for method in ("semantic", "diff"):
        seconds, total = pooled_run(pairs, method)
        rate = len(pairs) / seconds
        small = peak_memory(pairs[:1000], method)
        large = peak_memory(pairs, method)
        print(f"{method:<10}{seconds:>10.2f}{rate:>10,.0f}{rate / TARGET_PAIRS_PER_SECOND:>10.2f}x"
              f"{small:>13.2f}{large:>12.2f}{total.errors / total.gold_elements:>13.3f}")

    rng = random.Random(args.seed)
    gold = synthetic_diagram(rng, (1750, 1750))
    pred = predicted(gold, rng)
    messages = sum(" : " in line for line in gold.splitlines())
    for method in ("semantic", "diff"):
        start = time.perf_counter()
        compare_scripts(gold, pred, method)
        seconds = time.perf_counter() - start
        print(f"one pair of ~{messages:,}-message diagrams, {method}: {seconds:.2f} s "
              f"({seconds / TARGET_LARGE_SECONDS:.2f}x the {TARGET_LARGE_SECONDS:.0f} s budget)")


if __name__ == "__main__":
    main()
