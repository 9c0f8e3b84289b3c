"""Requests sent through a provider's batch API (`--batch`, half the price of online
calls): submit the requests not yet answered as batches (as large as the provider
takes), poll each until it ends, collect
its results into the same response cache and `responses.jsonl` as the online runner.

Each batch is recorded in the run directory the moment it is submitted
(``batches.jsonl``: its id and the request keys it holds, then a line when its results
are collected), so that a run killed while it waits picks the same batch up again
instead of paying for it twice. A request with no result — a failed line, a batch that
expired or failed before reaching it — is an error record (never cached): the next run
submits it again. Each line of a batch is identified by the request's cache key.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from diagbench.models.cache import ResponseCache
from diagbench.models.image_policy import describe
from diagbench.models.request import ImagePart, Request
from diagbench.models.response import Response
from diagbench.models.runner import ResponseRecord, answered

STATE = "batches.jsonl"
#: Seconds between two looks at a batch that has not ended.
POLL_SECONDS = 30.0


@dataclass(frozen=True, slots=True)
class BatchStatus:
    """A batch as the provider reports it: its state in the provider's words and
    whether it has ended (its results, if any, can be collected)."""

    state: str
    ended: bool


class BatchApi(Protocol):
    """A provider's batch API: submit requests (each under its custom id), look at a
    batch, read its results by custom id (an error line is a failed `Response`);
    `max_requests` is the most requests one batch takes (more go in several)."""

    max_requests: int

    async def submit(self, items: list[tuple[str, Request]]) -> str: ...

    async def status(self, batch: str) -> BatchStatus: ...

    async def results(self, batch: str) -> dict[str, Response]: ...

    async def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Submitted:
    """A batch of the run: its id, the keys it holds, and whether it was collected."""

    id: str
    keys: tuple[str, ...]
    collected: bool = False


def read_state(path: Path) -> list[Submitted]:
    """The batches a run submitted, in order (a line cut short by a kill is passed over)."""
    batches: dict[str, Submitted] = {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
                if row["event"] == "submitted":
                    batches[row["batch"]] = Submitted(row["batch"], tuple(row["keys"]))
                elif row["event"] == "collected" and row["batch"] in batches:
                    batches[row["batch"]] = Submitted(row["batch"], batches[row["batch"]].keys,
                                                      True)
            except (json.JSONDecodeError, KeyError, TypeError):
                continue
    return list(batches.values())


def _note(path: Path, row: dict) -> None:
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(row) + "\n")
        out.flush()


def missing(state: str) -> str:
    """The error of a request a batch ended without answering."""
    return f"batch {state}: no result for this request (submitted again on the next run)"


async def run_batch(api: BatchApi, requests: list[Request], out: Path,
                    cache: ResponseCache | None = None,
                    progress: Callable[[Response], None] = lambda r: None,
                    ids: list[str] | None = None,
                    poll_seconds: float = POLL_SECONDS) -> list[ResponseRecord]:
    """Answer every request once through `api`; one record per request, in order, as
    `runner.run_requests` gives them (an earlier run's answers and the cache first)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    state = out.parent / STATE
    done = answered(out)
    keys = [r.key() for r in requests]
    results: dict[str, tuple[Response, bool]] = {}  # key → (response, from the cache)
    for key in keys:
        if key in done:
            results[key] = (done[key].response, done[key].cached)
        elif cache is not None and (hit := cache.get(key)) is not None:
            results[key] = (Response.from_dict(hit), True)
    fresh: dict[str, tuple[Response, bool]] = {k: v for k, v in results.items()
                                               if k not in done}
    pending = [b for b in read_state(state) if not b.collected]
    waiting = {k for b in pending for k in b.keys}
    todo = {key: request for key, request in zip(keys, requests, strict=True)
            if key not in results and key not in waiting}
    items = list(todo.items())
    for start in range(0, len(items), api.max_requests):
        chunk = items[start:start + api.max_requests]
        batch = await api.submit(chunk)
        _note(state, {"event": "submitted", "batch": batch, "keys": [k for k, _ in chunk]})
        pending.append(Submitted(batch, tuple(k for k, _ in chunk)))
    by_key = dict(zip(keys, requests, strict=True))
    for submitted in pending:
        status = await api.status(submitted.id)
        while not status.ended:
            await asyncio.sleep(poll_seconds)
            status = await api.status(submitted.id)
        answers = await api.results(submitted.id)
        for key in submitted.keys:
            response = answers.get(key) or Response.failed(missing(status.state), 1, 0.0)
            if response.status == "ok" and cache is not None and key in by_key:
                cache.put(by_key[key], response.as_dict(), key)
            fresh[key] = results[key] = (response, False)
        _note(state, {"event": "collected", "batch": submitted.id, "state": status.state})
    records = []
    with out.open("a", encoding="utf-8") as sink:
        for index, (key, request) in enumerate(zip(keys, requests, strict=True)):
            response, cached = results[key]
            images = tuple(describe(p) for m in request.messages for p in m.parts
                           if isinstance(p, ImagePart))
            record = ResponseRecord(index, key, cached, images, response,
                                    ids[index] if ids else None)
            if key in fresh:
                sink.write(json.dumps(record.to_json()) + "\n")
                fresh.pop(key)  # a request asked twice is written once
            progress(response)
            records.append(record)
    if cache is not None:
        cache.flush()
    return records
