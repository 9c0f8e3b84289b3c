"""Diagrams per second of every domain engine, with its start-up and its floor.

For each language, seeded codes from its own generator (`Language.generate`; Mermaid's
from a small flowchart writer here) are rendered as a build renders them — PNG, then
SVG of the same codes, by one engine object — in three calls, each on new codes:
one diagram (the first call of this process: it starts the engine), `--diagrams`
diagrams, then one diagram again. With T(n) = start + n · floor for a call:
- `png+svg/s`: the `--diagrams` call's diagrams per second (PNG and SVG of each);
- `start s`: the first call's start-up (its time less one diagram's floor);
- `again s`: what a later call pays to start (0 when the engine stays warm between
  calls);
- `floor/s`: one warm engine drawing alone, 1 / floor, from the last two calls.
`png sha`, `svg sha` digest the PNGs and the SVGs of the `--diagrams` call (in order),
so that two runs (before and after a change) show whether the images stayed
byte-identical (bpmn-js' SVGs hold random marker ids: they differ from run to run).
The `fen facts` row times the chess facts (Stockfish's best move) of the same boards.
Side by side on the same inputs, in the same run (`--side-by-side`): VARNA in its warm
JVMs against one JVM per structure, the best-move search on the process's one
Stockfish against one Stockfish per board, and Mermaid's PNG and SVG batches on one
engine (its browser kept warm between them) against a fresh engine for each batch
(as each batch launched its own browser before).

Usage: python bench/engines.py [--diagrams N] [--jobs J] [--languages LIST] [--seed S]
       [--side-by-side]
(default 20, 1, every language listed in LANGUAGES below, 0)
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from diagbench.languages import make_engine, named

LANGUAGES = ("dotbracket", "fen", "newick", "fasta", "geojson", "mermaid", "bpmn", "plotly",
             "verilog", "spice", "qasm", "logic", "rdf", "onnx")
LEVELS = ("low", "medium", "high")


def codes(name: str, first: int, count: int, seed: int) -> list[str]:
    """`count` seeded codes of the language, numbered from `first`."""
    out = []
    for k in range(first, first + count):
        rng = random.Random(f"{seed}:{k}")
        if name == "mermaid":
            nodes = rng.randint(3, 12)
            edges = [f"  N{rng.randrange(nodes)} --> N{rng.randrange(nodes)}"
                     for _ in range(nodes + rng.randint(0, 4))]
            out.append("flowchart TD\n" + "\n".join(edges) + "\n")
        else:
            out.append(named(name).generate(rng, LEVELS[k % 3]))
    return out


def timed_call(engine, name: str, sources: list[str]) -> tuple[float, int, list[str]]:
    """(seconds, valid, the digests of the PNGs and of the SVGs) of one PNG call and one
    SVG call."""
    language = named(name)
    folder = Path(tempfile.mkdtemp(prefix="diagbench-bench-"))
    (folder / "png").mkdir()
    (folder / "svg").mkdir()
    try:
        start = time.perf_counter()
        pngs = engine.render([language.prepare(s, "", False) for s in sources], folder / "png",
                             "png")
        svgs = engine.render([language.prepare(s, "", True) for s in sources], folder / "svg",
                             "svg")
        seconds = time.perf_counter() - start
        digests = [hashlib.sha256(b"".join(r.image.read_bytes() if r.ok and r.image else b"-"
                                           for r in results)).hexdigest()[:12]
                   for results in (pngs, svgs)]
        return seconds, sum(r.ok for r in pngs), digests
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def measure(name: str, diagrams: int, jobs: int, seed: int) -> str:
    """One row: the three calls (see the module's docstring)."""
    language = named(name)
    engine = make_engine(language.engine, jobs, 60.0)
    first, _, _ = timed_call(engine, name, codes(name, 0, 1, seed))
    batch, valid, digests = timed_call(engine, name, codes(name, 1, diagrams, seed))
    again, _, _ = timed_call(engine, name, codes(name, diagrams + 1, 1, seed))
    floor = max(1e-6, (batch - again) / max(1, diagrams - 1))
    return (f"{name:10} {language.engine:17} {diagrams:4} {valid:5} {diagrams / batch:10.2f} "
            f"{max(0.0, first - floor):8.2f} {max(0.0, again - floor):8.2f} {1 / floor:8.2f} "
            f"{digests[0]} {digests[1]}")


def chess_facts(diagrams: int, seed: int) -> str:
    """The row of the chess facts (Stockfish) of `diagrams` boards."""
    language = named("fen")
    boards = [language.read(code)[0].diagram for code in codes("fen", 1, diagrams, seed)]
    start = time.perf_counter()
    asked = [language.facts(board) for board in boards]
    seconds = time.perf_counter() - start
    moves = sum(f.subject == "best_move" for facts in asked for f in facts)
    return (f"{'fen facts':10} {'stockfish':17} {diagrams:4} {moves:5} "
            f"{diagrams / seconds:10.2f}   (best moves asked: {moves})")


def side_by_side(diagrams: int, seed: int) -> None:
    """VARNA warm against one JVM a structure, and the best move on one Stockfish against
    one a board, on the same inputs: per second and whether the answers are the same."""
    from diagbench.languages.dotbracket.engine import _varna_once, run_varna
    from diagbench.languages.fen.facts import drawn_best_move
    from diagbench.languages.fen.uci import Stockfish, shared_stockfish

    models = [named("dotbracket").read(c)[0].diagram
              for c in codes("dotbracket", 1, diagrams, seed)]
    run_varna(models[0].sequence, models[0].structure, 60.0)  # the warm JVM started
    rates, outputs = [], []
    for draw in (run_varna, _varna_once):
        start = time.perf_counter()
        outputs.append([draw(m.sequence, m.structure, 60.0) for m in models])
        rates.append(len(models) / (time.perf_counter() - start))
    print(f"VARNA on {len(models)} structures: warm JVM {rates[0]:.2f}/s, one JVM each "
          f"{rates[1]:.2f}/s ({rates[0] / rates[1]:.1f}x), same images and messages: "
          f"{outputs[0] == outputs[1]}")
    boards = [named("fen").read(c)[0].diagram for c in codes("fen", 1, diagrams, seed)]
    rates, moves = [], []
    for shared in (True, False):
        start, found = time.perf_counter(), []
        for board in boards:
            with shared_stockfish() if shared else Stockfish() as engine:
                found.append(drawn_best_move(engine, board))
        rates.append(len(boards) / (time.perf_counter() - start))
        moves.append(found)
    print(f"best move of {len(boards)} boards: one Stockfish {rates[0]:.2f}/s, one a board "
          f"{rates[1]:.2f}/s ({rates[0] / rates[1]:.2f}x), same moves: {moves[0] == moves[1]}")
    sources = codes("mermaid", 1, diagrams, seed)
    rates, digests = [], []
    for warm in (True, False):
        start = time.perf_counter()
        engine = make_engine("mermaid", 1, 60.0)
        folder = Path(tempfile.mkdtemp(prefix="diagbench-bench-"))
        try:
            found = []
            for fmt in ("png", "svg"):
                (folder / fmt).mkdir()
                if not warm:
                    engine = make_engine("mermaid", 1, 60.0)
                results = engine.render(sources, folder / fmt, fmt)
                found += [r.image.read_bytes() if r.ok and r.image else b"-" for r in results]
            del engine
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        rates.append(len(sources) / (time.perf_counter() - start))
        digests.append(found)
    print(f"Mermaid PNG + SVG of {len(sources)} flowcharts: one engine {rates[0]:.2f}/s, "
          f"an engine a batch {rates[1]:.2f}/s ({rates[0] / rates[1]:.2f}x), same images: "
          f"{digests[0] == digests[1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--diagrams", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--languages", default=",".join(LANGUAGES))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--side-by-side", action="store_true",
                        help="only VARNA and Stockfish, warm against one process each")
    args = parser.parse_args()
    if args.side_by_side:
        print(f"load average {os.getloadavg()[0]:.1f} at the start")
        side_by_side(args.diagrams, args.seed)
        print(f"load average {os.getloadavg()[0]:.1f} at the end")
        return
    print(f"load average {os.getloadavg()[0]:.1f} at the start")
    print(f"{'language':10} {'engine':17} {'n':>4} {'valid':>5} {'png+svg/s':>10} "
          f"{'start s':>8} {'again s':>8} {'floor/s':>8} {'png sha':12} svg sha")
    for name in args.languages.split(","):
        print(measure(name, args.diagrams, args.jobs, args.seed), flush=True)
        if name == "fen":
            print(chess_facts(args.diagrams, args.seed), flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
