"""The metrics of paper 002 §3.2 over scored records (one per instance × scale).

    EM     = 100 · mean 1[𝒩(Ĉ(x)) = 𝒩(C(x))]        class-name recovery
    RelAcc = 100 · mean 1[ŷ(x) = y(x)]               relation direction (Unknown is wrong)
    Δ      = RelAcc(prior-conform) − RelAcc(prior-conflict)

Δ takes 2-reverse as the prior-conflicting set (the matched two-class contrast,
the paper's Fig. 4); `gaps` also gives it for 3-reverse and 3-mixed. An empty
set has no value (None). The prerequisite of §4: EM ≥ 95 and prior-free
RelAcc ≥ 50 (the model can read the diagram at all).

Example: conform answers correct 9 of 10, 2-reverse 3 of 10 → RelAcc 90 and 30,
Δ = 60.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

EM_THRESHOLD, PRIOR_FREE_THRESHOLD = 95.0, 50.0
RESAMPLES = 10_000


def _mean(values: list[bool]) -> float | None:
    return 100.0 * sum(values) / len(values) if values else None


def rel_acc(records: Iterable[dict]) -> float | None:
    return _mean([r["correct"] for r in records])


def exact_match(records: Iterable[dict]) -> float | None:
    return _mean([r["em"] for r in records])


def select(records: list[dict], **fields) -> list[dict]:
    """The records whose fields have the given values."""
    return [r for r in records if all(r[k] == v for k, v in fields.items())]


def gap(records: list[dict], conflict: str = "2-reverse") -> float | None:
    """Δ = RelAcc(prior-conform) − RelAcc(`conflict`)."""
    conform = rel_acc(select(records, condition="prior-conform"))
    other = rel_acc(select(records, condition=conflict))
    return None if conform is None or other is None else conform - other


def gap_interval(records: list[dict], conflict: str = "2-reverse", seed: int = 0,
                 resamples: int = RESAMPLES) -> tuple[float, float] | None:
    """95 % percentile bootstrap interval of Δ, resampling each condition's records."""
    a = np.array([r["correct"] for r in select(records, condition="prior-conform")], float)
    b = np.array([r["correct"] for r in select(records, condition=conflict)], float)
    if not len(a) or not len(b):
        return None
    rng = np.random.default_rng(seed)
    deltas = 100.0 * (a[rng.integers(0, len(a), (resamples, len(a)))].mean(axis=1)
                      - b[rng.integers(0, len(b), (resamples, len(b)))].mean(axis=1))
    low, high = np.percentile(deltas, [2.5, 97.5])
    return float(low), float(high)


def prerequisite(records: list[dict]) -> dict:
    """EM over all records ≥ 95 and prior-free RelAcc ≥ 50."""
    em = exact_match(records)
    free = rel_acc(select(records, condition="prior-free"))
    return {"em": em, "prior_free_rel_acc": free,
            "passed": em is not None and free is not None and em >= EM_THRESHOLD
            and free >= PRIOR_FREE_THRESHOLD}
