"""The report's section of intervals: per model and headline metric, the estimate with its
naive and diagram-clustered standard errors and 95 % bootstrap intervals, as a summary's
``intervals`` keeps them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from diagbench.report.html import HtmlReport

HEADER = ["Model", "metric", "value", "n", "diagrams", "SE", "SE clustered", "95 % CI",
          "95 % CI clustered"]
NOTE = ("Questions about one diagram are not independent: the clustered figures resample "
        "and sum over source diagrams (G of them), SE² = (G/(G−1)) · Σ_g (Σ_{i∈g}(yᵢ − ȳ))² "
        "/ n²; the naive ones treat every sample alone (s/√n, samples resampled). "
        "Bootstrap: 2,000 seeded resamples, 2.5th and 97.5th percentiles.")


def _span(ci: list[float] | None) -> str | None:
    return None if ci is None else f"{ci[0]:.2f}–{ci[1]:.2f}"


def rows(intervals: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> list[list[object]]:
    """One row per model and metric (`HEADER`'s columns)."""
    return [[model, metric, i["estimate"], i["n"], i["clusters"], i["se"], i["se_clustered"],
             _span(i["ci95"]), _span(i["ci95_clustered"])]
            for model, by_metric in intervals.items() for metric, i in by_metric.items()]


def intervals_section(report: HtmlReport,
                      intervals: Mapping[str, Mapping[str, Mapping[str, Any]] | None]) -> None:
    """The section (nothing where no model has intervals: a summary written before
    diagbench kept them)."""
    kept = {model: by_metric for model, by_metric in intervals.items() if by_metric}
    if not kept:
        return
    report.heading("Intervals: naive and clustered by diagram")
    report.table(HEADER, rows(kept))
    report.paragraph(NOTE, note=True)
