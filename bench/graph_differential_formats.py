"""Differential testing of the Mermaid, DOT and DBML readers against their engines, at scale.

Generates diagrams with tests/formats_grammar.py (Mermaid flowchart, class, ER and state;
Graphviz DOT; DBML), draws them in batch (mermaid-cli in warm browsers, Graphviz, the
reference parser @dbml/core; tests/formats_oracle.py), and compares the parsed
entities/relations/clusters/notes with the drawn ones. Prints how many were generated
and drawn, the agreement per kind, the disagreements by construct (the share of the
diagrams using a construct that disagree) and by count, and a few examples.

    .venv/bin/python bench/graph_differential_formats.py --n 10000 --jobs 2

`--n` is split over the kinds by `--mermaid-share` (Mermaid renders are ~10x slower
than Graphviz's); `--kinds mermaid/er mermaid/state` draws only those.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.formats_grammar import KINDS, corpus
from tests.formats_oracle import outcomes


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--mermaid-share", type=float, default=0.3)
    parser.add_argument("--show", type=int, default=2)
    parser.add_argument("--kinds", nargs="*", default=[],
                        help="only these kinds, as language/kind (e.g. mermaid/er)")
    args = parser.parse_args()
    chosen = [k for k in KINDS if not args.kinds or "/".join(k) in args.kinds]
    mermaid = [k for k in chosen if k[0] == "mermaid"]
    others = [k for k in chosen if k[0] != "mermaid"]
    share = args.mermaid_share if others else 1.0
    counts = {k: round(args.n * share / len(mermaid)) for k in mermaid}
    counts.update({k: round(args.n * (1 - share) / len(others)) for k in others})
    generated = corpus(counts, args.seed)
    print(f"generated {len(generated)} diagrams: "
          + ", ".join(f"{lang}/{kind} {n}" for (lang, kind), n in counts.items()))
    start = time.perf_counter()
    results = outcomes([(g.language, g.kind, g.text) for g in generated], jobs=args.jobs)
    print(f"drawn and compared in {time.perf_counter() - start:.1f} s")
    drawn: Counter[tuple[str, str]] = Counter()
    agree: Counter[tuple[str, str]] = Counter()
    refused: Counter[tuple[str, str]] = Counter()
    used: Counter[str] = Counter()
    wrong_with: Counter[str] = Counter()
    by_count: Counter[str] = Counter()
    examples: dict[str, list[str]] = defaultdict(list)
    for g, o in zip(generated, results, strict=True):
        key = (g.language, g.kind)
        if o.drawn is None:
            refused[key] += 1
            continue
        drawn[key] += 1
        used.update(g.constructs)
        if o.agrees:
            agree[key] += 1
            continue
        wrong_with.update(g.constructs)
        for k in o.differing():
            by_count[f"{g.language}/{g.kind} {k}"] += 1
        examples[f"{g.language}/{g.kind}"].append(
            f"parsed {o.parsed}\ndrawn  {o.drawn}\n{g.text}")
    print(f"\n{'kind':22}{'drawn':>8}{'agree':>8}{'rate':>9}{'refused':>9}")
    for key in counts:
        rate = agree[key] / drawn[key] if drawn[key] else float("nan")
        print(f"{key[0] + '/' + key[1]:22}{drawn[key]:>8}{agree[key]:>8}{rate:>9.2%}"
              f"{refused[key]:>9}")
    total_drawn, total_agree = sum(drawn.values()), sum(agree.values())
    print(f"{'all':22}{total_drawn:>8}{total_agree:>8}"
          f"{total_agree / max(1, total_drawn):>9.2%}{sum(refused.values()):>9}")
    reasons = Counter(o.error[:70] for o in results if o.drawn is None)
    if reasons:
        print("\nrefusals:", reasons.most_common(5))
    if wrong_with:
        print("\ndisagreements by construct (share of the diagrams using it that disagree):")
        for c, n in sorted(wrong_with.items(), key=lambda x: -x[1] / used[x[0]])[:25]:
            print(f"  {c:32}{n:>6} / {used[c]:<6}{n / used[c]:>8.1%}")
        print("\ndisagreements by count:")
        for what, n in by_count.most_common():
            print(f"  {what:32}{n:>6}")
        for kind, texts in examples.items():
            for text in texts[:args.show]:
                print(f"\n--- {kind}\n{text}")


if __name__ == "__main__":
    main()
