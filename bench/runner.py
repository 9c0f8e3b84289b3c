"""Runner throughput against a local OpenAI-compatible server that answers at once.

5,000 requests at concurrency 1, 16 and 64 through the real SDK and runner (no
cache); prints requests/s and the harness's own CPU time per request (the
server runs in another process). Target: >= 300 requests/s at 64.
Usage: python bench/runner.py [--requests N]
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import time
from pathlib import Path

from diagbench.models.openai_compat import OpenAICompatible
from diagbench.models.request import user_request
from diagbench.models.runner import run_requests

REPO = Path(__file__).resolve().parents[1]
TARGET = 300


async def measure(base_url: str, n: int, connections: int) -> tuple[float, float, int]:
    requests = [user_request("vllm", "m", f"question {k}") for k in range(n)]
    adapter = OpenAICompatible("not-needed", base_url, timeout=30)
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        records = await run_requests(adapter, requests, max_connections=connections)
        return time.perf_counter() - wall, time.process_time() - cpu, sum(
            r["status"] == "ok" for r in records)
    finally:
        await adapter.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=5000)
    args = ap.parse_args()
    server = subprocess.Popen([sys.executable, "-m", "tests.fake_providers"], cwd=REPO,
                              stdout=subprocess.PIPE, text=True)
    try:
        base_url = server.stdout.readline().strip()
        print(f"{args.requests:,} requests to {base_url}")
        print(f"{'connections':>12}{'seconds':>9}{'requests/s':>12}{'CPU ms/request':>16}{'ok':>7}")
        for connections in (1, 16, 64):
            wall, cpu, ok = asyncio.run(measure(base_url, args.requests, connections))
            print(f"{connections:>12}{wall:>9.2f}{args.requests / wall:>12.0f}"
                  f"{1000 * cpu / args.requests:>16.2f}{ok:>7}")
        print(f"target: {TARGET} requests/s at 64 connections")
    finally:
        server.kill()


if __name__ == "__main__":
    main()
