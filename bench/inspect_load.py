"""The runner bench's load through inspect_ai's OpenAI-compatible provider.

Run by bench/runner.py with the Python of the bench's own environment (where
inspect_ai is installed); prints one JSON line: seconds, CPU seconds, answers.
Usage: python bench/inspect_load.py BASE_URL REQUESTS CONNECTIONS
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

from inspect_ai.model import GenerateConfig, get_model


async def measure(base_url: str, n: int, connections: int) -> dict:
    model = get_model("openai-api/local/m", base_url=base_url, api_key="not-needed",
                      config=GenerateConfig(max_connections=connections, max_retries=1,
                                            temperature=0.0, max_tokens=2048))
    wall, cpu = time.perf_counter(), time.process_time()
    outputs = await asyncio.gather(*(model.generate(f"question {k}") for k in range(n)))
    return {"seconds": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
            "ok": sum(o.completion == f"echo: question {k}" for k, o in enumerate(outputs))}


if __name__ == "__main__":
    base, requests, connections = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    print(json.dumps(asyncio.run(measure(base, requests, connections))))
