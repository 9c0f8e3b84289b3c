"""Throughput of `build structure` per stage, on a seeded offline build.

Builds the structure data set with baseline:synth writing the diagrams and
baseline:judge judging them (no key, no network), and prints, per stage —
synthesis, statistics (parse), render (PNG + SVG by the real engines, drawn counts),
filters, judge, questions (model-written, Fig. 10), captions (Fig. 10), tasks — the
seconds, the samples going in and samples per second, with each stage's share of the
whole build. With --runs N, every figure is the median of N builds (each into a fresh directory).

Usage: python bench/structure_build.py [--per-category 2] [--categories LIST]
       [--languages LIST] [--seed 0] [--jobs 2] [--runs 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from diagbench.benchmarks.structure.build import build_structure
from diagbench.benchmarks.registry import registered
from diagbench.benchmarks.structure.records import generator_settings

STAGES = ("synthesis", "statistics", "render", "filters", "judge", "questions", "captions",
          "tasks")


def one_build(args: argparse.Namespace, out: Path) -> dict:
    """timings.json of one seeded offline build into `out`."""
    registered()  # the benchmarks' offline models (baseline:synth, baseline:judge)
    settings = generator_settings("baseline:synth", 0.7, 4096, args.seed)
    judge = generator_settings("baseline:judge", 0.0, 1024, args.seed, "--judge")
    build_structure(out, settings, args.categories.split(","), args.languages.split(","),
                    args.per_category, ["low", "medium", "high"], args.seed, args.jobs,
                    judge=judge)
    timings: dict = json.loads((out / "timings.json").read_text(encoding="utf-8"))
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-category", type=int, default=2)
    parser.add_argument("--categories", default="class,sequence,component,usecase,state,er,"
                                                "flowchart")
    parser.add_argument("--languages", default="plantuml,mermaid,dot,dbml")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    runs = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="bench-structure-") as tmp:
            runs.append(one_build(args, Path(tmp) / "data"))
    total = statistics.median(r["total"] for r in runs)
    rows = []
    for stage in STAGES:
        seconds = statistics.median(r.get(stage, 0.0) for r in runs)
        n = runs[0]["samples_in"].get(stage, 0)
        rows.append({"stage": stage, "seconds": round(seconds, 3), "samples_in": n,
                     "samples_per_s": round(n / seconds, 1) if seconds else None,
                     "share": round(seconds / total, 3) if total else None})
    result = {"planned": runs[0]["samples"], "kept": runs[0]["kept"], "runs": args.runs,
              "total_seconds": round(total, 3),
              "samples_per_s": round(runs[0]["samples"] / total, 2), "stages": rows}
    if args.json:
        print(json.dumps(result))
        return
    print(f"build structure, baseline:synth + baseline:judge, seed {args.seed}: "
          f"{result['planned']} planned, {result['kept']} kept, median of {args.runs} run(s)")
    print(f"{'stage':<11} {'seconds':>8} {'samples in':>10} {'samples/s':>10} {'share':>6}")
    for r in rows:
        rate = "—" if r["samples_per_s"] is None else f"{r['samples_per_s']:.1f}"
        share = "—" if r["share"] is None else f"{100 * r['share']:.0f} %"
        print(f"{r['stage']:<11} {r['seconds']:>8.3f} {r['samples_in']:>10} {rate:>10} "
              f"{share:>6}")
    print(f"{'whole':<11} {total:>8.3f} {result['planned']:>10} "
          f"{result['samples_per_s']:>10.2f}")


if __name__ == "__main__":
    main()
