"""What `build structure --twins` costs: one seeded offline build (baseline:synth,
baseline:judge) with every family of twins, its twins stage beside the render stage of
the originals (seconds, samples in, samples per second and the ratio), the twins made
and dropped per family, and the load average while it ran (the machine is shared:
compare the figures within one run).

Usage: python bench/structure_twins.py [--per-category 2] [--categories LIST]
       [--languages LIST] [--seed 0] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from diagbench.benchmarks.registry import registered
from diagbench.benchmarks.structure.build import build_structure
from diagbench.benchmarks.structure.records import generator_settings
from diagbench.languages import languages_of, names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-category", type=int, default=2)
    parser.add_argument("--categories", default="molecule,chess-board,music,quantum-circuit,"
                                                "class,flowchart")
    parser.add_argument("--languages", default=",".join(names()))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    registered()  # the benchmarks' offline models (baseline:synth, baseline:judge)
    settings = generator_settings("baseline:synth", 0.7, 4096, args.seed)
    judge = generator_settings("baseline:judge", 0.0, 1024, args.seed, "--judge")
    categories = args.categories.split(",")
    languages = [lang for lang in args.languages.split(",")
                 if any(lang in languages_of(c) for c in categories)]
    with tempfile.TemporaryDirectory(prefix="bench-twins-") as tmp:
        out = Path(tmp) / "data"
        info = build_structure(out, settings, categories, languages, args.per_category,
                               ["low", "medium", "high"], args.seed, args.jobs, judge=judge,
                               twins=("counterfactual", "style", "capture"))
        timings = json.loads((out / "timings.json").read_text(encoding="utf-8"))
    load = os.getloadavg()
    kept = timings["samples_in"]["twins"]
    print(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}; {kept} samples kept, "
          f"{timings['twins_made']} twins made")
    print(f"{'stage':<8} {'seconds':>8} {'samples in':>10} {'samples/s':>10}")
    for stage in ("render", "twins"):
        n = timings["samples_in"][stage]
        print(f"{stage:<8} {timings[stage]:>8.2f} {n:>10} {n / timings[stage]:>10.2f}")
    print(f"twins ÷ render: {timings['twins'] / timings['render']:.2f}; "
          f"twins ÷ whole build: {timings['twins'] / timings['total']:.2f}")
    for family, made in info.twins.items():
        dropped = ", ".join(f"{k} {v}" for k, v in made.dropped.items()) or "none dropped"
        print(f"{family}: {made.made} made; {dropped}")


if __name__ == "__main__":
    main()
