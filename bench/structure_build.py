"""Throughput of `build structure` per stage and per engine, on a seeded offline build.

Builds the structure data set with baseline:synth writing the diagrams and
baseline:judge judging them (no key, no network), each build in a child process, and
prints, per stage — synthesis, statistics (parse), render (PNG + SVG by the real engines,
drawn counts), filters, judge, questions (model-written, Fig. 10), captions (Fig. 10),
tasks — the seconds, the samples going in and samples per second, with each stage's
share of the whole build; per engine the seconds from its start to its last drawn count
(engines draw at the same time, so these overlap) and its samples per second; the peak
memory of the build's process and every process it started (sampled every 0.5 s from
/proc: the sum of their proportional set sizes, with the sum of their resident sets
and the largest programs at the peak, by command name and by what runs them: a Node
tool with its browser, a drawing worker …), the disk used per sample kept, and the load
average before and after. With --floor N, each engine's floor beside it: one warm
engine alone drawing N of the build's kept samples (PNG and SVG), after one drawing to
warm it. With --compare-with SRC (another checkout's `src`, e.g. main's), the same build
with that code, side by side, and whether samples.jsonl, tasks.jsonl and every image
are byte-identical, and each stage's seconds with that code ÷ with this; with
--against-ray, the same build on a local Ray instance (`--executor ray`) beside it,
with its overhead and whether its outputs are byte-identical. With --runs N, every
figure is the median of N builds, the builds compared taking turns (this, the other,
this, …) so that a load that changes meets both alike.

With --paper-cells, STRUDEL's own 22 category × FRL cells of its 20 categories
(`build structure --paper-cells`; `--per-category 600`: its 13,200 samples).

Usage: python bench/structure_build.py [--per-category 2] [--categories LIST|all]
       [--languages LIST|all] [--paper-cells] [--seed 0] [--jobs N] [--runs 1] [--floor 0]
       [--compare-with SRC] [--executor local|ray] [--against-ray] [--keep DIR]
       [--json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from proc_tree import tree

SRC = Path(__file__).resolve().parents[1] / "src"
STAGES = ("synthesis", "statistics", "render", "filters", "judge", "questions", "captions",
          "tasks")


def child(args: argparse.Namespace) -> None:
    """The build itself (run in a child process whose import path is the code measured)."""
    from diagbench.benchmarks.registry import registered
    from diagbench.benchmarks.structure.build import build_structure
    from diagbench.benchmarks.structure.records import generator_settings
    from diagbench.languages import category_names, names

    registered()  # the benchmarks' offline models (baseline:synth, baseline:judge)
    settings = generator_settings("baseline:synth", 0.7, 4096, args.seed)
    judge = generator_settings("baseline:judge", 0.0, 1024, args.seed, "--judge")
    categories = list(category_names()) if args.categories == "all" else \
        args.categories.split(",")
    cells = None
    if args.paper_cells:
        from diagbench.benchmarks.structure.taxonomy import PAPER_CELLS

        categories, cells = list(PAPER_CELLS), PAPER_CELLS
    languages = list(names()) if args.languages == "all" else args.languages.split(",")
    languages = [lang for lang in languages if lang in names()]
    if args.executor == "ray":
        from diagbench.executors.ray import RayExecutor
        executor = RayExecutor()
    else:
        executor = None
    try:
        build_structure(Path(args.child), settings, categories, languages, args.per_category,
                        ["low", "medium", "high"], args.seed, judge=judge,
                        executor=executor, cells=cells,
                        **({"jobs": args.jobs} if args.jobs else {}))  # else the build's
    finally:
        if executor is not None:
            executor.close()


def _tree_memory(root: int) -> tuple[int, int, dict[str, int], dict[str, int]]:
    """(resident bytes, proportional bytes, proportional bytes per command name, and per
    branch) of process `root` and all its descendants, now. The proportional set size
    (PSS) shares each page among the processes mapping it, so its sum is the memory the
    tree uses; the sum of resident sets counts a page shared by n processes n times. A
    branch is a child of `root` with everything below it (`_branch`: Mermaid's Node with
    its browser, Plotly's drawing worker with Kaleido's …); `root` itself is "build"."""
    branch_of: dict[int, str] = {}
    for pid, parent in tree(root).items():  # a parent before its children
        branch_of[pid] = ("build" if pid == root else _branch(pid) if parent == root
                          else branch_of[parent])
    rss = pss = 0
    by_command: dict[str, int] = {}
    by_branch: dict[str, int] = {}
    for pid, branch in branch_of.items():
        try:
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
            command = Path(f"/proc/{pid}/comm").read_text().strip()
        except OSError:
            continue
        fields = {line.split(":")[0]: int(line.split()[1]) * 1024
                  for line in rollup.splitlines()[1:] if line.endswith("kB")}
        rss += fields.get("Rss", 0)
        pss += fields.get("Pss", 0)
        by_command[command] = by_command.get(command, 0) + fields.get("Pss", 0)
        by_branch[branch] = by_branch.get(branch, 0) + fields.get("Pss", 0)
    return rss, pss, by_command, by_branch


def _branch(pid: int) -> str:
    """A short name of the program `pid` runs: a Node tool by its folder and script
    (`mermaid/render.mjs`), a drawing worker by what it calls, a JVM by its main class
    or jar, anything else by its command name."""
    try:
        words = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
        command = Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return "?"
    script = next((w for w in words if w.endswith((".mjs", ".js"))), None)
    if script:
        return "/".join(Path(script).parts[-2:])
    if "diagbench.render.worker" in words:
        target = words[words.index("diagbench.render.worker") + 1]
        return "worker " + target.split(":")[0].removeprefix("diagbench.languages.")
    if command == "java":
        main = next((w for w in words[1:] if not w.startswith("-") and "/" not in w), "")
        return f"java {main}".strip()
    return command


def one_build(args: argparse.Namespace, src: Path, executor: str, out: Path) -> dict:
    """timings.json of one seeded offline build into `out` by the code in `src` on
    `executor`, with the peak memory of its process tree, the disk it used and the load
    average."""
    command = [sys.executable, __file__, "--child", str(out), "--per-category",
               str(args.per_category), "--categories", args.categories, "--languages",
               args.languages, "--seed", str(args.seed),
               "--executor", executor] + (["--paper-cells"] if args.paper_cells else []) \
        + (["--jobs", str(args.jobs)] if args.jobs else [])
    env = dict(os.environ, PYTHONPATH=str(src))
    load = os.getloadavg()
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env)
    peak_rss = peak_pss = 0
    top: dict[str, int] = {}
    branches: dict[str, int] = {}
    while process.poll() is None:
        rss, pss, by_command, by_branch = _tree_memory(process.pid)
        peak_rss = max(peak_rss, rss)
        if pss > peak_pss:
            peak_pss, top, branches = pss, by_command, by_branch
        time.sleep(0.5)
    wall = time.perf_counter() - started  # with the imports (and Ray's start-up)
    if process.returncode:
        raise SystemExit(f"the build by {src} failed (exit {process.returncode})")
    timings: dict = json.loads((out / "timings.json").read_text(encoding="utf-8"))
    disk = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    return timings | {"wall": wall, "peak_rss": peak_rss, "peak_pss": peak_pss, "top": top,
                      "branches": branches, "disk": disk, "load": [load, os.getloadavg()],
                      "digest": _digest(out)}


def _digest(out: Path) -> str:
    """sha256 over samples.jsonl, tasks.jsonl, build.json and every image (by name)."""
    files = [out / "samples.jsonl", out / "tasks.jsonl", out / "build.json",
             *sorted((out / "images").glob("*.png"))]
    return hashlib.sha256(b"".join(p.name.encode() + hashlib.sha256(p.read_bytes()).digest()
                                   for p in files)).hexdigest()


def floors(out: Path, per_engine: int, jobs: int) -> dict[str, dict]:
    """Each engine alone, warm: the seconds it takes to draw up to `per_engine` of the
    build's kept samples (PNG and SVG, as the build draws them)."""
    from diagbench.languages import make_engine, named

    by_engine: dict[str, list[tuple[str, str]]] = {}
    for line in (out / "samples.jsonl").read_text(encoding="utf-8").splitlines():
        sample = json.loads(line)
        language = named(sample["language"])
        code = (out / sample["code"]).read_text(encoding="utf-8")
        by_engine.setdefault(language.engine, []).append(
            (language.prepare(code, sample["kind"], False),
             language.prepare(code, sample["kind"], True)))
    result = {}
    for name, pairs in by_engine.items():
        pairs = pairs[:per_engine + 1]
        engine = make_engine(name, jobs, 60.0)
        with tempfile.TemporaryDirectory(prefix="bench-floor-") as tmp:
            engine.render([pairs[0][0]], Path(tmp), "png")  # warm it
            start = time.perf_counter()
            engine.render([p for p, _ in pairs[1:]], Path(tmp), "png")
            engine.render([s for _, s in pairs[1:]], Path(tmp), "svg")
            seconds = time.perf_counter() - start
        engine.close()
        result[name] = {"samples": len(pairs) - 1, "seconds": round(seconds, 3)}
    return result


def summary(runs: list[dict]) -> dict:
    """The median figures of `runs` (builds of the same code)."""
    total = statistics.median(r["total"] for r in runs)
    stages = []
    for stage in STAGES:
        seconds = statistics.median(r.get(stage, 0.0) for r in runs)
        n = runs[0]["samples_in"].get(stage, 0)
        stages.append({"stage": stage, "seconds": round(seconds, 3), "samples_in": n,
                       "samples_per_s": round(n / seconds, 1) if seconds else None,
                       "share": round(seconds / total, 3) if total else None})
    engines = {name: {"samples": e["samples"], "seconds": statistics.median(
        r.get("engines", {}).get(name, {}).get("seconds", 0.0) for r in runs)}
        for name, e in runs[0].get("engines", {}).items()}
    kept = runs[0]["kept"]
    return {"planned": runs[0]["samples"], "kept": kept, "runs": len(runs),
            "total_seconds": round(total, 3),
            "process_seconds": round(statistics.median(r["wall"] for r in runs), 3),
            "samples_per_s": round(runs[0]["samples"] / total, 2), "stages": stages,
            "engines": engines, "peak_rss_mb": round(max(r["peak_rss"] for r in runs) / 2**20),
            "peak_pss_mb": round(max(r["peak_pss"] for r in runs) / 2**20),
            "at_peak_mb": {c: round(b / 2**20) for c, b in sorted(
                runs[0]["top"].items(), key=lambda kv: -kv[1])[:6]},
            "branches_at_peak_mb": {c: round(b / 2**20) for c, b in sorted(
                runs[0]["branches"].items(), key=lambda kv: -kv[1]) if b >= 2**20},
            "disk_kb_per_sample": round(runs[0]["disk"] / max(1, kept) / 1024, 1),
            "load": runs[0]["load"], "digest": runs[0]["digest"],
            "identical_runs": len({r["digest"] for r in runs}) == 1}


def show(name: str, result: dict, floor: dict[str, dict]) -> None:
    load = " → ".join("/".join(f"{x:.1f}" for x in pair) for pair in result["load"])
    print(f"[{name}] {result['planned']} planned, {result['kept']} kept, median of "
          f"{result['runs']} run(s); load average {load}")
    print(f"{'stage':<11} {'seconds':>8} {'samples in':>10} {'samples/s':>10} {'share':>6}")
    for r in result["stages"]:
        rate = "—" if r["samples_per_s"] is None else f"{r['samples_per_s']:.1f}"
        share = "—" if r["share"] is None else f"{100 * r['share']:.0f} %"
        print(f"{r['stage']:<11} {r['seconds']:>8.3f} {r['samples_in']:>10} {rate:>10} "
              f"{share:>6}")
    print(f"{'whole':<11} {result['total_seconds']:>8.3f} {result['planned']:>10} "
          f"{result['samples_per_s']:>10.2f}   (the build's process: "
          f"{result['process_seconds']:.1f} s with its imports and executor start-up)")
    print(f"{'engine':<18} {'samples':>8} {'seconds':>8} {'samples/s':>10}"
          + (f" {'floor n':>8} {'floor/s':>8} {'build÷floor':>11}" if floor else ""))
    for engine, e in sorted(result["engines"].items(), key=lambda kv: -kv[1]["seconds"]):
        rate = e["samples"] / e["seconds"] if e["seconds"] else 0.0
        line = f"{engine:<18} {e['samples']:>8} {e['seconds']:>8.1f} {rate:>10.1f}"
        f = floor.get(engine)
        if f and f["seconds"]:
            floor_rate = f["samples"] / f["seconds"]
            line += f" {f['samples']:>8} {floor_rate:>8.1f} {rate / floor_rate:>11.2f}"
        print(line)
    print(f"peak memory of the build's process tree: {result['peak_pss_mb']} MB proportional "
          f"(PSS; {result['peak_rss_mb']} MB summing resident sets), at the peak "
          + ", ".join(f"{c} {mb}" for c, mb in result["at_peak_mb"].items()))
    print("  by what runs it (a program with all it started): "
          + ", ".join(f"{c} {mb}" for c, mb in result["branches_at_peak_mb"].items()))
    print(f"disk "
          f"{result['disk_kb_per_sample']} kB per sample kept; outputs {result['digest'][:16]}"
          + ("" if result["identical_runs"] else " (runs differ!)"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-category", type=int, default=2)
    parser.add_argument("--categories", default="class,sequence,component,usecase,state,er,"
                                                "flowchart")
    parser.add_argument("--languages", default="all")
    parser.add_argument("--paper-cells", action="store_true",
                        help="STRUDEL's own 22 category × FRL cells (its 20 categories), "
                             "--per-category samples each")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, help="per engine (default: the build's own)")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--floor", type=int, default=0, metavar="N")
    parser.add_argument("--compare-with", type=Path, metavar="SRC")
    parser.add_argument("--executor", choices=("local", "ray"), default="local")
    parser.add_argument("--against-ray", action="store_true",
                        help="the same build with --executor ray too, side by side")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="build into DIR/<name>-<run> and keep it")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    builds = {"this": (SRC, args.executor)}  # name: (code, executor)
    if args.compare_with:
        builds["compare"] = (args.compare_with.resolve(), args.executor)
    if args.against_ray:
        builds["ray"] = (SRC, "ray")
    runs: dict[str, list[dict]] = {name: [] for name in builds}
    floor: dict[str, dict] = {}
    for k in range(args.runs):
        for name, (src, executor) in builds.items():  # in turn (see the module)
            with tempfile.TemporaryDirectory(prefix="bench-structure-") as tmp:
                out = (args.keep / f"{name}-{k}") if args.keep else Path(tmp) / "data"
                runs[name].append(one_build(args, src, executor, out))
                if name == "this" and k == 0 and args.floor:
                    sys.path.insert(0, str(SRC))
                    floor = floors(out, args.floor, args.jobs or 2)
    results = {name: summary(done) for name, done in runs.items()}
    if args.json:
        print(json.dumps({"results": results, "floor": floor}))
        return
    for name, result in results.items():
        src, executor = builds[name]
        show(f"{name}: {src}, --executor {executor}", result, floor if name == "this" else {})
    this = results["this"]
    for name, other in results.items():
        if name != "this":
            print(f"{name} against this: {other['total_seconds'] / this['total_seconds']:.2f}× "
                  f"the build's time, {other['process_seconds'] / this['process_seconds']:.2f}× "
                  "its process's; outputs "
                  + ("byte-identical" if this["digest"] == other["digest"] else "DIFFER"))
            print(f"  per stage, {name}'s seconds ÷ this's: " + ", ".join(
                f"{mine['stage']} {theirs['seconds'] / mine['seconds']:.2f}×"
                for mine, theirs in zip(this["stages"], other["stages"], strict=True)
                if mine["seconds"] and theirs["seconds"]))


if __name__ == "__main__":
    main()
