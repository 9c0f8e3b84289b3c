"""Rendering throughput under Ray against the local executor, side by side in one run.

The same mixed PlantUML corpus (half sequence, half class diagrams, as bench/render.py
makes it) is rendered to PNG by `diagbench.languages.rendering.render_files` with the local
engine (`--jobs` warm JVMs) and with `--executor ray` (`--jobs` renderer actors on a
local Ray instance), alternating over `--runs` runs; prints the Ray start-up, the first
Ray render (actors and JVMs starting), the medians, diagrams/s and the ratio, and checks
that both gave the same images. On one small machine Ray cannot gain: the figure is
its overhead. With --whole: also the whole `diagbench render` command, once each way.
Usage: python bench/render_ray.py [--diagrams 100] [--jobs 2] [--runs 3] [--whole]
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from diagbench.executors.local import LocalExecutor
from diagbench.executors.ray import RayExecutor
from diagbench.languages import source_files
from diagbench.languages.rendering import collect, render_files
from render import corpus

BIN = Path(sys.executable).parent


def _render(src: Path, out: Path, jobs: int, engines) -> float:
    shutil.rmtree(out, ignore_errors=True)
    items = collect(source_files([src]))
    start = time.perf_counter()
    records = render_files(items, out, jobs=jobs, engines=engines)
    seconds = time.perf_counter() - start
    assert all(r.ok for r in records), [r.reason for r in records if not r.ok][:3]
    return seconds


def _digest(root: Path) -> str:
    return hashlib.sha256(b"".join(hashlib.sha256(p.read_bytes()).digest()
                                   for p in sorted(root.rglob("*.png")))).hexdigest()


def _whole(src: Path, out: Path, *args: str) -> float:
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    subprocess.run([str(BIN / "diagbench"), "render", str(src), "--out", str(out), *args],
                   check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--diagrams", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--whole", action="store_true")
    args = parser.parse_args()
    n = args.diagrams
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        for k, text in enumerate(corpus(n, args.seed)):
            (src / f"d{k:04d}.puml").write_text(text, encoding="utf-8")
        local_out, ray_out = Path(tmp) / "local", Path(tmp) / "ray"
        start = time.perf_counter()
        ray = RayExecutor()
        init = time.perf_counter() - start
        try:
            first = _render(src, ray_out, args.jobs, ray.engine)
            local, warm = [], []
            for _ in range(args.runs):
                local.append(_render(src, local_out, args.jobs, LocalExecutor().engine))
                warm.append(_render(src, ray_out, args.jobs, ray.engine))
        finally:
            ray.close()
        same = _digest(local_out) == _digest(ray_out)
        print(f"{n} PlantUML diagrams to PNG, {args.jobs} workers, median of {args.runs} runs")
        print(f"{'':<34}{'seconds':>9}{'diagrams/s':>12}{'vs local':>10}")
        lm = statistics.median(local)
        rows = [("local (warm JVMs)", lm), ("ray, actors already up", statistics.median(warm)),
                ("ray, first render (actors start)", first)]
        for name, seconds in rows:
            print(f"{name:<34}{seconds:>9.2f}{n / seconds:>12.1f}{seconds / lm:>9.2f}x")
        print(f"{'ray.init (local instance)':<34}{init:>9.2f}")
        print(f"same images (sha256): {same}")
        if args.whole:
            a = _whole(src, local_out)
            b = _whole(src, ray_out, "--executor", "ray")
            print(f"whole `diagbench render`: local {a:.2f} s, --executor ray {b:.2f} s "
                  f"({b / a:.2f}x)")


if __name__ == "__main__":
    main()
