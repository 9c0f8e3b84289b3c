"""Diagrams per second of the chess boards (FEN, issue 31): reading (the strict reader on
the generator's codes), rendering (the `board` engine: the SVG written in-process, the
PNG by rsvg-convert, `--jobs` at a time) and the best move (Stockfish through UCI, one
thread, `NODES` nodes, MultiPV 2, a second search at twice the nodes when the first
finds a unique move; one Stockfish process for all positions).

The generator writes `--diagrams` codes per complexity level (seeded); the reader is
timed after one untimed read.
Usage: python bench/domains_chess.py [--diagrams N] [--jobs J]  (default 10, 2)
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from diagbench.languages import make_engine, named
from diagbench.languages.fen.facts import NODES, best_move
from diagbench.languages.fen.uci import Stockfish

T = TypeVar("T")


def per_second(work: Callable[[], T], count: int) -> tuple[float, T]:
    """(`count` / the seconds `work` takes, what it returned)."""
    start = time.perf_counter()
    done = work()
    return count / (time.perf_counter() - start), done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--diagrams", type=int, default=10, help="codes per complexity level")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    language = named("fen")
    synth = language.generate
    codes = [synth(random.Random(seed), level) for level in ("low", "medium", "high")
             for seed in range(args.diagrams)]
    language.read(codes[0])  # imports the reader: not timed
    read, _ = per_second(lambda: [language.read(code) for code in codes], len(codes))
    engine = make_engine(language.engine, args.jobs, 60.0)
    with tempfile.TemporaryDirectory(prefix="diagbench-bench-") as out:
        png, pngs = per_second(lambda: engine.render(codes, Path(out), "png"), len(codes))
    with Stockfish() as stockfish:
        best, moves = per_second(lambda: [best_move(stockfish, code) for code in codes],
                                 len(codes))
    kept = sum(move is not None for move in moves)
    print(f"{'language':8} {'engine':6} {'codes':>5} {'read/s':>9} {'render/s':>9} "
          f"{'valid':>5} {'best/s':>7} {'kept':>4}  (Stockfish {NODES:,} nodes)")
    print(f"{'fen':8} {language.engine:6} {len(codes):5} {read:9.0f} {png:9.1f} "
          f"{sum(r.ok for r in pngs):5} {best:7.2f} {kept:4}")


if __name__ == "__main__":
    main()
