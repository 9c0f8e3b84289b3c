"""Run many requests: bounded concurrency, the response cache, and a resumable
`responses.jsonl` appended as each response arrives, one `ResponseRecord` a line."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from diagbench.models.cache import ResponseCache
from diagbench.models.calling import Breaker, call_with_retries
from diagbench.models.image_policy import describe
from diagbench.models.protocol import Model
from diagbench.models.request import ImagePart, Request
from diagbench.models.response import Response
from diagbench.models.retry import RetryPolicy

DEFAULT_POLICY = RetryPolicy()


@dataclass(frozen=True, slots=True)
class ResponseRecord:
    """One request's outcome as `responses.jsonl` keeps it: its place in the run
    (`index`, and the caller's `id`), its cache `key`, whether the answer came
    from the cache, the images sent (path, size, sha256 — never bytes), and the
    response or the error that ended it."""

    index: int
    key: str
    cached: bool
    images: tuple[dict, ...]
    response: Response
    id: str | None = None

    def to_json(self) -> dict:
        label = {"id": self.id} if self.id is not None else {}
        return ({"index": self.index, **label, "key": self.key, "cached": self.cached,
                 "images": list(self.images)} | self.response.as_dict())

    @classmethod
    def from_json(cls, data: dict) -> ResponseRecord:
        return cls(data["index"], data["key"], bool(data.get("cached")),
                   tuple(data.get("images", ())), Response.from_dict(data), data.get("id"))


def read_records(path: Path) -> list[ResponseRecord]:
    """Every record of a `responses.jsonl`, in file order; a line cut short by a kill
    (or anything else that is not a record) is passed over."""
    if not path.is_file():
        return []
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            records.append(ResponseRecord.from_json(json.loads(line)))
        except (json.JSONDecodeError, KeyError, TypeError):
            continue
    return records


def answered(path: Path) -> dict[str, ResponseRecord]:
    """The answered records of an earlier run, by key; the file is rewritten with only
    those, so that errors are tried again and every request ends up there once."""
    done = {r.key: r for r in read_records(path) if r.response.status == "ok"}
    if path.is_file():
        path.write_text("".join(json.dumps(r.to_json()) + "\n" for r in done.values()),
                        encoding="utf-8")
    return done


async def run_requests(adapter: Model, requests: list[Request], out: Path | None = None,
                       cache: ResponseCache | None = None, max_connections: int = 16,
                       policy: RetryPolicy = DEFAULT_POLICY,
                       progress: Callable[[Response], None] = lambda r: None,
                       ids: list[str] | None = None) -> list[ResponseRecord]:
    """Answer every request once; return one record per request, in order (with its
    id from `ids`, when given).

    Answers come from the cache, from an earlier run's `out`, or from the
    model; failures are records with status "error" and are not cached. After a few
    attempts in a row that could not reach the server (`calling.Breaker`), the requests
    left fail at once, unsent, with the reason.
    """
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
    done = answered(out) if out else {}
    gate = asyncio.Semaphore(max_connections)
    breaker = Breaker()
    sink = out.open("a", encoding="utf-8") if out else None

    async def one(index: int, request: Request) -> ResponseRecord:
        key = request.key()
        label = ids[index] if ids else None
        if key in done:
            earlier = done[key]
            progress(earlier.response)
            return ResponseRecord(index, key, earlier.cached, earlier.images, earlier.response,
                                  label if ids else earlier.id)
        cached = cache.get(key) if cache else None
        if cached is not None:
            response = Response.from_dict(cached)
        else:
            async with gate:
                response = await call_with_retries(adapter, request, policy, breaker)
            if response.status == "ok" and cache:
                cache.put(request, response.as_dict(), key)
        images = [describe(p) for m in request.messages for p in m.parts
                  if isinstance(p, ImagePart)]
        record = ResponseRecord(index, key, cached is not None, tuple(images), response, label)
        if sink:
            sink.write(json.dumps(record.to_json()) + "\n")
            sink.flush()
        progress(response)
        return record

    try:
        return list(await asyncio.gather(*(one(k, r) for k, r in enumerate(requests))))
    finally:
        if sink:
            sink.close()
        if cache:
            cache.flush()
