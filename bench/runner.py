"""Runner throughput against a local OpenAI-compatible server that answers at once.

5,000 requests at concurrency 1, 16 and 64 through the real SDK and runner (no
cache); prints requests/s and the harness's own CPU time per request (the
server runs in another process), then the same load through inspect_ai's
OpenAI-compatible provider and our ratio to it. inspect_ai lives in the bench's
own environment (`.venv-bench`, created on first use from PyPI); without it
that column is skipped with the reason. Target: >= 300 requests/s at 64.
Usage: python bench/runner.py [--requests N] [--no-inspect]
"""

from __future__ import annotations

import argparse
import asyncio
import json
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=5000)
    ap.add_argument("--no-inspect", action="store_true", help="Skip the inspect_ai column.")
    args = ap.parse_args()
    python, why = (None, "--no-inspect") if args.no_inspect else inspect_python()
    server = subprocess.Popen([sys.executable, "-m", "tests.fake_providers"], cwd=REPO,
                              stdout=subprocess.PIPE, text=True)
    try:
        base_url = server.stdout.readline().strip()
        n = args.requests
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
        print(f"target: {TARGET} requests/s at 64 connections; ratio = our requests/s "
              "over inspect_ai's")
    finally:
        server.kill()


if __name__ == "__main__":
    main()
