"""Differential testing of `parse_sequence` against PlantUML on generated diagrams.

Generates N random sequence diagrams from PlantUML's grammar
(tests/sequence_grammar.py), renders them in one warm batch with the pinned
PlantUML, and compares what the parser reads (participants, message ends,
notes, groups, boxes) with what PlantUML drew (tests/sequence_oracle.py).
Prints the diagrams generated, the agreement rate, what differed, and the
disagreements by construct (with the rate among the diagrams using it).
Usage: python bench/sequence_differential.py [--diagrams N] [--seed S] [--jobs J] [--show K]
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.sequence_grammar import corpus
from tests.sequence_oracle import check

from diagbench.render.svg_stats import mark_sequence


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--diagrams", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--show", type=int, default=3, help="disagreeing diagrams to print")
    args = ap.parse_args()
    start = time.perf_counter()
    generated = corpus(args.seed, args.diagrams)
    verdicts = check([g.text for g in generated], jobs=args.jobs)
    seconds = time.perf_counter() - start

    errors = [(g, v) for g, v in zip(generated, verdicts, strict=True) if v.engine_error]
    compared = [(g, v) for g, v in zip(generated, verdicts, strict=True) if not v.engine_error]
    agree = sum(v.agrees for _, v in compared)
    print(f"diagrams generated: {len(generated):,} (seed {args.seed}), "
          f"{sum(g.teoz for g in generated):,} under teoz; {seconds:.1f} s")
    print(f"PlantUML errors (generator bugs): {len(errors):,}")
    print(f"agreement: {agree:,}/{len(compared):,} = {agree / max(1, len(compared)):.2%}")
    what = Counter(d for _, v in compared for d in v.differences)
    if what:
        print("what differed: " + ", ".join(f"{k} {n}" for k, n in what.most_common()))
    uses = Counter(c for g, _ in compared for c in g.constructs)
    # a disagreement is charged to the constructs of the lines the parser could not read;
    # when it read every line, to every construct of the diagram (shown apart)
    blamed, silent = Counter(), Counter()
    for g, v in compared:
        if v.agrees:
            continue
        if v.error_lines:
            blamed.update({c for n in v.error_lines for c in g.constructs_at(n)})
        else:
            silent.update(g.constructs)
    if blamed or silent:
        print("disagreements by construct (lines the parser could not read):")
        for c, n in blamed.most_common():
            print(f"  {c:34}{n:>8,} of {uses[c]:,} diagrams using it")
        quiet = sum(not v.agrees and not v.error_lines for _, v in compared)
        print(f"disagreements with every line read ({quiet:,}), by construct present, "
              "highest rate first:")
        for c, n in sorted(silent.items(), key=lambda kv: -kv[1] / uses[kv[0]])[:15]:
            print(f"  {c:34}{n:>8,} of {uses[c]:>6,} ({n / uses[c]:.1%})")
    for g, v in [(g, v) for g, v in compared if not v.agrees][:args.show]:
        print(f"--- {', '.join(v.differences)}\n{g.text}")
    for g, v in errors[:args.show]:
        print(f"--- PlantUML error: {v.engine_error}\n{g.text}")
    for g, v in errors:
        print(f"PlantUML error: {v.engine_error}: {_error_line(g.text, v.engine_error)!r}")


def _error_line(text: str, error: str) -> str:
    """The source line PlantUML's error points at (the markers shift the numbers)."""
    m = re.search(r"\(line (\d+)\)", error)
    if not m:
        return ""
    lines = mark_sequence(text).split("\n")
    k = int(m.group(1)) - 1
    return lines[k] if 0 <= k < len(lines) else ""


if __name__ == "__main__":
    main()
