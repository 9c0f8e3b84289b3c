"""Chess boards' facts as a structure build reads them: one board after another on one
Stockfish, against `Language.facts_ahead` (two searches side by side) followed by the
facts one by one, in one run, taking turns (one by one, side by side, one by one, …) so
that a changing load meets both alike.

For N seeded boards of the generator (its three complexity levels in turn) it prints,
for each way, the median seconds, the boards per second, the Stockfish searches run and
the Stockfish processes it started, whether both give the same facts, and the load
average before and after. Each run starts with no board's move kept.

Usage: python bench/chess_facts.py [--boards 30] [--runs 3] [--seed 0]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any


def measure(boards: list[Any], ahead: bool) -> tuple[float, int, int, list[list[Any]]]:
    """(seconds, searches, Stockfish processes started, the facts of each board) of
    reading `boards`' facts, with `facts_ahead` first or not, nothing kept before."""
    from diagbench.languages import named
    from diagbench.languages.fen import facts as facts_module
    from diagbench.languages.fen import uci

    searches: list[int] = []
    started: list[int] = []
    analyse: Callable[..., Any] = uci.Stockfish.analyse
    init: Callable[..., Any] = uci.Stockfish.__init__

    def counted_analyse(self: Any, *args: Any, **kwargs: Any) -> Any:
        searches.append(id(self))
        return analyse(self, *args, **kwargs)

    def counted_init(self: Any, *args: Any, **kwargs: Any) -> None:
        started.append(1)
        init(self, *args, **kwargs)

    for engine in uci._IDLE.pop(os.getpid(), []):  # every run starts its own
        engine.close()
    facts_module.searched_best_move.cache_clear()
    uci.Stockfish.analyse, uci.Stockfish.__init__ = counted_analyse, counted_init
    try:
        fen = named("fen")
        start = time.perf_counter()
        if ahead:
            fen.facts_ahead(boards)
        facts = [fen.facts(board) for board in boards]
        seconds = time.perf_counter() - start
    finally:
        uci.Stockfish.analyse, uci.Stockfish.__init__ = analyse, init
    return seconds, len(searches), len(started), facts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=30)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    from diagbench.languages import named
    from diagbench.languages.fen.uci import stockfish_path

    if stockfish_path() is None:
        raise SystemExit("needs Stockfish (apt-get install stockfish)")
    fen = named("fen")
    rng = random.Random(args.seed)
    boards = [fen.read(fen.generate(rng, ("low", "medium", "high")[k % 3]))[0].diagram
              for k in range(args.boards)]
    load = os.getloadavg()
    done: dict[str, list[tuple[float, int, int, list[list[Any]]]]] = {
        "one by one": [], "side by side": []}
    for _ in range(args.runs):
        for name in done:
            done[name].append(measure(boards, name == "side by side"))
    after = os.getloadavg()
    print(f"{args.boards} boards, median of {args.runs} run(s) each; load average "
          + " → ".join("/".join(f"{x:.1f}" for x in pair) for pair in (load, after)))
    print(f"{'':<13} {'seconds':>8} {'boards/s':>9} {'searches':>9} {'Stockfishes':>12}")
    medians = {}
    for name, runs in done.items():
        seconds = statistics.median(r[0] for r in runs)
        medians[name] = seconds
        print(f"{name:<13} {seconds:>8.2f} {args.boards / seconds:>9.1f} {runs[0][1]:>9} "
              f"{runs[0][2]:>12}")
    same = all(r[3] == done["one by one"][0][3] for runs in done.values() for r in runs)
    print(f"side by side: {medians['one by one'] / medians['side by side']:.2f}× as fast; "
          f"facts {'the same' if same else 'DIFFER'}")


if __name__ == "__main__":
    main()
