"""Reading a large GeoJSON file: seconds (wall and CPU: on a shared machine the CPU
time is the one to compare) and peak memory per size, side by side with their ratios
to the smallest size (linear reading: the ratios follow the size ratio). Each size is a
FeatureCollection written to a temporary folder, one feature a line, each a polygon of
`POSITIONS` positions with a name, and read by
`diagbench.languages.geojson.read.read_geojson` in a fresh Python process (its peak
resident memory is that process's, the interpreter and the text included).

Usage: python bench/read_large.py [--sizes 10 50] [--repeat 1]   (sizes in MB)
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
from pathlib import Path

POSITIONS = 40
_SRC = str(Path(__file__).resolve().parents[1] / "src")
_READ = """
import json, resource, sys, time
from diagbench.languages.geojson.read import read_geojson
text = open(sys.argv[1], encoding="utf-8").read()
start, cpu = time.perf_counter(), time.process_time()
[parsed] = read_geojson(text)
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
last = parsed.diagram.features[-1]
print(json.dumps({"seconds": seconds, "cpu": cpu, "features": len(parsed.diagram.features),
                  "errors": len(parsed.errors), "last_line": last.line,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def feature(k: int) -> str:
    """One feature: a closed ring of POSITIONS positions around a point of the map."""
    lon, lat = -170 + (k * 7.3) % 340, -80 + (k * 3.1) % 160
    ring = [[round(lon + math.cos(2 * math.pi * i / POSITIONS), 6),
             round(lat + math.sin(2 * math.pi * i / POSITIONS), 6)] for i in range(POSITIONS)]
    ring.append(ring[0])
    return json.dumps({"type": "Feature", "properties": {"name": f"area {k}"},
                       "geometry": {"type": "Polygon", "coordinates": [ring]}})


def write(path: Path, megabytes: int) -> int:
    """Write a FeatureCollection of about `megabytes` MB; its number of features."""
    one = len(feature(0)) + 2
    count = megabytes * 1_000_000 // one
    with path.open("w", encoding="utf-8") as out:
        out.write('{"type": "FeatureCollection", "features": [\n')
        out.write(",\n".join(feature(k) for k in range(count)))
        out.write("\n]}\n")
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 50])
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="diagbench-bench-") as folder:
        for size in args.sizes:
            path = Path(folder) / f"map-{size}mb.geojson"
            count = write(path, size)
            runs = [json.loads(subprocess.run(
                [sys.executable, "-c", _READ, str(path)], capture_output=True, text=True,
                check=True, env={"PYTHONPATH": _SRC}).stdout) for _ in range(args.repeat)]
            best = min(runs, key=lambda r: r["seconds"])
            assert best["features"] == count and best["errors"] == 0
            assert best["last_line"] == count + 1  # the last feature's line, read right
            rows.append((size, path.stat().st_size, count, best["seconds"], best["cpu"],
                         best["peak_mb"]))
            path.unlink()
    base = rows[0]
    print(f"{'MB':>4} {'bytes':>11} {'features':>9} {'read s':>7} {'cpu s':>6} {'x cpu':>6} "
          f"{'peak MB':>8} {'x memory':>9} {'x size':>7}")
    for size, nbytes, count, seconds, cpu, peak in rows:
        print(f"{size:>4} {nbytes:>11,} {count:>9,} {seconds:>7.2f} {cpu:>6.2f} "
              f"{cpu / base[4]:>6.2f} {peak:>8.0f} {peak / base[5]:>9.2f} {nbytes / base[1]:>7.2f}")


if __name__ == "__main__":
    main()
