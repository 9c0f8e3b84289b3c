"""Differential testing of the PlantUML graph reader against PlantUML, at scale.

Generates N diagrams with tests/graph_grammar.py (class, component, use case,
state, C4), renders them in warm PlantUML processes, and compares the parsed
entities/relations/clusters/notes with the SVG's. Prints the agreement per
kind, the disagreements grouped by the count that differs, a few examples,
and the reader's speed per kind.

    .venv/bin/python bench/graph_differential.py --n 10000 --jobs 2
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.graph_corpus import render_statistics
from tests.graph_grammar import KINDS, corpus

from diagbench.formats.plantuml.read import read_plantuml

KEYS = ("entities", "relations", "clusters", "notes")


def compare(text: str, stats: dict[str, object]) -> dict[str, tuple[int, object]]:
    """The counts that differ: name → (parsed, drawn)."""
    parsed = read_plantuml(text)[0]
    if stats["diagram_type"] == "sequence" and parsed.kind == "sequence":
        return {}
    counts = dict(parsed.counts())
    if stats["diagram_type"] == "state":  # fork/join bars are drawn without a group
        counts["entities"] -= sum(e.kind in ("fork", "join")
                                  for e in getattr(parsed.diagram, "entities", ()))
    keys = [k for k in KEYS if not (k == "clusters" and stats["diagram_type"] == "state")]
    return {k: (counts.get(k, -1), stats[k]) for k in keys if counts.get(k, -1) != stats[k]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--show", type=int, default=3)
    parser.add_argument("--kinds", default=",".join(KINDS),
                        help="comma-separated kinds of diagram to generate")
    args = parser.parse_args()
    diagrams = corpus(args.n, args.seed, tuple(args.kinds.split(",")))
    start = time.perf_counter()
    stats = render_statistics([t for _, t in diagrams], jobs=args.jobs)
    print(f"rendered {len(diagrams)} diagrams in {time.perf_counter() - start:.1f} s")
    total: Counter[str] = Counter()
    agree: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    by_count: Counter[str] = Counter()
    examples: dict[str, list[tuple[str, dict[str, tuple[int, object]]]]] = defaultdict(list)
    for (kind, text), s in zip(diagrams, stats, strict=True):
        if s is None:
            failed[kind] += 1
            continue
        total[kind] += 1
        diff = compare(text, s)
        if not diff:
            agree[kind] += 1
            continue
        for k in diff:
            by_count[f"{kind}.{k}"] += 1
        if len(examples[kind]) < args.show:
            examples[kind].append((text, diff))
    for kind in sorted(total):
        print(f"{kind:10} {agree[kind]:6}/{total[kind]:<6} agree "
              f"({100 * agree[kind] / total[kind]:.2f} %), {failed[kind]} not rendered")
    print(f"all        {sum(agree.values())}/{sum(total.values())} agree")
    for name, n in by_count.most_common():
        print(f"  disagreement {name}: {n}")
    for kind, found in examples.items():
        for text, diff in found:
            print(f"--- {kind} {diff}\n{text}")
    # reader speed per kind
    for kind in sorted({k for k, _ in diagrams}):
        texts = [t for k, t in diagrams if k == kind]
        start = time.perf_counter()
        for text in texts:
            read_plantuml(text)
        seconds = time.perf_counter() - start
        print(f"parse {kind:10} {len(texts) / seconds:8.0f} diagrams/s")


if __name__ == "__main__":
    main()
