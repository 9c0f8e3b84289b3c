"""Comparison speed against its floor, throughput, and memory over a large corpus.

Gold diagrams are synthetic call flows of about 50 lines; predictions carry
planted errors (deleted, reversed, relabelled, duplicated, swapped messages).
Prints, side by side in one run:
- the semantic method's CPU time per pair beside its floor, what any such
  comparison must do: parse both scripts, one rapidfuzz `cdist` over the
  message labels, one `linear_sum_assignment` (goal: at most 2x the floor);
  the two are timed in alternating chunks, so both see the same machine;
- pairs/s of `semantic` and `diff` beside the target of 500 pairs/s;
- peak traced memory while comparing and pooling 1,000 and N pairs (it must
  stay flat);
- the time for one pair of ~1,000-message diagrams (target < 5 s).
Usage: python bench/compare.py [--pairs N] [--runs R] [--seed S] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
import tracemalloc

import numpy as np
from rapidfuzz.distance import Levenshtein
from rapidfuzz.process import cdist
from scipy.optimize import linear_sum_assignment

from diagbench.compare.counts import Comparison
from diagbench.compare.pair import compare_scripts
from diagbench.formats.plantuml import parse_sequence
from synthetic import predicted, synthetic_diagram

TARGET_PAIRS_PER_SECOND = 500
TARGET_LARGE_SECONDS = 5.0
GOAL_FLOOR_RATIO = 2.0


def corpus(n: int, seed: int, lines: tuple[int, int] = (40, 60)) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    pairs = []
    for _ in range(n):
        gold = synthetic_diagram(rng, lines)
        pairs.append((gold, predicted(gold, rng)))
    return pairs


def floor_pair(gold: str, pred: str) -> None:
    """The least any semantic comparison does: parse both scripts, score every label
    against every label in one `cdist`, solve one assignment."""
    gold_d, pred_d = parse_sequence(gold)[0].diagram, parse_sequence(pred)[0].diagram
    sims = cdist([m.label for m in gold_d.messages], [m.label for m in pred_d.messages],
                 scorer=Levenshtein.normalized_similarity, dtype=np.float32, workers=1)
    linear_sum_assignment(1.0 - sims)


def _pool(total: Comparison, one: Comparison) -> None:
    """Pool the counts as `diagbench compare` does (trees before `texts=` pool all)."""
    try:
        total.add(one, texts=False)
    except TypeError:
        total.add(one)


def pooled_run(pairs, method: str) -> tuple[float, Comparison]:
    """Seconds to compare every pair, pooling the counts as `diagbench compare` does."""
    total = Comparison()
    start = time.perf_counter()
    for gold, pred in pairs:
        _pool(total, compare_scripts(gold, pred, method))
    return time.perf_counter() - start, total


def against_floor(pairs, runs: int, chunk: int = 50) -> dict:
    """CPU ms per pair of `semantic` and of the floor, alternating chunks of `chunk`
    pairs; the medians over `runs` runs, and the median of the runs' ratios."""
    now, floor, ratios = [], [], []
    for _ in range(runs):
        spent = [0.0, 0.0]
        for k in range(0, len(pairs), chunk):
            part = pairs[k:k + chunk]
            start = time.process_time()
            for gold, pred in part:
                compare_scripts(gold, pred, "semantic")
            middle = time.process_time()
            for gold, pred in part:
                floor_pair(gold, pred)
            spent[0] += middle - start
            spent[1] += time.process_time() - middle
        now.append(1000 * spent[0] / len(pairs))
        floor.append(1000 * spent[1] / len(pairs))
        ratios.append(spent[0] / spent[1])
    return {"now_ms": statistics.median(now), "floor_ms": statistics.median(floor),
            "ratio": statistics.median(ratios), "ratios": ratios, "goal": GOAL_FLOOR_RATIO}


def peak_memory(pairs, method: str) -> float:
    """Peak traced MB while comparing `pairs` one at a time and pooling the counts."""
    tracemalloc.start()
    pooled_run(pairs, method)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1e6


def memory(pairs, methods=("semantic", "diff")) -> dict:
    """Peak MB at 1,000 pairs and at all of `pairs`, per method."""
    return {m: {"small": peak_memory(pairs[:1000], m), "large": peak_memory(pairs, m),
                "pairs_small": min(1000, len(pairs)), "pairs_large": len(pairs)}
            for m in methods}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=10_000)
    ap.add_argument("--floor-pairs", type=int, default=1000,
                    help="Pairs timed against the floor in each run.")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true",
                    help="Print one JSON object (floor and memory only), for bench/all.py.")
    args = ap.parse_args()
    pairs = corpus(args.pairs, args.seed)
    floor = against_floor(pairs[:args.floor_pairs], args.runs)
    if args.json:
        print(json.dumps({"floor": floor, "memory": memory(pairs)}))
        return
    lines = sum(g.count("\n") for g, _ in pairs) / len(pairs)
    print(f"corpus: {len(pairs):,} pairs, {lines:.0f} gold lines on average")
    print(f"semantic vs its floor (CPU, medians of {args.runs} runs over "
          f"{args.floor_pairs:,} pairs): {floor['now_ms']:.3f} ms/pair vs "
          f"{floor['floor_ms']:.3f} ms/pair = {floor['ratio']:.2f}x "
          f"(goal <= {GOAL_FLOOR_RATIO:g}x; runs: "
          + ", ".join(f"{r:.2f}" for r in floor["ratios"]) + ")")
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
