"""Byte-identity of whole outputs, this tree vs another: the main job and seeded builds
and evals of every benchmark with the offline models.

Runs the same commands with this tree and with another checkout (`--base DIR`, e.g.
`git worktree add /tmp/old HEAD~3`), each with its own `src` first on the path, and
compares every file written, byte for byte, after blanking what differs between two runs
of the same code (timings, dates, absolute paths of the checkout and of the run, relative
paths out of the run, the order of JSON lines written as answers arrive; a build's
timings.json is not compared).
Prints one line per command and each file that differs; exits 1 when any.
Usage: python bench/outputs_identity.py --base DIR [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CALLFLOWS = "examples/callflows/gold"
#: (name, diagbench arguments); {out} is the command's output directory, {data:NAME} the
#: output of an earlier command.
COMMANDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("main-job", ("eval", "conversion", "--gold", CALLFLOWS, "--model", "baseline:ocr",
                  "--out", "{out}")),
    ("build-prior-bias", ("build", "prior-bias", "--out", "{out}", "--per-cell", "2",
                          "--seed", "3")),
    ("eval-prior-bias", ("eval", "prior-bias", "--data", "{data:build-prior-bias}",
                         "--model", "baseline:prior", "--model", "baseline:vision-uml",
                         "--out", "{out}")),
    ("build-archqa", ("build", "archqa", "--from", "examples/archqa", "--out", "{out}")),
    ("eval-archqa", ("eval", "archqa", "--data", "{data:build-archqa}", "--model",
                     "baseline:blind", "--out", "{out}")),
    ("build-structure", ("build", "structure", "--model", "baseline:synth", "--judge",
                         "baseline:judge", "--per-category", "2", "--seed", "5",
                         "--out", "{out}")),
    ("eval-structure", ("eval", "structure", "--data", "{data:build-structure}", "--model",
                        "baseline:synth", "--out", "{out}")),
    ("eval-codegen", ("eval", "codegen", "--model", "baseline:synth", "--out", "{out}")),
)
#: What differs between two runs of the same code: timings and dates (a key naming one,
#: anywhere in it: `mean_latency_s`), an ISO time, a drawing's creation date (abcm2ps
#: writes one into its SVG), and a path climbing out of the run to an input beside it.
_VOLATILE = re.compile(
    rb'("[a-z_]*(?:latency|elapsed|seconds|duration|started|finished|created|date|time|wall)'
    rb'[a-z_]*": )(?:"[^"]*"|[-0-9.e]+)'
    rb"|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?"
    rb"|CreationDate: [^>]*-->"
    rb'|"(?:\.\./)+[^"]*"')


def run_all(tree: Path, out: Path) -> dict[str, str]:
    """Every command with TREE's code; {name: error} of those that failed."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src"),
           "DIAGBENCH_CACHE": str(out / "cache.sqlite")}
    failed = {}
    for name, args in COMMANDS:
        argv = [re.sub(r"\{data:([\w-]+)\}", lambda m: str(out / m.group(1)),
                       a.replace("{out}", str(out / name))) for a in args]
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "diagbench", *argv], cwd=tree, env=env,
                              capture_output=True, text=True)
        print(f"  {tree.name:>12} {name:<18} exit {done.returncode} "
              f"{time.perf_counter() - start:6.1f} s", flush=True)
        if done.returncode:
            failed[name] = (done.stderr or done.stdout).strip()[-400:]
    return failed


def blank(data: bytes, tree: Path, out: Path, lines_in_any_order: bool = False) -> bytes:
    """DATA with the run's volatile parts replaced by fixed marks; with
    `lines_in_any_order` (JSON lines written as answers arrive) its lines sorted."""
    for path, mark in ((out, b"<OUT>"), (tree, b"<TREE>")):
        data = data.replace(str(path).encode(), mark)
    data = _VOLATILE.sub(lambda m: (m.group(1) or b"") + b"<T>", data)
    return b"\n".join(sorted(data.splitlines())) if lines_in_any_order else data


def differences(new: tuple[Path, Path], old: tuple[Path, Path]) -> list[str]:
    """Files present on one side only or different after blanking."""
    def files(out: Path) -> set[Path]:
        return {p.relative_to(out) for p in out.rglob("*")
                if p.is_file() and not p.name.startswith("cache.sqlite")
                and p.name != "timings.json"}  # the build's seconds per stage
    (tree_a, out_a), (tree_b, out_b) = new, old
    names_a, names_b = files(out_a), files(out_b)
    diffs = [f"only in this tree: {p}" for p in sorted(names_a - names_b)]
    diffs += [f"only in the base: {p}" for p in sorted(names_b - names_a)]
    for rel in sorted(names_a & names_b):
        any_order = rel.suffix == ".jsonl"
        if blank((out_a / rel).read_bytes(), tree_a, out_a, any_order) != \
                blank((out_b / rel).read_bytes(), tree_b, out_b, any_order):
            diffs.append(f"differs: {rel}")
    return diffs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, required=True, help="the other checkout")
    parser.add_argument("--keep", type=Path, help="write the outputs here (kept)")
    args = parser.parse_args()
    root = args.keep or Path(tempfile.mkdtemp(prefix="diagbench-identity-"))
    sides = ((REPO, root / "tree"), (args.base.resolve(), root / "base"))
    for tree, out in sides:
        out.mkdir(parents=True, exist_ok=True)
        for name, error in run_all(tree, out).items():
            print(f"  {tree.name}: {name} failed: {error}")
    diffs = differences(*sides)
    files = sum(1 for p in (root / "tree").rglob("*") if p.is_file())
    print(f"{len(COMMANDS)} commands, {files} files compared: {len(diffs)} differ")
    for line in diffs:
        print(f"  {line}")
    return 1 if diffs else 0


if __name__ == "__main__":
    raise SystemExit(main())
