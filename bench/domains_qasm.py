"""Diagrams per second of OpenQASM 2 quantum circuits: reading (diagbench's limits, then
Qiskit's `qasm2` parser, into the circuit model; and the second reader, `spec`, for
comparison) and rendering (Qiskit's matplotlib circuit drawer in the `qiskit` engine's
worker processes, PNG, then SVG from the same drawing), on the generator's circuits of
the three complexity levels, as `domains_biology.measure` measures a language; then
reading QASMBench's real files (`--realworld DIR`, every `.qasm` below it).
Usage: python bench/domains_qasm.py [--diagrams N] [--jobs J] [--realworld DIR]
(default 10, 2, ../shared/data/realworld/qasmbench)
"""

from __future__ import annotations

import argparse
import contextlib
import time
from pathlib import Path

from diagbench.languages import named
from diagbench.languages.qasm.spec import SpecError, read_spec
from domains_biology import HEADER, measure

REALWORLD = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "realworld"


def realworld(folder: Path) -> str:
    """Files, operations and reads per second of both readers on the files below `folder`."""
    language = named("qasm")
    texts = [p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*.qasm"))]
    language.read(texts[0])  # imports Qiskit: not timed
    start = time.perf_counter()
    parsed = [language.read(t)[0] for t in texts]
    qiskit = len(texts) / (time.perf_counter() - start)
    start = time.perf_counter()
    for text in texts:
        with contextlib.suppress(SpecError):
            read_spec(text)
    spec = len(texts) / (time.perf_counter() - start)
    operations = sum(len(p.diagram.operations) for p in parsed)
    return (f"real files: {len(texts)} ({operations:,} operations), read/s Qiskit "
            f"{qiskit:.1f}, second reader {spec:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--diagrams", type=int, default=10, help="codes per complexity level")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--realworld", type=Path, default=REALWORLD / "qasmbench")
    args = parser.parse_args()
    print(HEADER)
    print(measure("qasm", args.diagrams, args.jobs))
    if args.realworld.is_dir():
        print(realworld(args.realworld))


if __name__ == "__main__":
    main()
