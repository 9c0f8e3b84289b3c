"""Rendering throughput: one JVM per diagram vs the warm-JVM engine with 1 and 2 workers.

Renders the same mixed corpus (half sequence, half class diagrams, to PNG)
three ways in one run and prints diagrams/s and the speed-up over one JVM per
diagram, which is how the STRUDEL toolkit calls PlantUML (target: 15x). Then
Mermaid flowcharts: one browser per diagram vs one browser per worker.
Usage: python bench/render.py [--diagrams N] [--baseline N] [--mermaid N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.plantuml_batch import render_batch

from diagbench.render.mermaid import MermaidEngine
from diagbench.render.plantuml_pipe import PlantUMLEngine
from synthetic import synthetic_class_diagram, synthetic_diagram

TARGET_SPEEDUP = 15.0


def corpus(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [synthetic_diagram(rng, (20, 80)) if k % 2 == 0 else synthetic_class_diagram(rng)
            for k in range(n)]


def one_jvm_each(sources: list[str]) -> tuple[float, int]:
    start = time.perf_counter()
    valid = 0
    for source in sources:
        batch = render_batch([source], fmt="png")
        valid += batch.returncode == 0 and bool(batch.images[0])
        shutil.rmtree(batch.images[0][0].parent, ignore_errors=True) if batch.images[0] else None
    return time.perf_counter() - start, valid


def batched(engine, sources: list[str]) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        results = engine.render(sources, Path(out), "png")
        return time.perf_counter() - start, sum(r.ok for r in results)


def one_browser_each(sources: list[str]) -> tuple[float, int]:
    seconds, valid = 0.0, 0
    for source in sources:
        spent, ok = batched(MermaidEngine(jobs=1), [source])
        seconds, valid = seconds + spent, valid + ok
    return seconds, valid


def table(rows: list[tuple[str, int, float, int]]) -> None:
    base_rate = rows[0][1] / rows[0][2]
    print(f"{'':24}{'diagrams':>9}{'valid':>7}{'seconds':>9}{'diagrams/s':>12}{'speed-up':>10}")
    for label, n, seconds, valid in rows:
        rate = n / seconds
        print(f"{label:24}{n:>9}{valid:>7}{seconds:>9.1f}{rate:>12.2f}{rate / base_rate:>9.1f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--diagrams", type=int, default=500)
    ap.add_argument("--baseline", type=int, default=None,
                    help="Time one JVM per diagram on only this many (default: all).")
    ap.add_argument("--mermaid", type=int, default=100, help="Mermaid flowcharts to render.")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    sources = corpus(args.diagrams, args.seed)
    sample = sources[:args.baseline] if args.baseline else sources
    print(f"corpus: {len(sources)} diagrams (half sequence, half class), PNG")
    rows = [("one JVM per diagram", len(sample), *one_jvm_each(sample)),
            ("warm JVM, 1 worker", len(sources), *batched(PlantUMLEngine(jobs=1), sources)),
            ("warm JVMs, 2 workers", len(sources), *batched(PlantUMLEngine(jobs=2), sources))]
    table(rows)
    best = rows[2][1] / rows[2][2] / (rows[0][1] / rows[0][2])
    print(f"2 workers vs one JVM per diagram: {best:.1f}x (target {TARGET_SPEEDUP:.0f}x)")
    if args.mermaid:
        charts = [f"graph TD\n  A{k}[start {k}] --> B{k}{{check}}\n  B{k} -->|yes| C{k}\n"
                  f"  B{k} -->|no| A{k}\n" for k in range(args.mermaid)]
        print(f"\nMermaid: {len(charts)} flowcharts, PNG")
        table([("one browser per diagram", 10, *one_browser_each(charts[:10])),
               ("1 browser", len(charts), *batched(MermaidEngine(jobs=1), charts)),
               ("2 browsers", len(charts), *batched(MermaidEngine(jobs=2), charts))])


if __name__ == "__main__":
    main()
