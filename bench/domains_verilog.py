"""Diagrams per second of Verilog: reading (Yosys's `read_verilog; proc; opt` and
`write_json`, Icarus Verilog's second opinion, the model) and rendering (netlistsvg in
its warm Node process, PNG by rsvg-convert; then SVG from the same drawing), on the
generator's designs and on the real files; and whether batching several sources in
one Yosys run would pay (Yosys alone: one run a source against one run for all).

Usage: python bench/domains_verilog.py [--diagrams N] [--jobs J] [--real FOLDER]
(default 10 designs per complexity level, 2 jobs, the yosys-tests real files)
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import time
from pathlib import Path

from diagbench.languages import named
from diagbench.languages.verilog.read import _read
from diagbench.languages.verilog.yosys import RECIPE, unsafe
from diagbench.render.programs import program, run_program

REAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "realworld" \
    / "yosys-tests-verilog" / "tests"


def rates(label: str, codes: list[str], jobs: int) -> str:
    """One row: the codes read (cold cache) and rendered per second."""
    language = named("verilog")
    _read.cache_clear()
    start = time.perf_counter()
    for code in codes:
        language.read(code)
    read = len(codes) / (time.perf_counter() - start)
    engine = language.make_engine(jobs, 60.0)
    engine.render(codes[:1], Path(tempfile.mkdtemp()), "svg")  # Node starting: not timed
    out = Path(tempfile.mkdtemp(prefix="diagbench-bench-"))
    try:
        start = time.perf_counter()
        pngs = engine.render(codes, out, "png")
        png = len(codes) / (time.perf_counter() - start)
        start = time.perf_counter()
        engine.render(codes, out, "svg")
        svg = len(codes) / (time.perf_counter() - start)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    valid = sum(r.ok for r in pngs)
    return f"{label:10} {len(codes):5} {read:9.1f} {png:9.2f} {svg:9.0f} {valid:5}"


def batching(codes: list[str]) -> str:
    """Yosys alone, seconds a source: one run each, and one run for all of them."""
    with tempfile.TemporaryDirectory() as folder:
        for k, code in enumerate(codes):
            Path(folder, f"d{k}.v").write_text(code, encoding="utf-8")
        start = time.perf_counter()
        for k in range(len(codes)):
            run_program([program("yosys"), "-q", "-p",
                         RECIPE.replace("design.v", f"d{k}.v") + f"; write_json d{k}.json"],
                        60, jail=folder)
        alone = (time.perf_counter() - start) / len(codes)
        script = "; ".join(RECIPE.replace("design.v", f"d{k}.v") + f"; write_json d{k}.json;"
                           " design -reset" for k in range(len(codes)))
        start = time.perf_counter()
        run_program([program("yosys"), "-q", "-p", script], 600, jail=folder)
        batched = (time.perf_counter() - start) / len(codes)
    return (f"Yosys alone: {alone * 1000:.1f} ms a source one run each, "
            f"{batched * 1000:.1f} ms batched ({alone / batched:.1f}×)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--diagrams", type=int, default=10, help="designs per complexity")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--real", type=Path, default=REAL)
    args = parser.parse_args()
    language = named("verilog")
    generated = [language.generate(random.Random(seed), level)
                 for level in ("low", "medium", "high") for seed in range(args.diagrams)]
    real = [p.read_text(encoding="utf-8") for p in sorted(args.real.glob("*/*.v"))]
    real = [code for code in real if unsafe(code.split("\n")) is None]
    print(f"{'codes':10} {'count':>5} {'read/s':>9} {'render/s':>9} {'+svg/s':>9} "
          f"{'valid':>5}")
    print(rates("generated", generated, args.jobs))
    if real:
        print(rates("real", real, args.jobs))
    print(batching(generated))


if __name__ == "__main__":
    main()
