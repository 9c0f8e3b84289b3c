"""What a run's answers used and cost, per model (RUN/usage.json, beside summary.json):
input,
output and reasoning tokens (totals and per answer), the share of answers cut by the
token limit, the cost from the price table (at the batch price for a batch run) and
the cost per correct answer (where the benchmark's headline metric is right/wrong)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from diagbench.benchmarks.asking import Answer
from diagbench.benchmarks.protocol import SampleValue
from diagbench.models.prices import TRUNCATED
from diagbench.models.settings import ModelSettings

USAGE = "usage.json"


def correct_count(values: Sequence[SampleValue], metrics: Sequence[str]) -> float | None:
    """How many samples the first of `metrics` (a right/wrong one) counts right; None
    when none of them is right/wrong (a score, a ratio)."""
    for metric in metrics:
        own = [v for v in values if v.metric == metric]
        if own and all(v.value in (0, 1) and v.weight == 1 for v in own):
            return sum(v.value for v in own)
    return None


def model_usage(answers: Mapping[str, Answer], settings: ModelSettings | None,
                correct: float | None) -> dict[str, Any]:
    """One model's usage block (`settings` None: no price known)."""
    used = [a for a in answers.values() if a.usage is not None and a.status == "ok"]
    totals = {kind: sum(getattr(a.usage, kind) for a in used)
              for kind in ("input_tokens", "output_tokens", "reasoning_tokens")}
    truncated = sum(a.finish_reason in TRUNCATED for a in used)
    costs = [settings.cost(a.usage) if settings and a.usage else None for a in used]
    cost = None if not used or None in costs else sum(c or 0.0 for c in costs)
    return {"answers": len(used), "tokens": totals,
            "tokens_per_answer": {k: round(v / len(used), 2) for k, v in totals.items()}
            if used else None,
            "truncated": truncated,
            "truncated_share": round(truncated / len(used), 4) if used else None,
            "batch": bool(settings and settings.batch),
            "cost_usd": None if cost is None else round(cost, 6),
            "correct": correct,
            "cost_per_correct_usd": None if cost is None or not correct
            else round(cost / correct, 6)}


def usage_line(model: str, usage: Mapping[str, Any]) -> str:
    """A usage block as `eval` and `score` print it."""
    share = usage["truncated_share"]
    cost, per = usage["cost_usd"], usage["cost_per_correct_usd"]
    return (f"{model}: {usage['answers']} answers, tokens in {usage['tokens']['input_tokens']:,}"
            f" out {usage['tokens']['output_tokens']:,}; cut by the token limit "
            f"{usage['truncated']}" + (f" ({100 * share:.1f} %)" if share is not None else "")
            + (f"; cost ${cost:.4f}" + (" (batch)" if usage["batch"] else "")
               if cost is not None else "; cost unknown (no price)")
            + (f", ${per:.4f} per correct answer" if per is not None else ""))
