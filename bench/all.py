"""Every row of the speed table in one run: now beside its floor or peer, ratio and goal.

Rows (each in its own process, medians over --runs runs, each side by side with its
floor or peer in the same run):
- semantic compare, ~50-line pairs: CPU ms/pair vs the floor (parse both scripts, one
  rapidfuzz cdist over the labels, one linear_sum_assignment); goal <= 2x;
- `diagbench render` of 200 small PlantUML diagrams, whole process, vs one JVM per
  diagram; goal >= 30x;
- the runner against a local OpenAI-compatible server, 64 connections, vs inspect_ai on
  the same server; goal >= 4x, and harness CPU per request halved;
- parse_sequence: diagrams/s vs splitting the same texts into lines; goal >= 5,000/s;
- memory: peak traced MB of compare (both methods) and of parse at 1,000 and 10,000.
With --base DIR (a checkout, e.g. `git worktree add /tmp/base HEAD~N`), every row is
also run on DIR/src, alternating with this tree, and printed beside it ("before").
CI does not run this. Usage: python bench/all.py [--runs R] [--base DIR] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
PARSE_GOAL = 5_000


def parse_row(diagrams: int, runs: int) -> dict:
    """parse_sequence diagrams/s beside str.splitlines on the same corpus (alternating
    chunks, CPU time), and peak memory parsing 1,000 and `diagrams` one at a time."""
    sys.path.insert(0, str(BENCH))
    from diagbench.formats.plantuml import parse_sequence
    from synthetic import synthetic_diagram

    rng = random.Random(0)
    corpus = [synthetic_diagram(rng) for _ in range(diagrams)]
    rates, floors = [], []
    for _ in range(runs):
        spent = [0.0, 0.0]
        for k in range(0, min(len(corpus), 2000), 100):
            part = corpus[k:k + 100]
            start = time.process_time()
            for text in part:
                parse_sequence(text)
            middle = time.process_time()
            for text in part:
                text.splitlines()
            spent[0] += middle - start
            spent[1] += time.process_time() - middle
        n = min(len(corpus), 2000)
        rates.append(n / spent[0])
        floors.append(n / spent[1])

    def peak(texts: list[str]) -> float:
        tracemalloc.start()
        for text in texts:
            parse_sequence(text)
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return top / 1e6

    return {"rate": statistics.median(rates), "split_rate": statistics.median(floors),
            "memory": {"small": peak(corpus[:1000]), "large": peak(corpus),
                       "n_small": min(1000, len(corpus)), "n_large": len(corpus)}}


def run_json(command: list[str], base: Path | None) -> dict:
    """Run a bench in its own process (on `base`/src when given); its last line, as JSON."""
    env = dict(os.environ)
    if base is not None:
        env["PYTHONPATH"] = str(base / "src")
    done = subprocess.run([sys.executable, *command], cwd=REPO, env=env, capture_output=True,
                          text=True, check=False)
    if done.returncode:
        return {"error": (done.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def rows(args: argparse.Namespace, base: Path | None) -> dict[str, dict]:
    quick = args.quick
    runs = str(args.runs)
    return {
        "compare": run_json([str(BENCH / "compare.py"), "--json", "--runs", runs,
                             "--pairs", "2000" if quick else "10000",
                             "--floor-pairs", "300" if quick else "1000"], base),
        # the checkout's own script: the engine's modules differ between versions
        "render": run_json([str((base or REPO) / "bench" / "render.py"), "--whole", "--json",
                            "--runs", runs,
                            "--diagrams", "40" if quick else "200",
                            "--baseline", "4" if quick else "10"], base),
        "runner": run_json([str(BENCH / "runner.py"), "--json", "--runs", runs,
                            "--requests", "1000" if quick else "5000"], base),
        "parse": run_json([str(Path(__file__).resolve()), "--row", "parse", "--runs", runs,
                           "--diagrams", "2000" if quick else "10000"], base),
    }


def cells(name: str, r: dict) -> list[str]:
    """(now, floor or peer, ratio) of one row, as printed."""
    if "error" in r:
        return [f"failed: {r['error']}"[:60], "", ""]
    if name == "compare":
        f = r["floor"]
        return [f"{f['now_ms']:.3f} ms/pair", f"{f['floor_ms']:.3f} ms/pair (floor)",
                f"{f['ratio']:.2f}x the floor"]
    if name == "render":
        floor = (f"; warm-JVM floor {r['floor_ms']:.0f} ms/diagram = {r['floor_ratio']:.1f}x"
                 if "floor_ms" in r else "")
        return [f"{r['whole_ms']:.0f} ms/diagram ({r['whole_cpu_ms']:.0f} CPU)",
                f"{r['jvm_ms']:.0f} ms/diagram ({r['jvm_cpu_ms']:.0f} CPU), 1 JVM each",
                f"{r['ratio']:.1f}x faster (CPU {r['cpu_ratio']:.1f}x){floor}"]
    if name == "runner":
        if r["inspect_rps"] is None:
            return [f"{r['ours_rps']:.0f} req/s, {r['ours_cpu_ms']:.2f} ms CPU/req",
                    "inspect_ai skipped", ""]
        return [f"{r['ours_rps']:.0f} req/s, {r['ours_cpu_ms']:.2f} ms CPU/req",
                f"{r['inspect_rps']:.0f} req/s, {r['inspect_cpu_ms']:.2f} ms CPU/req (inspect_ai)",
                f"{r['ratio']:.2f}x inspect_ai"]
    return [f"{r['rate']:,.0f} diagrams/s", f"{r['split_rate']:,.0f}/s (split into lines)",
            f"split {r['split_rate'] / r['rate']:.0f}x faster"]


GOALS = {"compare": "<= 2x the floor", "render": ">= 30x",
         "runner": ">= 4x, CPU/req halved", "parse": f">= {PARSE_GOAL:,} diagrams/s"}
TITLES = {"compare": "semantic compare, ~50-line pairs",
          "render": "diagbench render, 200 small PlantUML, whole process",
          "runner": "runner, local OpenAI-compatible server, 64 connections",
          "parse": "parse_sequence, one core"}


def memory_lines(label: str, r: dict[str, dict]) -> list[str]:
    out = []
    compare, parse = r["compare"], r["parse"]
    for method, m in ({} if "error" in compare else compare["memory"]).items():
        out.append(f"  {label:7}compare {method:<9} peak MB at {m['pairs_small']:,}: "
                   f"{m['small']:6.2f}   at {m['pairs_large']:,}: {m['large']:6.2f}")
    if "error" not in parse:
        m = parse["memory"]
        out.append(f"  {label:7}parse_sequence    peak MB at {m['n_small']:,}: {m['small']:6.2f}"
                   f"   at {m['n_large']:,}: {m['large']:6.2f}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--base", type=Path, help="A checkout to measure as 'before'.")
    ap.add_argument("--quick", action="store_true", help="Smaller corpora (a smoke test).")
    ap.add_argument("--row", help=argparse.SUPPRESS)
    ap.add_argument("--diagrams", type=int, default=10_000, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.row == "parse":
        print(json.dumps(parse_row(args.diagrams, args.runs)))
        return
    before = rows(args, args.base) if args.base else None
    now = rows(args, None)
    sides = [("before", before), ("now", now)] if before else [("now", now)]
    print(f"medians of {args.runs} runs; each figure beside its floor or peer, same run")
    for name in ("compare", "render", "runner", "parse"):
        print(f"\n{TITLES[name]}  (goal {GOALS[name]})")
        for label, result in sides:
            if result is not None:
                now_cell, peer, ratio = cells(name, result[name])
                print(f"  {label:7}{now_cell:<34}{peer:<52}{ratio}")
    print("\nmemory (must stay flat):")
    for label, result in sides:
        if result is not None:
            print("\n".join(memory_lines(label, result)))


if __name__ == "__main__":
    main()
