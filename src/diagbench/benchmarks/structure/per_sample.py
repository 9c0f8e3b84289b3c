"""Asking the generating model one more thing about each kept sample (a question of its
own, a caption), through the runner, and reading each answer strictly."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from diagbench.benchmarks.progress import Bars, no_bars
from diagbench.benchmarks.structure.planned import Planned

T = TypeVar("T")
#: A sample's prompt: (system prompt, user prompt).
Prompt = Callable[[Planned], tuple[str, str]]
#: An answer read: (what was read, or None and why not).
Reader = Callable[[Planned, str], tuple[T | None, str]]


def ask_each(samples: list[Planned], prompt: Prompt, read: Reader[T], settings: Any,
             out: Path, max_connections: int = 8, bars: Bars = no_bars, label: str = "asking"
             ) -> tuple[dict[str, T], Counter[str], list[tuple[Planned, str, str]]]:
    """Ask `prompt(sample)` of every sample (responses in `out`, resumed from it; its
    progress shown by `bars` under `label`) and
    read each answer with `read`; (what was read by sample id, the samples dropped
    counted by reason, and each dropped sample with its reason and detail — a failed
    call's error)."""
    from diagbench.models.request import user_request

    spec = settings.spec
    requests = []
    for s in samples:
        system, user = prompt(s)
        requests.append(user_request(spec.provider, spec.model, user, (), settings.config,
                                     spec.base_url, system=system))
    with bars(len(requests), f"{settings.name}: {label}") as bar:
        records = settings.run(requests, out, max_connections, lambda r: bar.update(1, r),
                               [s.id for s in samples]) if requests else []
    kept: dict[str, T] = {}
    dropped: Counter[str] = Counter()
    failed: list[tuple[Planned, str, str]] = []
    for s, record in zip(samples, records, strict=True):
        r = record.response
        value, reason, detail = None, "the call failed", str(r.error)
        if r.status == "ok":
            (value, reason), detail = read(s, r.text), ""
        if value is None:
            dropped[reason] += 1
            failed.append((s, reason, detail))
        else:
            kept[s.id] = value
    return kept, dropped, failed
