"""Reading large files of every language: CPU seconds and peak memory of its reader
(`Language.read`) per size, with the ratio to the smallest size beside them (linear
reading: the ratios follow the size ratio). Each file is written to a temporary folder:
a language of one diagram a record repeats its example's records (SMILES, FEN, ABC,
dot-bracket, Newick, FASTA, PlantUML blocks); the others grow one diagram (a Mermaid
flowchart's, a DOT graph's and a DBML schema's lines, a GeoJSON FeatureCollection's
features). Each read runs in a fresh Python process, under a time-out.

Usage: python bench/read_every_language.py [--sizes 1 4] [--timeout 600] [--only NAME…]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

_SRC = str(Path(__file__).resolve().parents[1] / "src")
_READ = """
import json, resource, sys, time
from diagbench.languages import named
language, text = named(sys.argv[1]), open(sys.argv[2], encoding="utf-8").read()
cpu = time.process_time()
parsed = language.read(text)
cpu = time.process_time() - cpu
print(json.dumps({"cpu": cpu, "diagrams": len(parsed),
                  "errors": sum(len(p.errors) for p in parsed),
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""
#: The lines that grow one diagram of a language without records: (head, line k, tail).
GROWN = {
    "mermaid": ("flowchart TD\n", "    a{k}[step {k}] --> b{k}\n", ""),
    "dot": ("digraph G {\n", "  a{k} -> b{k} [label=\"e{k}\"];\n", "}\n"),
    "dbml": ("", "Table t{k} {{\n  id int [pk]\n  name varchar\n}}\n", ""),
    "geojson": ('{"type": "FeatureCollection", "features": [\n',
                '{{"type": "Feature", "properties": {{"name": "f{k}"}}, "geometry": '
                '{{"type": "Point", "coordinates": [{lon}, 10.5]}}}},\n', ""),
}


def text_of(name: str, megabytes: float) -> str:
    """About `megabytes` MB of code of the language `name`."""
    from diagbench.languages import named

    size = int(megabytes * 1_000_000)
    if name in GROWN:
        head, line, tail = GROWN[name]
        parts, length, k = [head], len(head), 0
        while length < size:
            parts.append(line.format(k=k, lon=round(-179 + (k % 358), 1)))
            length += len(parts[-1])
            k += 1
        if name == "geojson":
            parts[-1] = parts[-1].rstrip(",\n") + "\n"
            tail = "]}\n"
        return "".join(parts) + tail
    records = "".join(path.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
                      for path in named(name).example_paths())
    return records * max(1, size // len(records))


def measure(name: str, megabytes: float, folder: Path, timeout: float) -> dict | None:
    path = folder / f"{name}-{megabytes:g}MB.txt"
    path.write_text(text_of(name, megabytes), encoding="utf-8")
    try:
        done = subprocess.run([sys.executable, "-c", _READ, name, str(path)],
                              capture_output=True, text=True, timeout=timeout, check=True,
                              env={"PYTHONPATH": _SRC, "PATH": "/usr/bin:/bin"})
    except subprocess.TimeoutExpired:
        return None
    finally:
        path.unlink()
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    from diagbench.languages import names

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1, 4], help="MB")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--only", nargs="+", default=list(names()))
    args = parser.parse_args()
    print(f"{'language':<16} {'MB':>5} {'diagrams':>9} {'errors':>7} {'CPU s':>8} "
          f"{'× CPU':>6} {'× size':>6} {'peak MB':>8}")
    with tempfile.TemporaryDirectory(prefix="diagbench-bench-") as tmp:
        for name in args.only:
            first: dict | None = None
            for megabytes in args.sizes:
                got = measure(name, megabytes, Path(tmp), args.timeout)
                if got is None:
                    print(f"{name:<16} {megabytes:>5g}  over {args.timeout:g} s")
                    break
                first = first or got
                print(f"{name:<16} {megabytes:>5g} {got['diagrams']:>9} {got['errors']:>7} "
                      f"{got['cpu']:>8.2f} "
                      f"{got['cpu'] / max(first['cpu'], 1e-9):>6.2f} "
                      f"{megabytes / args.sizes[0]:>6.2f} {got['peak_mb']:>8.0f}",
                      flush=True)


if __name__ == "__main__":
    main()
