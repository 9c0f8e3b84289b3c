"""Score conversions against the ground truth: the paper's Table 2 per model and method,
and paired model tests (the formulas are in `diagbench.scoring.metrics`)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from pathlib import Path

from diagbench.benchmarks.conversion.convert import SCORED
from diagbench.benchmarks.conversion.samples import Sample
from diagbench.compare.counts import COMPONENTS
from diagbench.compare.inputs import Pair
from diagbench.compare.pair import METHODS, Method
from diagbench.compare.report import FileResult, report, run
from diagbench.scoring.metrics import paired_test

STATUSES = ("valid", "invalid", "no_script", "call_error", "image_error")


def score(samples: list[Sample], conversions: list[dict], method: Method) -> list[FileResult]:
    """Compare each conversion with its ground truth. An answer without a script is an
    empty prediction (every gold element deleted); a failed call or unusable image is
    not scored and keeps its reason."""
    pairs = []
    for sample, record in zip(samples, conversions, strict=True):
        gold = str(sample.gold)
        if record["status"] not in SCORED:
            pairs.append(Pair(sample.name, gold, None, error=f"{record['status']}: "
                                                            f"{record['error']}"))
            continue

        def load(g=sample.gold, p=record["script"]) -> tuple[str, str]:
            return (Path(g).read_text(encoding="utf-8"),
                    Path(p).read_text(encoding="utf-8") if p else "")
        pairs.append(Pair(sample.name, gold, record["script"], load))
    return run(pairs, method)


def status_counts(conversions: list[dict]) -> dict[str, int]:
    """How many images ended in each state (`STATUSES`; converted splits by validity)."""
    counts = Counter("valid" if r["status"] == "converted" and r["valid"]
                     else "invalid" if r["status"] == "converted" else r["status"]
                     for r in conversions)
    return {status: counts[status] for status in STATUSES}


def conversion_summary(conversions: list[dict]) -> dict:
    """Counts by status, tokens and mean latency of the answered (not cached) calls."""
    answered = [r for r in conversions if r["tokens"] is not None]
    fresh = [r["latency"] for r in answered if not r["cached"]]
    return {"images": len(conversions), "statuses": status_counts(conversions),
            "tokens": {kind: sum(r["tokens"][kind] for r in answered)
                       for kind in ("input", "output", "reasoning")},
            "mean_latency_s": sum(fresh) / len(fresh) if fresh else None}


def paired_tests(results: dict[str, list[FileResult]]) -> list[dict]:
    """Every pair of models, per component: per-file error rates compared on the files
    both have scored and whose ground truth has that component."""
    tests = []
    for (a, ra), (b, rb) in combinations(results.items(), 2):
        for component in COMPONENTS:
            xs, ys = [], []
            for fa, fb in zip(ra, rb, strict=True):
                if fa.comparison is None or fb.comparison is None:
                    continue
                x = fa.comparison.components[component].error_rate
                y = fb.comparison.components[component].error_rate
                if x is not None and y is not None:
                    xs.append(x)
                    ys.append(y)
            tests.append({"a": a, "b": b, "component": component,
                          **paired_test(xs, ys).as_dict()})
    return tests


def summarize_scores(models: dict[str, tuple[list[dict], dict[str, list[FileResult]]]],
                     problems: list[dict]) -> dict:
    """summary.json: per model its conversion counts and, per method, the pooled
    summary (Table 2 counts and rates); paired tests per method; gold problems."""
    return {
        "models": {name: {"conversion": conversion_summary(conversions),
                          "methods": {m: report(results[m], m)["summary"] for m in METHODS}}
                   for name, (conversions, results) in models.items()},
        "paired_tests": {m: paired_tests({name: results[m]
                                          for name, (_, results) in models.items()})
                         for m in METHODS},
        "gold_problems": problems,
    }
