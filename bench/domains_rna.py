"""Diagrams per second of dot-bracket RNA structures (issue 31): reading (the stack
reader) and rendering with VARNA (one JVM per structure, `--jobs` at a time; PNG, then
SVG from the same run), on the synth's structures of the three complexity levels, as
`domains_biology.measure` measures a language; with `--realworld DIR`, also
on the dot-bracket files there (R2DT's CRW structures: hundreds to thousands of nt).
Usage: python bench/domains_rna.py [--diagrams N] [--jobs J] [--realworld DIR] [--files F]
(default 10, 2, none, 6)
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from diagbench.languages import make_engine, named
from domains_biology import HEADER, measure


def realworld(folder: Path, files: int, jobs: int) -> None:
    """Read and render the first `files` readable structures of `folder` (any suffix)."""
    language = named("dotbracket")
    texts = [p.read_text(encoding="utf-8") for p in sorted(folder.iterdir()) if p.is_file()]
    start = time.perf_counter()
    parsed = [language.read(t)[0] for t in texts]
    read = len(texts) / (time.perf_counter() - start)
    clean = [(t, p) for t, p in zip(texts, parsed, strict=True) if not p.errors]
    chosen = [t for t, _ in clean[:files]]
    bases = sum(len(p.diagram.sequence) for _, p in clean[:files]) // max(1, len(chosen))
    out = Path(tempfile.mkdtemp(prefix="diagbench-bench-"))
    try:
        start = time.perf_counter()
        results = make_engine("varna", jobs, 120.0).render(chosen, out, "png")
        render = len(chosen) / (time.perf_counter() - start)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    print(f"real files: {len(texts)} read at {read:.0f}/s ({len(texts) - len(clean)} with "
          f"errors); {len(chosen)} rendered at {render:.2f}/s, {sum(r.ok for r in results)} "
          f"valid (mean {bases} nt)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--diagrams", type=int, default=10, help="codes per complexity level")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--realworld", type=Path, help="a folder of dot-bracket files")
    parser.add_argument("--files", type=int, default=6, help="real files to render")
    args = parser.parse_args()
    print(HEADER)
    print(measure("dotbracket", args.diagrams, args.jobs))
    if args.realworld is not None:
        realworld(args.realworld, args.files, args.jobs)


if __name__ == "__main__":
    main()
