"""Runner throughput against a local OpenAI-compatible server that answers at once.

5,000 requests at concurrency 1, 16 and 64 through the real SDK and runner (no
cache); prints requests/s and the harness's own CPU time per request (the
server runs in another process), then the same load through inspect_ai's
OpenAI-compatible provider and our ratio to it. inspect_ai lives in the bench's
own environment (`.venv-bench`, created on first use from PyPI); without it
that column is skipped with the reason. Targets at 64 connections: >= 300 requests/s,
>= 4x inspect_ai's, and harness CPU per request <= 0.98 ms (half the first runner's 1.97).
With --json: only 64 connections (or --connections), ours and inspect_ai's alternating
over --runs runs, medians printed as one JSON object (for bench/all.py).
Usage: python bench/runner.py [--requests N] [--no-inspect] [--json [--runs R]]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from diagbench.models.openai_compat import OpenAICompatible
from diagbench.models.request import user_request
from diagbench.models.runner import run_requests

REPO = Path(__file__).resolve().parents[1]
BENCH_VENV = REPO / ".venv-bench"
TARGET = 300
RATIO_GOAL = 4
CPU_GOAL_MS = 0.98


async def measure(base_url: str, n: int, connections: int) -> tuple[float, float, int]:
    requests = [user_request("vllm", "m", f"question {k}") for k in range(n)]
    adapter = OpenAICompatible("not-needed", base_url, timeout=30)
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        records = await run_requests(adapter, requests, max_connections=connections)
        return time.perf_counter() - wall, time.process_time() - cpu, sum(
            r.response.status == "ok" for r in records)
    finally:
        await adapter.close()


def inspect_python() -> tuple[Path | None, str]:
    """The bench environment's Python with inspect_ai, installing it when missing."""
    python = BENCH_VENV / "bin" / "python"
    check = [str(python), "-c", "import inspect_ai"]
    if python.exists() and subprocess.run(check, capture_output=True).returncode == 0:
        return python, ""
    print(f"installing inspect_ai into {BENCH_VENV.name} (once) ...", flush=True)
    steps = [[sys.executable, "-m", "venv", str(BENCH_VENV)],
             [str(python), "-m", "pip", "install", "-q", "inspect_ai", "openai"]]
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True)
        if done.returncode:
            return None, (done.stderr.strip().splitlines() or ["failed"])[-1]
    return python, ""


def inspect_run(python: Path, base_url: str, n: int, connections: int) -> dict:
    done = subprocess.run([str(python), str(REPO / "bench" / "inspect_load.py"), base_url,
                           str(n), str(connections)], capture_output=True, text=True)
    if done.returncode:
        return {"error": (done.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def side_by_side(python: Path | None, base_url: str, n: int, connections: int,
                 runs: int) -> dict:
    """Ours and inspect_ai's, alternating, `runs` times: medians of requests/s, CPU ms
    per request and the ratio of requests/s."""
    rows: dict[str, list[float]] = {"ours_rps": [], "ours_cpu_ms": [], "inspect_rps": [],
                                    "inspect_cpu_ms": [], "ratio": [], "cpu_ratio": []}
    asyncio.run(measure(base_url, min(n, 500), connections))  # warm the server
    for _ in range(runs):
        wall, cpu, ok = asyncio.run(measure(base_url, n, connections))
        if ok != n:
            raise RuntimeError(f"{n - ok} of {n} requests failed")
        rows["ours_rps"].append(n / wall)
        rows["ours_cpu_ms"].append(1000 * cpu / n)
        if python:
            theirs = inspect_run(python, base_url, n, connections)
            if "error" in theirs:
                raise RuntimeError(f"inspect_ai failed: {theirs['error']}")
            rows["inspect_rps"].append(n / theirs["seconds"])
            rows["inspect_cpu_ms"].append(1000 * theirs["cpu"] / n)
            rows["ratio"].append(theirs["seconds"] / wall)
            rows["cpu_ratio"].append(theirs["cpu"] / cpu)
    return {key: statistics.median(values) if values else None for key, values in rows.items()
            } | {"ratios": rows["ratio"], "requests": n, "connections": connections}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=5000)
    ap.add_argument("--no-inspect", action="store_true", help="Skip the inspect_ai column.")
    ap.add_argument("--json", action="store_true", help="One JSON object (see above).")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--connections", type=int, default=64)
    args = ap.parse_args()
    python, why = (None, "--no-inspect") if args.no_inspect else inspect_python()
    server = subprocess.Popen([sys.executable, "-m", "tests.fake_providers"], cwd=REPO,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        base_url = server.stdout.readline().strip()
        n = args.requests
        if args.json:
            print(json.dumps(side_by_side(python, base_url, n, args.connections, args.runs)))
            return
        print(f"{n:,} requests to {base_url}" + ("" if python else f"; inspect_ai skipped: {why}"))
        print(f"{'connections':>12}{'seconds':>9}{'requests/s':>12}{'CPU ms/request':>16}"
              f"{'ok':>7}" + (f"{'inspect_ai r/s':>16}{'CPU ms/req':>12}{'ok':>7}{'ratio':>8}"
                              if python else ""))
        for connections in (1, 16, 64):
            wall, cpu, ok = asyncio.run(measure(base_url, n, connections))
            line = (f"{connections:>12}{wall:>9.2f}{n / wall:>12.0f}{1000 * cpu / n:>16.2f}"
                    f"{ok:>7}")
            if python:
                theirs = inspect_run(python, base_url, n, connections)
                if "error" in theirs:
                    line += f"  inspect_ai failed: {theirs['error']}"
                else:
                    line += (f"{n / theirs['seconds']:>16.0f}{1000 * theirs['cpu'] / n:>12.2f}"
                             f"{theirs['ok']:>7}{theirs['seconds'] / wall:>7.2f}x")
            print(line, flush=True)
        print(f"targets at 64 connections: {TARGET} requests/s, {RATIO_GOAL}x inspect_ai, "
              f"{CPU_GOAL_MS} ms CPU/request; ratio = our requests/s over inspect_ai's")
    finally:
        server.kill()


if __name__ == "__main__":
    main()
