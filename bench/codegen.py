"""Cost of the two prompting approaches of `eval codegen`, offline.

For each approach alone (all-in-one, sequential), runs `diagbench eval codegen` with
baseline:synth into a fresh directory, then `diagbench score codegen` on it (the
same scoring from the saved responses: render and measure every code, no model
call), and prints side by side: samples, model calls, seconds of eval and of score,
samples per second, and the ratio sequential / all-in-one. With --runs N, every time
is the median of N runs.

Usage: python bench/codegen.py [--per-category 2] [--categories LIST] [--languages LIST]
       [--jobs 2] [--runs 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

APPROACHES = ("all-in-one", "sequential")


def _timed(*args: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "diagbench", *args], check=True,
                   capture_output=True)
    return time.perf_counter() - start


def one_run(args: argparse.Namespace, prompting: str, run: Path) -> dict:
    """Seconds of eval and of score, samples and calls, for one approach."""
    options = ("--categories", args.categories, "--languages", args.languages,
               "--per-category", str(args.per_category), "--jobs", str(args.jobs),
               "--prompting", prompting)
    evaluate = _timed("eval", "codegen", "--model", "baseline:synth", "--out", str(run),
                      *options)
    score = _timed("score", "codegen", str(run))
    calls = len((run / "models" / "baseline_synth" / "responses.jsonl").read_text(
        encoding="utf-8").splitlines())
    samples = len((run / "scores.jsonl").read_text(encoding="utf-8").splitlines())
    return {"eval": evaluate, "score": score, "calls": calls, "samples": samples}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-category", type=int, default=2)
    parser.add_argument("--categories", default="class,sequence,flowchart")
    parser.add_argument("--languages", default="plantuml,dot")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows: dict[str, dict] = {}
    for prompting in APPROACHES:
        runs = []
        for k in range(args.runs):
            with tempfile.TemporaryDirectory(prefix="bench-codegen-") as tmp:
                runs.append(one_run(args, prompting, Path(tmp) / f"run{k}"))
        rows[prompting] = {"samples": runs[0]["samples"], "calls": runs[0]["calls"],
                           "eval_s": statistics.median(r["eval"] for r in runs),
                           "score_s": statistics.median(r["score"] for r in runs)}
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"{'approach':<12} {'samples':>7} {'calls':>6} {'eval s':>8} {'score s':>8} "
          f"{'eval samples/s':>15}")
    for name, r in rows.items():
        print(f"{name:<12} {r['samples']:>7} {r['calls']:>6} {r['eval_s']:>8.1f} "
              f"{r['score_s']:>8.1f} {r['samples'] / r['eval_s']:>15.2f}")
    a, s = rows["all-in-one"], rows["sequential"]
    print(f"sequential / all-in-one: calls {s['calls'] / a['calls']:.2f}x, eval "
          f"{s['eval_s'] / a['eval_s']:.2f}x, score {s['score_s'] / a['score_s']:.2f}x")


if __name__ == "__main__":
    main()
