"""A run is a directory: `manifest.json`, and `responses.jsonl` appended as answers arrive.

The manifest records what was asked (diagbench version, provider, model asked
for and served, parameters, hashes of the prompt template and the dataset) and,
at the end, the counts, token totals and an estimated cost from `prices.json`.
No key or image bytes are ever written: images appear as path and sha256.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from diagbench import __version__
from diagbench.models.prices import TRUNCATED, PriceTable, load_prices

if TYPE_CHECKING:
    from diagbench.models.runner import ResponseRecord


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def summarize(records: list[ResponseRecord], model: str, table: PriceTable | None = None,
              batch: bool = False) -> dict:
    """Counts, token totals, answers cut by the token limit, models served and estimated
    cost of a run's records (`table`: the bundled price table by default; `batch`: at
    the batch price)."""
    responses = [r.response for r in records]
    status = Counter(r.status for r in responses)
    tokens = {kind: sum(getattr(r.usage, kind) for r in responses)
              for kind in ("input_tokens", "output_tokens", "reasoning_tokens")}
    table = table or load_prices()
    costs = [table.cost(model, r.usage, batch) for r in responses]
    cost = None if None in costs else round(sum(c for c in costs if c is not None), 6)
    truncated = sum(r.finish_reason in TRUNCATED for r in responses)
    return {"requests": len(records), "ok": status["ok"], "errors": status["error"],
            "error_rate": status["error"] / len(records) if records else 0.0,
            "cached": sum(r.cached for r in records),
            "served_models": sorted({r.served_model for r in responses if r.served_model}),
            "tokens": tokens, "truncated": truncated,
            "truncated_share": truncated / status["ok"] if status["ok"] else None,
            "estimated_cost_usd": cost}


def write_manifest(run: Path, fields: dict) -> None:
    """Write `manifest.json` (fields plus the diagbench version) atomically."""
    run.mkdir(parents=True, exist_ok=True)
    tmp = run / "manifest.json.tmp"
    tmp.write_text(json.dumps({"diagbench_version": __version__} | fields, indent=1) + "\n",
                   encoding="utf-8")
    tmp.replace(run / "manifest.json")
