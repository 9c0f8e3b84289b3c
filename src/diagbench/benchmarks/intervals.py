"""The intervals of a run's headline metrics, naive and clustered by source diagram, from
each benchmark's `SampleValue`s (`scoring.metrics.intervals` has the formulas): what
every summary.json keeps under ``intervals`` per model, and what `leaderboard` shows."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from diagbench.benchmarks.protocol import RowMetric, SampleValue
from diagbench.scoring.metrics.intervals import RESAMPLES, intervals


def grouped(values: Iterable[SampleValue]) -> dict[str, dict[str, list[SampleValue]]]:
    """The values by model, then metric (in the order first seen)."""
    out: dict[str, dict[str, list[SampleValue]]] = {}
    for v in values:
        out.setdefault(v.model, {}).setdefault(v.metric, []).append(v)
    return out


def metric_intervals(values: Sequence[SampleValue], scale: float,
                     resamples: int = RESAMPLES, seed: int = 0) -> dict[str, Any]:
    """The `Intervals` of one model's values of one metric, as JSON in the metric's unit."""
    weights = [v.weight for v in values]
    return intervals([v.value for v in values], [v.cluster for v in values], resamples, seed,
                     None if all(w == 1 for w in weights) else weights).as_dict(scale)


def model_intervals(values: Iterable[SampleValue], metrics: Sequence[RowMetric],
                    resamples: int = RESAMPLES) -> dict[str, dict[str, dict[str, Any]]]:
    """model → metric → its intervals (`metric_intervals`), for a summary."""
    scales = {m.name: m.scale for m in metrics}
    return {model: {metric: metric_intervals(vs, scales.get(metric, 1.0), resamples)
                    for metric, vs in by_metric.items()}
            for model, by_metric in grouped(values).items()}


def clustered(intervals_of_model: Mapping[str, Any] | None, metric: str
              ) -> tuple[float, float] | None:
    """The clustered 95 % interval of `metric` in one model's ``intervals`` (None where
    the summary has none: an older run, or no sample)."""
    ci = (intervals_of_model or {}).get(metric, {}).get("ci95_clustered")
    return None if ci is None else (ci[0], ci[1])
