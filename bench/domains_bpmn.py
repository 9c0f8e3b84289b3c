"""Diagrams per second of the business-process language, BPMN 2.0 XML on the `bpmn`
engine (bpmn-js in Chromium, bpmn-auto-layout for the generated processes, which carry no
layout): reading and rendering its synth's processes as `domains_biology.measure`
measures a language; then reading the MIWG test suite's real files (with their layout)
two ways — the reader (bpmn-moddle in its warm Node process, the full model) and
defusedxml's ElementTree (the XML alone, no BPMN model: the floor a schema-checked
Python reader would start from).

Usage: python bench/domains_bpmn.py [--diagrams N] [--jobs J]  (default 10, 2)
"""

from __future__ import annotations

import time
from pathlib import Path

from defusedxml.ElementTree import fromstring

from diagbench.languages import named
from domains_biology import main

MIWG = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "realworld" / \
    "bpmn-miwg-test-suite"


def real_files(rounds: int = 5) -> str:
    """Real documents read per second by the reader and by defusedxml alone."""
    codes = [p.read_bytes().decode("utf-8", "replace") for p in sorted(MIWG.glob("*/*.bpmn"))]
    language = named("bpmn")
    language.read(codes[0])  # starts the warm process: not timed
    rates = []
    for read in (language.read, lambda code: fromstring(code.encode("utf-8"))):
        start = time.perf_counter()
        for _ in range(rounds):
            for code in codes:
                read(code)
        rates.append(rounds * len(codes) / (time.perf_counter() - start))
    return (f"MIWG: {len(codes)} files, mean {sum(map(len, codes)) // len(codes):,} "
            f"characters: bpmn-moddle {rates[0]:.0f}/s, defusedxml (XML only) "
            f"{rates[1]:.0f}/s")


if __name__ == "__main__":
    main(("bpmn",), __doc__)
    if MIWG.is_dir():
        print(real_files())
