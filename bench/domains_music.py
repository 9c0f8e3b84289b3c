"""Tunes per second of the music language (ABC, issue 31): music21 reading, abcm2ps
engraving (SVG; PNG = SVG + rsvg-convert, two processes per tune), and the SVG
statistics, on the generator's tunes — and how many of them the reader and the
drawing count alike (notes, grace notes, rests, voices, measures).

`--diagrams` tunes per complexity level (seeded); the reader is timed after one
untimed read that imports music21; abcm2ps runs `--jobs` processes at a time.
Usage: python bench/domains_music.py [--diagrams N] [--jobs J]  (default 10, 2)
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import time
from pathlib import Path

from diagbench.languages.abc.engine import Abcm2psEngine, score_statistics
from diagbench.languages.abc.read import read_abc
from diagbench.languages.abc.synth import synth_abc

LEVELS = ("low", "medium", "high")
COMPARED = ("notes", "grace_notes", "rests", "voices", "measures")


def per_second(count: int, start: float) -> float:
    return count / max(time.perf_counter() - start, 1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--diagrams", type=int, default=10, help="tunes per complexity level")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    engine = Abcm2psEngine(jobs=args.jobs)
    print(engine.version())
    print(f"{'level':6} {'tunes':>5} {'notes':>6} {'read/s':>8} {'svg/s':>8} {'png/s':>8} "
          f"{'stats/s':>8} {'agree':>5}")
    read_abc(synth_abc(random.Random(0), "low"))  # imports music21: not timed
    for level in LEVELS:
        codes = [synth_abc(random.Random(seed), level) for seed in range(args.diagrams)]
        start = time.perf_counter()
        parsed = [read_abc(code)[0] for code in codes]
        read = per_second(len(codes), start)
        out = Path(tempfile.mkdtemp(prefix="diagbench-bench-"))
        try:
            start = time.perf_counter()
            svgs = engine.render(codes, out, "svg")
            svg = per_second(len(codes), start)
            start = time.perf_counter()
            engine.render(codes, out, "png")
            png = per_second(len(codes), start)
            texts = [r.image.read_text(encoding="utf-8") for r in svgs if r.image]
            start = time.perf_counter()
            drawn = [score_statistics(text) for text in texts]
            stats = per_second(len(texts), start)
        finally:
            shutil.rmtree(out, ignore_errors=True)
        agree = sum(all(p.counts()[k] == d[k] for k in COMPARED)
                    for p, d in zip(parsed, drawn, strict=True))
        notes = sum(p.counts()["notes"] for p in parsed) // max(len(parsed), 1)
        print(f"{level:6} {len(codes):5} {notes:6} {read:8.1f} {svg:8.1f} {png:8.1f} "
              f"{stats:8.0f} {agree:5}")


if __name__ == "__main__":
    main()
