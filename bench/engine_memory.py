"""Peak memory of each browser, Node and Stockfish engine alone, this code beside another.

For each engine (Mermaid, bpmn-js and Plotly/Kaleido in Chromium; DBML and netlistsvg in
Node; Stockfish reading the chess facts), a child process whose import path is the code
measured draws N samples of the engine's language's own synthetic generator (seeded, its
three complexity levels in turn; baseline:synth's diagrams for Mermaid and DBML, which
have none) as PNG and then SVG with `--jobs` workers — Stockfish
reads the N boards' facts instead. The parent samples the child's process tree every
0.2 s from /proc (the sum of proportional set sizes, `structure_build._tree_memory`) and
prints, per engine, the peak PSS and the largest programs at the peak, the samples per
second (engine start included), how many were drawn, and — with --compare-with SRC
(another checkout's `src`, e.g. main's: its `tools/` are the ones beside it) — the same
with that code side by side, and whether every image (or the facts) is byte-identical
(sha256; with --runs 2 or more, files that differ between runs of the same code — the
random marker ids of bpmn-js's SVG — are counted apart). With --runs N, figures are
medians of N runs taking turns (this, the other, …) so that a changing load meets both
alike. The load average is printed before and after.

Usage: python bench/engine_memory.py [--samples 20] [--engines LIST] [--jobs 2]
       [--runs 1] [--seed 0] [--compare-with SRC]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from structure_build import _tree_memory

SRC = Path(__file__).resolve().parents[1] / "src"
#: engine name → the language whose generator writes its samples.
ENGINES = {"mermaid": "mermaid", "bpmn": "bpmn", "plotly": "plotly", "dbml": "dbml",
           "netlistsvg": "verilog", "netlistsvg-analog": "spice", "stockfish": "fen"}
LEVELS = ("low", "medium", "high")
#: the categories baseline:synth draws in turn for a language without a generator.
CATEGORIES = {"mermaid": ("class", "flowchart", "state", "er", "gantt", "mind-map"),
              "dbml": ("er",)}


def child(engine: str, samples: int, seed: int, jobs: int, out: Path) -> dict:
    """Draw (or, for Stockfish, read the facts of) `samples` generated samples into
    `out`: the seconds, how many were drawn, and each output's sha256."""
    from diagbench.languages import make_engine, named

    language = named(ENGINES[engine])
    rng = random.Random(seed)
    codes = [_code(language, rng, k) for k in range(samples)]
    if engine == "stockfish":
        boards = [language.read(code)[0].diagram for code in codes]
        start = time.perf_counter()
        language.facts_ahead(boards)
        facts = [repr(language.facts(board)) for board in boards]
        seconds = time.perf_counter() - start
        return {"seconds": seconds, "drawn": len(facts),
                "hashes": {"facts": hashlib.sha256("\n".join(facts).encode()).hexdigest()}}
    out.mkdir()
    start = time.perf_counter()
    drawer = make_engine(engine, jobs, 60.0)
    drawn = 0
    for fmt in ("png", "svg"):
        drawn += sum(r.ok for r in drawer.render(codes, out, fmt))
    close = getattr(drawer, "close", None)
    if close is not None:
        close()
    seconds = time.perf_counter() - start
    hashes = {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
              for p in sorted(out.iterdir()) if p.is_file()}
    return {"seconds": seconds, "drawn": drawn, "hashes": hashes}


def _code(language: Any, rng: random.Random, k: int) -> str:
    """The `k`-th sample: the language's own generator's, or else baseline:synth's diagram
    of its `CATEGORIES` in turn, as `bench/structure_build.py` draws them."""
    level = LEVELS[k % 3]
    try:
        return str(language.generate(rng, level))
    except NotImplementedError:
        from diagbench.benchmarks.structure.synth import synth_diagram

        categories = CATEGORIES[language.name]
        category = categories[k % len(categories)]
        return synth_diagram(category, language.name, level, "e-commerce", rng)[1]


def one_run(args: argparse.Namespace, engine: str, src: Path) -> dict:
    """One child's figures for `engine` with the code in `src`, with its tree's peak PSS."""
    with tempfile.TemporaryDirectory(prefix="bench-mem-") as tmp:
        command = [sys.executable, str(Path(__file__).resolve()), "--child", engine, "--out", tmp,
                   "--samples", str(args.samples), "--seed", str(args.seed),
                   "--jobs", str(args.jobs)]
        env = dict(os.environ, PYTHONPATH=str(src))
        process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, cwd=tmp)
        peak, top = 0, {}
        while process.poll() is None:
            _rss, pss, by_command, _branches = _tree_memory(process.pid)
            if pss > peak:
                peak, top = pss, by_command
            time.sleep(0.2)
        output = process.stdout.read() if process.stdout else b""
        if process.returncode:
            raise SystemExit(f"{engine} by {src} failed (exit {process.returncode})")
        return json.loads(output.decode().splitlines()[-1]) | {"peak": peak, "top": top}


def _identity(runs: dict[str, list[dict]]) -> str:
    """Whether the outputs are byte-identical across the codes: files that already differ
    between two runs of the same code (needs --runs 2) are counted apart as unstable."""
    first = runs["this"][0]["hashes"]
    unstable = {f for done in runs.values() for r in done[1:] for f in first
                if r["hashes"].get(f) != done[0]["hashes"].get(f)}
    differ = sorted(f for done in runs.values() for f in first.keys() - unstable
                    if done[0]["hashes"].get(f) != first[f])
    note = (f"; {len(unstable)} differ between runs of the same code (e.g. "
            f"{', '.join(sorted(unstable)[:3])})" if unstable else "")
    if differ:
        return f"{len(differ)} of {len(first)} files DIFFER (e.g. {', '.join(differ[:3])}){note}"
    return f"{len(first) - len(unstable)} of {len(first)} files byte-identical (sha256){note}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--compare-with", type=Path, metavar="SRC")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        result = child(args.child, args.samples, args.seed, args.jobs, args.out / "out")
        print(json.dumps(result))
        return
    sources = {"this": SRC} | ({"other": args.compare_with.resolve()}
                               if args.compare_with else {})
    load = os.getloadavg()
    print(f"{args.samples} samples per engine (PNG + SVG), {args.jobs} jobs, median of "
          f"{args.runs} run(s); this: {SRC}" + (f", other: {sources['other']}"
                                                 if "other" in sources else ""))
    print(f"{'engine':<18} {'code':<6} {'peak PSS MB':>11} {'samples/s':>9} {'drawn':>6}  "
          "largest programs at the peak (MB)")
    for engine in args.engines.split(","):
        runs: dict[str, list[dict]] = {name: [] for name in sources}
        for _ in range(args.runs):
            for name, src in sources.items():
                runs[name].append(one_run(args, engine, src))
        for name, done in runs.items():
            peak = statistics.median(r["peak"] for r in done) / 2**20
            rate = args.samples / statistics.median(r["seconds"] for r in done)
            top = sorted(done[0]["top"].items(), key=lambda kv: -kv[1])[:4]
            print(f"{engine:<18} {name:<6} {peak:>11.0f} {rate:>9.2f} {done[0]['drawn']:>6}  "
                  + ", ".join(f"{c} {b / 2**20:.0f}" for c, b in top))
        print(f"{engine:<18} outputs: {_identity(runs)}")
    print("load average " + " → ".join("/".join(f"{x:.1f}" for x in pair)
                                       for pair in (load, os.getloadavg())))


if __name__ == "__main__":
    main()
