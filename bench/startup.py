"""CLI start-up: `diagbench --version`, `--help` and `eval conversion --help` against
`python -c "import click"` in the same environment, medians of N runs, side by side.
Usage: python bench/startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent
COMMANDS = {
    "python -c 'import click'": [sys.executable, "-c", "import click"],
    "diagbench --version": [str(BIN / "diagbench"), "--version"],
    "diagbench --help": [str(BIN / "diagbench"), "--help"],
    "diagbench eval conversion --help": [str(BIN / "diagbench"), "eval", "conversion", "--help"],
}


def median_seconds(command: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    base = None
    print(f"{'command':<36}{'median ms':>10}{'× click':>9}   (goal ≤ 3×)")
    for name, command in COMMANDS.items():
        seconds = median_seconds(command, args.runs)
        base = base or seconds
        print(f"{name:<36}{1000 * seconds:>10.1f}{seconds / base:>9.2f}")


if __name__ == "__main__":
    main()
