"""Score conversions against the ground truth: the paper's Table 2 per model and method,
and paired model tests (`compare.significance`; the formulas are in
`diagbench.scoring.metrics`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

from diagbench.benchmarks.conversion.records import (
    SCORED,
    Conversion,
    ConversionCounts,
    ConversionScore,
    ConversionSummary,
    ModelResults,
    Tokens,
)
from diagbench.benchmarks.conversion.robustness import METHOD, from_habit, robustness
from diagbench.benchmarks.conversion.samples import Sample
from diagbench.benchmarks.intervals import grouped, metric_intervals
from diagbench.benchmarks.protocol import Problem, SampleValue
from diagbench.compare.methods import METHODS, Method
from diagbench.compare.pair import Pair
from diagbench.compare.report import FileResult, report, run
from diagbench.compare.significance import paired_tests

STATUSES = ("valid", "invalid", "no_script", "call_error", "image_error")


def score(samples: list[Sample], conversions: list[Conversion], model: str
          ) -> list[ConversionScore]:
    """Compare each conversion with its ground truth by every method (method by method,
    files in order). An answer without a script is an empty prediction (every gold
    element deleted); a failed call or unusable image is not scored and keeps its reason.
    A counterfactual twin's semantic score says whether the script is closer to its
    original's ground truth (`robustness.from_habit`)."""
    golds = {s.name: s.gold for s in samples}
    scores = []
    for method in METHODS:
        results = compare(samples, conversions, method)
        scores += [ConversionScore(model, method, record, result, None if method != METHOD
                                   else from_habit(record, result,
                                                   golds.get(record.twin_of or "")))
                   for record, result in zip(conversions, results, strict=True)]
    return scores


def compare(samples: list[Sample], conversions: list[Conversion], method: Method
            ) -> list[FileResult]:
    """Each conversion compared with its ground truth by `method`."""
    pairs = []
    for sample, record in zip(samples, conversions, strict=True):
        gold = str(sample.gold)
        if record.status not in SCORED:
            pairs.append(Pair(sample.name, gold, None, error=f"{record.status}: "
                                                            f"{record.error}"))
            continue

        def load(g: str = gold, p: str | None = record.script) -> tuple[str, str]:
            return (Path(g).read_text(encoding="utf-8"),
                    Path(p).read_text(encoding="utf-8") if p else "")
        pairs.append(Pair(sample.name, gold, record.script, load))
    return run(pairs, method)


def by_method(scores: list[ConversionScore], method: Method) -> list[ConversionScore]:
    return [s for s in scores if s.method == method]


def status_counts(conversions: list[Conversion]) -> dict[str, int]:
    """How many images ended in each state (`STATUSES`; converted splits by validity)."""
    counts = Counter("valid" if r.status == "converted" and r.valid
                     else "invalid" if r.status == "converted" else r.status
                     for r in conversions)
    return {status: counts[status] for status in STATUSES}


def conversion_summary(conversions: list[Conversion]) -> ConversionCounts:
    """Counts by status, tokens and mean latency of the answered (not cached) calls."""
    used = [r.tokens for r in conversions if r.tokens is not None]
    fresh = [r.latency for r in conversions
             if r.tokens is not None and not r.cached and r.latency is not None]
    return ConversionCounts(len(conversions), status_counts(conversions),
                            Tokens(sum(t.input for t in used), sum(t.output for t in used),
                                   sum(t.reasoning for t in used)),
                            sum(fresh) / len(fresh) if fresh else None)


def originals(scores: Sequence[ConversionScore]) -> list[ConversionScore]:
    """The scores of the originals' images (those of no twin)."""
    return [s for s in scores if s.record.twin is None]


def sample_values(scores: Sequence[ConversionScore]) -> list[SampleValue]:
    """Each compared original file's errors over its gold elements, as "error rate
    METHOD" (a ratio: Σ errors / Σ gold elements is the pooled rate), one cluster per
    file; twins count only in the robustness figures."""
    return [SampleValue(s.model, f"error rate {s.method}", s.record.name, s.record.name,
                        float(c.errors), float(c.gold_elements))
            for s in originals(scores) if (c := s.result.comparison) is not None]


def summarize_scores(scores: Mapping[str, list[ConversionScore]],
                     problems: Sequence[Problem]) -> ConversionSummary:
    """summary.json: per model its conversion counts and, per method, the pooled
    summary (Table 2 counts and rates) and the intervals of its total error rate; paired
    tests per method; gold problems. Every figure is the originals' (as in a run without
    twins); with twins, a model also has its twins' conversion counts and its
    robustness figures."""
    def results(model: list[ConversionScore], method: Method) -> list[FileResult]:
        return [s.result for s in by_method(originals(model), method)]

    def twins(model: list[ConversionScore]) -> ConversionCounts | None:
        records = [s.record for s in by_method(model, METHODS[0]) if s.record.twin]
        return conversion_summary(records) if records else None

    return ConversionSummary(
        {name: ModelResults(conversion_summary([s.record for s in
                                                by_method(originals(model), METHODS[0])]),
                            {m: report(results(model, m), m)["summary"] for m in METHODS},
                            {metric: metric_intervals(values, 100) for metric, values in
                             grouped(sample_values(model)).get(name, {}).items()},
                            twins(model), robustness(model))
         for name, model in scores.items()},
        {m: paired_tests({name: results(model, m) for name, model in scores.items()})
         for m in METHODS},
        list(problems))
