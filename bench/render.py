"""Rendering throughput: one JVM per diagram vs the warm-JVM engine with 1 and 2 workers.

Renders the same mixed corpus (half sequence, half class diagrams, to PNG)
three ways in one run and prints diagrams/s and the speed-up over one JVM per
diagram, which is how the STRUDEL toolkit calls PlantUML (target: 15x). Then
Mermaid flowcharts: one browser per diagram vs one browser per worker.
With --whole: the whole `diagbench render` process on N files (default 200: start-up,
JVM start and warm-up, every diagram's PNG and the SVG its statistics are read off,
image checks, files written) side by side with the floor, in one run: the same engine's
JVM (its PNG and SVG channels), already warm, drawing the same PNGs and SVGs with
nothing else (no start-up, no warm-up, no checks, no Python work); their ratio (goal:
the whole command within 1.3x the floor), wall and CPU, medians of --runs runs, each
run's whole command and floor pass taken one after the other; how many of the whole
command's PNGs are byte-identical to the warm engine's (sha256); and one JVM per diagram
(the first --baseline diagrams, the way the PlantUML command line is called on one
file; goal: 30x). --json prints that as one JSON object; --base DIR (e.g.
`git worktree add /tmp/old HEAD~1`) times DIR's render too, alternating; --breakdown
adds one run's CPU per diagram by where it goes (Python, drawing, JIT, dot).
Usage: python bench/render.py [--diagrams N] [--baseline N] [--mermaid N] [--seed S]
       python bench/render.py --whole [--diagrams 200] [--baseline 10] [--runs 3] [--json]
                              [--base DIR] [--breakdown]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.plantuml_batch import render_batch

from diagbench.render.mermaid import MermaidEngine
from diagbench.render.plantuml_channels import ChannelWorker, SharedJVM, launcher_jar
from diagbench.render.plantuml_pipe import FORMATS, PlantUMLEngine
from proc_tree import tree
from synthetic import synthetic_class_diagram, synthetic_diagram

TARGET_SPEEDUP = 15.0
GOAL_WHOLE = 30.0
#: The whole `diagbench render` at most this many times the warm floor.
GOAL_GAP = 1.3
BIN = Path(sys.executable).parent


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _digests(images: list[bytes]) -> list[str]:
    return [hashlib.sha256(data).hexdigest() for data in images]


def _whole_run(src: Path, out: Path, n: int, pythonpath: str | None
               ) -> tuple[float, float, list[str]]:
    """(wall, CPU of the process tree) per diagram of one `diagbench render` of `src`, and
    the sha256 of each PNG it wrote (by name)."""
    env = dict(os.environ) | ({"PYTHONPATH": pythonpath} if pythonpath else {})
    cpu, start = _children_cpu(), time.perf_counter()
    done = subprocess.run([str(BIN / "diagbench"), "render", str(src), "--out", str(out)],
                          env=env, capture_output=True, text=True, check=False)
    wall, spent = (time.perf_counter() - start) / n, (_children_cpu() - cpu) / n
    if done.returncode not in (0, 1):  # 1: some diagram invalid (a time-out on a busy machine)
        raise RuntimeError(f"diagbench render failed: {done.stdout[-500:]}{done.stderr[-500:]}")
    if done.returncode:
        print(f"({pythonpath or 'this tree'}: {done.stdout.strip()})", file=sys.stderr)
    digests = _digests([png.read_bytes() for png in sorted(out.glob("*.png"))])
    shutil.rmtree(out, ignore_errors=True)
    return wall, spent, digests


#: Thread-name prefixes (as /proc shows them) of the JVM's groups of work: the channels'
#: threads draw (or, one JVM per worker without javac, the main thread, named java).
_JVM_GROUPS = (("C1 CompilerThre", "JIT compiler"), ("C2 CompilerThre", "JIT compiler"),
               ("diagbench-chann", "drawing"), ("java", "drawing"))


def _tree_threads(root: int) -> dict[tuple[int, int], tuple[str, str, float]]:
    """{(pid, tid): (process name, thread name, CPU seconds)} of `root` and its descendants."""
    found, tick = {}, os.sysconf("SC_CLK_TCK")
    for pid in tree(root):
        try:
            process = Path(f"/proc/{pid}/comm").read_text().strip()
            for tid in os.listdir(f"/proc/{pid}/task"):
                stat = Path(f"/proc/{pid}/task/{tid}/stat").read_text()
                fields = stat.rsplit(")", 1)[1].split()
                found[(pid, int(tid))] = (process, stat[stat.index("(") + 1:stat.rindex(")")],
                                          (int(fields[11]) + int(fields[12])) / tick)
        except OSError:
            continue  # ended while read
    return found


def cpu_breakdown(n: int = 200, seed: int = 0) -> dict[str, float]:
    """CPU ms per diagram of one whole `diagbench render` of `n` files, by where it goes:
    the Python process, the JVM's drawing threads, its JIT compilers, the rest of the JVM,
    and the short-lived children (Graphviz `dot`: the total less what the threads show).
    Threads are read from /proc every 50 ms, so this run is not one of the timed ones."""
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        for k, text in enumerate(corpus(n, seed)):
            (src / f"d{k:04d}.puml").write_text(text, encoding="utf-8")
        cpu, seen = _children_cpu(), {}
        process = subprocess.Popen([str(BIN / "diagbench"), "render", str(src), "--out",
                                    str(Path(tmp) / "out")], stdout=subprocess.DEVNULL)
        while process.poll() is None:
            seen |= _tree_threads(process.pid)
            time.sleep(0.05)
        total = _children_cpu() - cpu
    groups = dict.fromkeys(("Python (diagbench)", "drawing", "JIT compiler",
                            "JVM, other threads"), 0.0)
    for name, thread, spent in seen.values():
        if name == "java":
            group = next((g for prefix, g in _JVM_GROUPS if thread.startswith(prefix)),
                         "JVM, other threads")
        else:
            group = "Python (diagbench)" if name == "diagbench" else "JVM, other threads"
        groups[group] += spent
    groups["dot and other children"] = max(0.0, total - sum(groups.values()))
    return {group: 1000 * spent / n for group, spent in groups.items()}


def whole_process(n: int = 200, baseline: int = 10, runs: int = 3, seed: int = 0,
                  base: Path | None = None) -> dict:
    """`diagbench render` of `n` files, whole process, beside the warm floor (`WarmFloor`)
    and against one JVM per diagram (the first `baseline` diagrams): wall and CPU (the
    processes' own) per diagram, medians of `runs` runs. With `base` (a checkout), its
    `diagbench render` runs too, alternating ("before_*"). The first run of this tree may
    write PlantUML's class-data archive (once per machine)."""
    sources, load = corpus(n, seed), os.getloadavg()
    rows: dict[str, list[float]] = {key: [] for key in (
        "whole_ms", "whole_cpu_ms", "jvm_ms", "jvm_cpu_ms", "ratio", "cpu_ratio", "before_ms",
        "before_cpu_ms", "before_ratio", "before_cpu_ratio", "floor_ms", "floor_cpu_ms",
        "floor_png_ms", "floor_png_cpu_ms", "gap", "cpu_gap")}
    same: dict[str, list[int]] = {"whole_": [], "before_": []}  # PNGs identical to the floor's
    with tempfile.TemporaryDirectory() as tmp, WarmFloor(sources) as floor:
        src = Path(tmp) / "src"
        src.mkdir()
        for k, text in enumerate(sources):
            (src / f"d{k:04d}.puml").write_text(text, encoding="utf-8")
        for run in range(runs):
            if baseline:
                cpu, start = _children_cpu(), time.perf_counter()
                one_jvm_each(sources[:baseline])
                rows["jvm_ms"].append(1000 * (time.perf_counter() - start) / baseline)
                rows["jvm_cpu_ms"].append(1000 * (_children_cpu() - cpu) / baseline)
            sides = [("", None)] + ([("before_", str(base / "src"))] if base else [])
            for prefix, path in sides if run % 2 == 0 else sides[::-1]:
                wall, spent, digests = _whole_run(src, Path(tmp) / f"out{run}{prefix}", n,
                                                  path)
                same[prefix or "whole_"].append(sum(map(str.__eq__, digests, floor.digests))
                                                if len(digests) == n else 0)
                rows[f"{prefix or 'whole_'}ms"].append(1000 * wall)
                rows[f"{prefix or 'whole_'}cpu_ms"].append(1000 * spent)
                if baseline:
                    rows[f"{prefix}ratio"].append(rows["jvm_ms"][-1] / 1000 / wall)
                    rows[f"{prefix}cpu_ratio"].append(rows["jvm_cpu_ms"][-1] / 1000 / spent)
            drawn = floor.measure()
            for key, value in drawn.items():
                rows[key].append(value)
            rows["gap"].append(rows["whole_ms"][-1] / drawn["floor_ms"])
            rows["cpu_gap"].append(rows["whole_cpu_ms"][-1] / drawn["floor_cpu_ms"])
    medians = {key: statistics.median(values) for key, values in rows.items() if values}
    return medians | {
        "floor_ratio": medians["jvm_ms"] / medians["floor_ms"] if baseline else None,
        "ratios": rows["ratio"], "before_ratios": rows["before_ratio"], "gaps": rows["gap"],
        "identical": min(same["whole_"]), "before_identical": min(same["before_"], default=None),
        "diagrams": n, "baseline": baseline, "goal": GOAL_WHOLE, "goal_gap": GOAL_GAP,
        "load_before": load, "load": os.getloadavg()}


def corpus(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [synthetic_diagram(rng, (20, 80)) if k % 2 == 0 else synthetic_class_diagram(rng)
            for k in range(n)]


def one_jvm_each(sources: list[str]) -> tuple[float, int]:
    start = time.perf_counter()
    valid = 0
    for source in sources:
        batch = render_batch([source], fmt="png")
        valid += batch.returncode == 0 and bool(batch.images[0])
        shutil.rmtree(batch.images[0][0].parent, ignore_errors=True) if batch.images[0] else None
    return time.perf_counter() - start, valid


def _jvm_cpu(jvm: SharedJVM) -> float:
    """CPU seconds the JVM and the children it has waited for (Graphviz `dot`) have used."""
    assert jvm.process is not None
    fields = Path(f"/proc/{jvm.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


class WarmFloor:
    """PlantUML's own work for `diagbench render` of `sources` (PNG), in a JVM laid out as
    its engine's (`jobs` PNG and `jobs` SVG channels) and already warm: each diagram's PNG
    drawn, then each statistics SVG (the source its language marks), `jobs` at once. No
    start-up, no warm-up, no image checks, no Python work: what `diagbench render` would
    take if all of those cost nothing. One warm-up pass at the start."""

    def __init__(self, sources: list[str], jobs: int = 2) -> None:
        from diagbench.languages.plantuml import LANGUAGE

        launcher = launcher_jar()
        if launcher is None:
            raise RuntimeError("no javac: the warm floor needs the channels' launcher")
        kinds = [LANGUAGE.read(source)[0].kind for source in sources]
        self.batches = {fmt: [LANGUAGE.prepare(s, kind, fmt == "svg")
                              for s, kind in zip(sources, kinds, strict=True)]
                        for fmt in FORMATS}
        self.jvm = SharedJVM(tuple(f for f in FORMATS for _ in range(jobs)), launcher,
                             write_archive=False)
        self.digests: list[str] = []  # sha256 of each PNG, drawn by the first pass
        self.workers = {fmt: [ChannelWorker(self.jvm, k) for k, f in
                              enumerate(self.jvm.formats) if f == fmt] for fmt in FORMATS}

    def __enter__(self) -> WarmFloor:
        self._pass()
        return self

    def __exit__(self, *_: object) -> None:
        self.jvm.close(clean=False)

    def _draw(self, fmt: str) -> None:
        workers, sources = self.workers[fmt], self.batches[fmt]

        images: list[bytes] = [b""] * len(sources)

        def draw(k: int) -> None:
            for at in range(k, len(sources), len(workers)):
                images[at] = workers[k].render(sources[at], 120)[0]

        with ThreadPoolExecutor(max_workers=len(workers)) as pool:
            list(pool.map(draw, range(len(workers))))
        if fmt == "png" and not self.digests:
            self.digests = _digests(images)

    def _pass(self) -> dict[str, float]:
        spent = {}
        for fmt in FORMATS:
            cpu, start = _jvm_cpu(self.jvm) if self.jvm.process else 0.0, time.perf_counter()
            self._draw(fmt)
            spent[fmt] = time.perf_counter() - start, _jvm_cpu(self.jvm) - cpu
        n = len(self.batches["png"])
        return {"floor_ms": 1000 * sum(w for w, _ in spent.values()) / n,
                "floor_cpu_ms": 1000 * sum(c for _, c in spent.values()) / n,
                "floor_png_ms": 1000 * spent["png"][0] / n,
                "floor_png_cpu_ms": 1000 * spent["png"][1] / n}

    def measure(self) -> dict[str, float]:
        """One pass, ms per diagram: wall and CPU (JVM and `dot`), in all and PNG only."""
        return self._pass()


def batched(engine, sources: list[str]) -> tuple[float, int]:
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        results = engine.render(sources, Path(out), "png")
        return time.perf_counter() - start, sum(r.ok for r in results)


def one_browser_each(sources: list[str]) -> tuple[float, int]:
    seconds, valid = 0.0, 0
    for source in sources:
        spent, ok = batched(MermaidEngine(jobs=1), [source])
        seconds, valid = seconds + spent, valid + ok
    return seconds, valid


def table(rows: list[tuple[str, int, float, int]]) -> None:
    base_rate = rows[0][1] / rows[0][2]
    print(f"{'':24}{'diagrams':>9}{'valid':>7}{'seconds':>9}{'diagrams/s':>12}{'speed-up':>10}")
    for label, n, seconds, valid in rows:
        rate = n / seconds
        print(f"{label:24}{n:>9}{valid:>7}{seconds:>9.1f}{rate:>12.2f}{rate / base_rate:>9.1f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--diagrams", type=int, default=500)
    ap.add_argument("--baseline", type=int, default=None,
                    help="Time one JVM per diagram on only this many (default: all).")
    ap.add_argument("--mermaid", type=int, default=100, help="Mermaid flowcharts to render.")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--whole", action="store_true",
                    help="Time the whole `diagbench render` process instead.")
    ap.add_argument("--runs", type=int, default=3, help="Runs of --whole (medians).")
    ap.add_argument("--json", action="store_true", help="With --whole: one JSON object.")
    ap.add_argument("--base", type=Path, help="With --whole: also time this checkout's render.")
    ap.add_argument("--breakdown", action="store_true",
                    help="With --whole: one more run, its CPU by thread group.")
    args = ap.parse_args()
    if args.whole:
        result = whole_process(args.diagrams if args.diagrams != 500 else 200,
                               10 if args.baseline is None else args.baseline, args.runs,
                               args.seed, base=args.base)
        if args.json:
            print(json.dumps(result))
            return
        print(f"load average {' '.join(f'{x:.1f}' for x in result['load_before'])} (before), "
              f"{' '.join(f'{x:.1f}' for x in result['load'])} (after); "
              f"{result['diagrams']} diagrams, half sequence, half class, PNG + statistics; "
              f"medians of {args.runs} runs")
        print(f"{'':34}{'wall ms/diagram':>16}{'CPU ms/diagram':>16}")
        print(f"{'floor, warm engine, PNG only':34}{result['floor_png_ms']:>16.1f}"
              f"{result['floor_png_cpu_ms']:>16.1f}")
        print(f"{'floor, warm engine, PNG + SVG':34}{result['floor_ms']:>16.1f}"
              f"{result['floor_cpu_ms']:>16.1f}")
        print(f"{'diagbench render, whole process':34}{result['whole_ms']:>16.1f}"
              f"{result['whole_cpu_ms']:>16.1f}")
        if args.base:
            print(f"{'before (' + str(args.base) + ')':34}{result['before_ms']:>16.1f}"
                  f"{result['before_cpu_ms']:>16.1f}")
        print(f"whole / floor: {result['gap']:.2f}x wall, {result['cpu_gap']:.2f}x CPU (goal "
              f"<= {GOAL_GAP}x wall; runs {', '.join(f'{g:.2f}' for g in result['gaps'])})")
        before = (f"; before: {result['before_identical']}"
                  if result["before_identical"] is not None else "")
        print(f"PNGs byte-identical to the warm engine's, fewest of a run: "
              f"{result['identical']} of {result['diagrams']}{before}")
        if result["baseline"]:
            print(f"one JVM per diagram ({result['baseline']} diagrams): {result['jvm_ms']:.0f} "
                  f"ms/diagram ({result['jvm_cpu_ms']:.0f} ms CPU); the whole command "
                  f"{result['ratio']:.1f}x faster (CPU {result['cpu_ratio']:.1f}x; goal "
                  f"{GOAL_WHOLE:.0f}x; runs {', '.join(f'{r:.1f}' for r in result['ratios'])})")
        if args.breakdown:
            print("where the CPU of one more whole run goes, ms per diagram (threads read "
                  "every 50 ms):")
            for group, spent in cpu_breakdown(result["diagrams"], args.seed).items():
                print(f"  {group:24}{spent:7.1f}")
        return
    sources = corpus(args.diagrams, args.seed)
    sample = sources[:args.baseline] if args.baseline else sources
    print(f"corpus: {len(sources)} diagrams (half sequence, half class), PNG")
    rows = [("one JVM per diagram", len(sample), *one_jvm_each(sample)),
            ("warm JVM, 1 worker", len(sources), *batched(PlantUMLEngine(jobs=1), sources)),
            ("warm JVMs, 2 workers", len(sources), *batched(PlantUMLEngine(jobs=2), sources))]
    table(rows)
    best = rows[2][1] / rows[2][2] / (rows[0][1] / rows[0][2])
    print(f"2 workers vs one JVM per diagram: {best:.1f}x (target {TARGET_SPEEDUP:.0f}x)")
    if args.mermaid:
        charts = [f"graph TD\n  A{k}[start {k}] --> B{k}{{check}}\n  B{k} -->|yes| C{k}\n"
                  f"  B{k} -->|no| A{k}\n" for k in range(args.mermaid)]
        print(f"\nMermaid: {len(charts)} flowcharts, PNG")
        table([("one browser per diagram", 10, *one_browser_each(charts[:10])),
               ("1 browser", len(charts), *batched(MermaidEngine(jobs=1), charts)),
               ("2 browsers", len(charts), *batched(MermaidEngine(jobs=2), charts))])


if __name__ == "__main__":
    main()
