"""Parser throughput: a synthetic corpus of sequence diagrams, parsed on one core.

Prints diagrams/s, lines/s and peak memory, beside the same corpus merely split
into lines (the floor any parser pays) and the issue's target of 2,000
diagrams/s. Usage: python bench/parse.py [--diagrams N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time
import tracemalloc

from diagbench.formats.plantuml import parse_sequence

TARGET_PER_SECOND = 2_000
KINDS = ("participant", "actor", "database", "control", "entity", "queue")
ARROWS = ("->", "-->", "->>", "<-", "<--", "->x", "-[#blue]>", "-\\", "->o")
GROUPS = ("alt", "opt", "loop", "par", "group", "critical")


def synthetic_diagram(rng: random.Random) -> str:
    """One diagram of 20-200 lines mixing the constructs of real call flows."""
    n = rng.randint(3, 9)
    names = [f"NF{k}" for k in range(n)]
    lines = ["@startuml", f"title Procedure {rng.randint(1, 999)}", "autonumber"]
    lines += [f'{rng.choice(KINDS)} "Network Function {k}" as {name} #LightBlue'
              for k, name in enumerate(names)]
    target, depth = rng.randint(20, 200), 0
    while len(lines) < target - depth - 1:
        roll = rng.random()
        a, b = rng.choice(names), rng.choice(names)
        if roll < 0.70:
            lines.append(f"{a} {rng.choice(ARROWS)} {b} : Nxx_Service_Operation Request\\n(id)")
        elif roll < 0.78:
            lines += [f"note over {a}, {b}", "  the UE context is stored", "end note"]
        elif roll < 0.85 and depth < 3:
            lines.append(f"{rng.choice(GROUPS)} condition {len(lines)}")
            depth += 1
        elif roll < 0.92 and depth:
            lines.append("end")
            depth -= 1
        elif roll < 0.96:
            lines.append(f"activate {a}")
        else:
            lines.append("== phase ==")
    lines += ["end"] * depth + ["@enduml"]
    return "\n".join(lines) + "\n"


def timed(work, corpus: list[str]) -> float:
    """Seconds to run `work` on every text of `corpus`."""
    start = time.perf_counter()
    for text in corpus:
        work(text)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--diagrams", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    corpus = [synthetic_diagram(rng) for _ in range(args.diagrams)]
    lines = sum(text.count("\n") for text in corpus)
    print(f"corpus: {len(corpus):,} diagrams, {lines:,} lines, "
          f"{sum(map(len, corpus)) / 1e6:.1f} MB")

    split = timed(str.splitlines, corpus)
    parse = timed(parse_sequence, corpus)
    tracemalloc.start()
    for text in corpus[:1000]:
        parse_sequence(text)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    rate = len(corpus) / parse
    print(f"{'':24}{'seconds':>10}{'diagrams/s':>14}{'lines/s':>14}")
    print(f"{'split into lines':24}{split:>10.3f}{len(corpus) / split:>14,.0f}"
          f"{lines / split:>14,.0f}")
    print(f"{'parse_sequence':24}{parse:>10.3f}{rate:>14,.0f}{lines / parse:>14,.0f}")
    print(f"parse / split time: {parse / split:,.0f}x; "
          f"rate / target ({TARGET_PER_SECOND:,}/s): {rate / TARGET_PER_SECOND:.2f}x")
    print(f"peak traced memory while parsing one diagram at a time: {peak / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
