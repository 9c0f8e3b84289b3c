"""Diagrams per second of the Computer Science & AI languages — RDF/XML knowledge graphs
(RDFLib) and ONNX text networks (onnx.parser + checker + shape inference) — reading,
rendering through their Graphviz engines (SVG, PNG), and how many of them the reader
and the drawing count alike; the generator's diagrams per complexity level, then the
real W3C RDF/XML test files when ../shared/data/realworld is there.

The reader is timed after one untimed read that imports its library; `dot` runs
`--jobs` processes at a time.
Usage: python bench/domains_cs.py [--diagrams N] [--jobs J]  (default 10, 2)
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import time
from pathlib import Path

from diagbench.languages import named

LEVELS = ("low", "medium", "high")
LANGUAGES = {"rdf": "nodes", "onnx": "ops"}
W3C = (Path(__file__).resolve().parents[1].parent / "shared" / "data" / "realworld"
       / "w3c-rdf-tests-rdfxml")


def per_second(count: int, start: float) -> float:
    return count / max(time.perf_counter() - start, 1e-9)


def bench(name: str, label: str, codes: list[str], jobs: int) -> None:
    language = named(name)
    engine = language.make_engine(jobs, 60.0)
    start = time.perf_counter()
    parsed = [language.read(code)[0] for code in codes]
    read = per_second(len(codes), start)
    out = Path(tempfile.mkdtemp(prefix="diagbench-bench-"))
    try:
        start = time.perf_counter()
        svgs = engine.render(codes, out, "svg")
        svg = per_second(len(codes), start)
        start = time.perf_counter()
        engine.render(codes, out, "png")
        png = per_second(len(codes), start)
        drawn = [language.drawn(p.kind, r.image.read_text(encoding="utf-8")).counts
                 if r.image else {} for p, r in zip(parsed, svgs, strict=True)]
    finally:
        shutil.rmtree(out, ignore_errors=True)
    agree = sum(bool(d) and all(p.counts()[k] == v for k, v in d.items())
                for p, d in zip(parsed, drawn, strict=True))
    size = sum(p.counts().get(LANGUAGES[name], 0) for p in parsed) // max(len(parsed), 1)
    print(f"{name:5} {label:8} {len(codes):5} {size:5} {read:8.1f} {svg:8.1f} {png:8.1f} "
          f"{agree:5}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--diagrams", type=int, default=10, help="diagrams per level")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    for name in LANGUAGES:
        language = named(name)
        print(f"{name}: {language.make_engine(1).version()}")
        language.read(language.generate(random.Random(0), "low"))  # imports: not timed
    print(f"{'lang':5} {'set':8} {'diag':>5} {'size':>5} {'read/s':>8} {'svg/s':>8} "
          f"{'png/s':>8} {'agree':>5}")
    for name in LANGUAGES:
        language = named(name)
        for level in LEVELS:
            bench(name, level, [language.generate(random.Random(seed), level)
                                for seed in range(args.diagrams)], args.jobs)
    if W3C.is_dir():
        bench("rdf", "w3c", [p.read_text(encoding="utf-8")
                             for p in sorted(W3C.rglob("*.rdf"))], args.jobs)


if __name__ == "__main__":
    main()
