"""Diagrams per second of Plotly figure JSON (charts and tables) on the `plotly` engine
(Kaleido: plotly.js in Chromium), and what batching Kaleido would give.

1. Reading: the reader (Plotly's validation) on the synth's figures and on plotly.js'
   own test figures (`../shared/data/realworld/plotly-mocks`, `plotly-table-mocks`).
2. The engine: starting its one browser (an empty figure), then the synth's figures
   rendered to SVG and to PNG, one figure after another through its worker.
3. Kaleido alone, in this process, on the same figures: figure after figure with its
   sync server (one tab), and its batch API (`Kaleido(n).write_fig_from_object`) with
   one and two tabs, to show what the worker's framing costs and what tabs working
   side by side would give.

Usage: python bench/domains_plotly.py [--diagrams N]  (default 10 per complexity level)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import tempfile
import time
from pathlib import Path

from diagbench.languages import named
from diagbench.languages.plotly.engine import PlotlyEngine, drawable
from diagbench.render.chromium import chromium

REALWORLD = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "realworld"


def _rate(count: int, start: float) -> float:
    return count / (time.perf_counter() - start)


def reading(codes: list[str]) -> None:
    language = named("plotly")
    language.read(codes[0])  # imports Plotly: not timed
    start = time.perf_counter()
    for code in codes:
        language.read(code)
    print(f"read, synth figures:    {_rate(len(codes), start):7.1f} figures/s ({len(codes)})")
    real = [p.read_text(encoding="utf-8") for folder in ("plotly-mocks", "plotly-table-mocks")
            for p in sorted((REALWORLD / folder).rglob("*.json"))]
    start = time.perf_counter()
    for code in real:
        language.read(code)
    print(f"read, plotly.js' mocks: {_rate(len(real), start):7.1f} figures/s ({len(real)})")


def engine(codes: list[str]) -> None:
    out = Path(tempfile.mkdtemp(prefix="diagbench-bench-"))
    try:
        plotly = PlotlyEngine(timeout=60.0)
        start = time.perf_counter()
        plotly.render(['{"data": []}'], out, "svg")
        print(f"engine: browser start   {time.perf_counter() - start:7.2f} s")
        for fmt in ("svg", "png"):
            start = time.perf_counter()
            results = plotly.render(codes, out, fmt)
            print(f"engine: render {fmt}      {_rate(len(codes), start):7.2f} figures/s "
                  f"({sum(r.ok for r in results)} of {len(codes)} valid)")
    finally:
        shutil.rmtree(out, ignore_errors=True)


def kaleido_alone(codes: list[str]) -> None:
    import kaleido

    figures = [drawable(code)[0] for code in codes]
    figures = [json.loads(json.dumps(f, default=lambda a: a.tolist())) for f in figures if f]
    kaleido.start_sync_server(n=1, timeout=None, mathjax=False, path=chromium(),
                              silence_warnings=True)
    kaleido.calc_fig_sync({"data": []}, opts={"format": "svg"})
    start = time.perf_counter()
    for figure in figures:
        kaleido.calc_fig_sync(figure, opts={"format": "svg"})
    print(f"kaleido sync server:    {_rate(len(figures), start):7.2f} figures/s (svg, 1 tab)")
    kaleido.stop_sync_server(silence_warnings=True)
    for tabs in (1, 2):
        out = Path(tempfile.mkdtemp(prefix="diagbench-bench-"))
        try:
            start = time.perf_counter()
            asyncio.run(_batch(figures, out, tabs))
            print(f"kaleido batch, {tabs} tab{'s' if tabs > 1 else ' '}: "
                  f"{_rate(len(figures), start):7.2f} figures/s (svg, browser start included)")
        finally:
            shutil.rmtree(out, ignore_errors=True)


async def _batch(figures: list[dict], out: Path, tabs: int) -> None:
    import kaleido

    async with kaleido.Kaleido(n=tabs, mathjax=False, path=chromium()) as k:
        await k.write_fig_from_object([{"fig": f, "path": out / f"{i}.svg"}
                                       for i, f in enumerate(figures)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--diagrams", type=int, default=10, help="figures per complexity level")
    args = parser.parse_args()
    language = named("plotly")
    codes = [language.generate(random.Random(seed), level)
             for level in ("low", "medium", "high") for seed in range(args.diagrams)]
    reading(codes)
    engine(codes)
    kaleido_alone(codes)


if __name__ == "__main__":
    main()
