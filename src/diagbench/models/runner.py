"""Run many requests: bounded concurrency, the response cache, and a resumable
`responses.jsonl` appended as each response arrives."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

from diagbench.models.cache import ResponseCache
from diagbench.models.calling import call_with_retries
from diagbench.models.image_policy import describe
from diagbench.models.protocol import Model
from diagbench.models.request import ImagePart, Request
from diagbench.models.response import Response
from diagbench.models.retry import RetryPolicy

DEFAULT_POLICY = RetryPolicy()


def answered(path: Path) -> dict[str, dict]:
    """The answered records of an earlier run, by key; the file is rewritten with only
    those, so that errors are tried again and every request ends up there once."""
    if not path.is_file():
        return {}
    done: dict[str, dict] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by a kill
        if record.get("status") == "ok":
            done[record["key"]] = record
    path.write_text("".join(json.dumps(r) + "\n" for r in done.values()), encoding="utf-8")
    return done


async def run_requests(adapter: Model, requests: list[Request], out: Path | None = None,
                       cache: ResponseCache | None = None, max_connections: int = 16,
                       policy: RetryPolicy = DEFAULT_POLICY,
                       progress: Callable[[Response], None] = lambda r: None,
                       ids: list[str] | None = None) -> list[dict]:
    """Answer every request once; return one record per request, in order (with its
    id from `ids`, when given).

    Answers come from the cache, from an earlier run's `out`, or from the
    model; failures are records with status "error" and are not cached.
    """
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
    done = answered(out) if out else {}
    gate = asyncio.Semaphore(max_connections)
    sink = out.open("a", encoding="utf-8") if out else None

    async def one(index: int, request: Request) -> dict:
        key = request.key()
        label = {"id": ids[index]} if ids else {}
        if key in done:
            progress(Response.from_dict(done[key]))
            return done[key] | {"index": index} | label
        cached = cache.get(key) if cache else None
        if cached is not None:
            response = Response.from_dict(cached)
        else:
            async with gate:
                response = await call_with_retries(adapter, request, policy)
            if response.status == "ok" and cache:
                cache.put(request, response.as_dict())
        images = [describe(p) for m in request.messages for p in m.parts
                  if isinstance(p, ImagePart)]
        record = ({"index": index, **label, "key": key, "cached": cached is not None,
                   "images": images} | response.as_dict())
        if sink:
            sink.write(json.dumps(record) + "\n")
            sink.flush()
        progress(response)
        return record

    try:
        return list(await asyncio.gather(*(one(k, r) for k, r in enumerate(requests))))
    finally:
        if sink:
            sink.close()
