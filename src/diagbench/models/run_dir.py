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
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from diagbench import __version__

if TYPE_CHECKING:
    from diagbench.models.runner import ResponseRecord


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def prices() -> dict[str, list[float]]:
    """USD per million (input, output) tokens by PROVIDER:MODEL."""
    table = json.loads(resources.files("diagbench.models").joinpath("prices.json").read_text())
    return {k: v for k, v in table.items() if not k.startswith("_")}


def summarize(records: list[ResponseRecord], model: str) -> dict:
    """Counts, token totals, models served and estimated cost of a run's records."""
    responses = [r.response for r in records]
    status = Counter(r.status for r in responses)
    tokens = {kind: sum(getattr(r.usage, kind) for r in responses)
              for kind in ("input_tokens", "output_tokens", "reasoning_tokens")}
    price = prices().get(model)
    cost = (None if price is None else
            round((tokens["input_tokens"] * price[0] + tokens["output_tokens"] * price[1]) / 1e6,
                  6))
    return {"requests": len(records), "ok": status["ok"], "errors": status["error"],
            "error_rate": status["error"] / len(records) if records else 0.0,
            "cached": sum(r.cached for r in records),
            "served_models": sorted({r.served_model for r in responses if r.served_model}),
            "tokens": tokens, "estimated_cost_usd": cost}


def write_manifest(run: Path, fields: dict) -> None:
    """Write `manifest.json` (fields plus the diagbench version) atomically."""
    run.mkdir(parents=True, exist_ok=True)
    tmp = run / "manifest.json.tmp"
    tmp.write_text(json.dumps({"diagbench_version": __version__} | fields, indent=1) + "\n",
                   encoding="utf-8")
    tmp.replace(run / "manifest.json")
