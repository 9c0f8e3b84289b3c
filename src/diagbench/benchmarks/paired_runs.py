"""Two runs of one benchmark compared on the samples both scored (`diagbench compare-runs`):
per headline metric and pair of models, the paired difference A − B with its naive and
diagram-clustered intervals, the exact McNemar test (right/wrong) or the clustered
sign-flip test (scores), and Holm's correction over every comparison made at once
(`scoring.metrics.comparison` has the formulas)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from diagbench.benchmarks.intervals import grouped
from diagbench.benchmarks.jsonl import read_jsonl, read_text
from diagbench.benchmarks.protocol import DataError, SampleValue
from diagbench.benchmarks.registry import get, registered
from diagbench.scoring.metrics.comparison import PairedDifference, holm, paired_difference


@dataclass(frozen=True, slots=True)
class RunValues:
    """A run's benchmark and every sample's values of its metrics."""

    run: Path
    benchmark: str
    values: list[SampleValue]


@dataclass(frozen=True, slots=True)
class Compared:
    """One comparison: the metric (its unit: `scale` times the sample values), model A of
    the first run against model B of the second, the result and its Holm-adjusted
    p-value among all comparisons made."""

    metric: str
    a: str
    b: str
    scale: float
    result: PairedDifference
    p_holm: float

    def to_json(self) -> dict[str, Any]:
        return {"metric": self.metric, "model_a": self.a, "model_b": self.b} | \
            self.result.as_dict(self.scale) | {"p_holm": round(self.p_holm, 6)}


def scored_models(run: Path) -> list[str]:
    """The models of RUN/scores.jsonl, in the order they first appear (a run scored from
    response logs has them nowhere else)."""
    names: dict[str, None] = {}
    for number, row in read_jsonl(run / "scores.jsonl"):
        if not isinstance(row.get("model"), str):
            raise DataError(f"{run / 'scores.jsonl'}:{number}: a score names no model")
        names[row["model"]] = None
    return list(names)


def read_values(run: Path) -> RunValues:
    """The sample values of a scored run (DataError naming the file when it is not one,
    or when its benchmark gives no sample values)."""
    try:
        name = json.loads(read_text(run / "manifest.json"))["benchmark"]
    except json.JSONDecodeError as exc:
        raise DataError(f"{run / 'manifest.json'}: not JSON ({exc.msg})") from None
    except (KeyError, TypeError):
        raise DataError(f"{run / 'manifest.json'}: names no benchmark") from None
    if name not in registered():
        raise DataError(f"{run / 'manifest.json'}: unknown benchmark {name!r}")
    bench = get(name)
    values = bench.sample_values(bench.load_scores(run, scored_models(run)))
    if not values:
        raise DataError(f"{run}: {name} gives no per-sample values to compare")
    return RunValues(run, name, values)


def pairs(models_a: Sequence[str], models_b: Sequence[str]) -> list[tuple[str, str]]:
    """Which models are compared: each with itself when both runs have the same models
    (one model, two settings), else every model of A with every model of B."""
    if set(models_a) == set(models_b):
        return [(m, m) for m in models_a]
    return [(a, b) for a in models_a for b in models_b]


def compare(first: RunValues, second: RunValues) -> list[Compared]:
    """Every comparison of `first` against `second` (DataError: not the same benchmark)."""
    if first.benchmark != second.benchmark:
        raise DataError(f"{first.run} is a run of {first.benchmark}, {second.run} of "
                        f"{second.benchmark}: only runs of one benchmark compare")
    scales = {m.name: m.scale for m in get(first.benchmark).headline_metrics}
    by_a, by_b = grouped(first.values), grouped(second.values)
    made: list[tuple[str, str, str, PairedDifference]] = []
    for a, b in pairs(list(by_a), list(by_b)):
        for metric, values_a in by_a[a].items():
            values_b = {v.id: v for v in by_b[b].get(metric, [])}
            shared = [(v, values_b[v.id]) for v in values_a if v.id in values_b]
            weights = [(x.weight + y.weight) / 2 for x, y in shared]
            made.append((metric, a, b, paired_difference(
                [x.value for x, _ in shared], [y.value for _, y in shared],
                [x.cluster for x, _ in shared],
                weights=None if all(w == 1 for w in weights) else weights)))
    adjusted = holm([r.p_value for *_, r in made])
    return [Compared(metric, a, b, scales.get(metric, 100.0 if r.test == "mcnemar" else 1.0),
                     r, p) for (metric, a, b, r), p in zip(made, adjusted, strict=True)]


def _f(value: float | None, digits: int = 2) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _span(ci: list | None) -> str:
    return "—" if ci is None else f"[{ci[0]:.2f}, {ci[1]:.2f}]"


def lines(first: RunValues, second: RunValues, compared: list[Compared]) -> list[str]:
    """The comparisons as the command prints them."""
    out = [f"A: {first.run}", f"B: {second.run}",
           f"benchmark: {first.benchmark}; {len(compared)} comparison(s), p-values "
           "Holm-adjusted over all of them"]
    for c in compared:
        d = c.to_json()
        diff = d["difference"]
        test = (f"McNemar exact (A only {c.result.a_only}, B only {c.result.b_only})"
                if c.result.test == "mcnemar" else "sign-flip over diagrams")
        out += [f"{c.metric}: {c.a} (A) − {c.b} (B)",
                f"  n {diff['n']} paired samples on {diff['clusters']} diagrams; "
                f"A {_f(d['a'])}, B {_f(d['b'])}, A − B {_f(diff['estimate'])}",
                f"  95 % CI clustered {_span(diff['ci95_clustered'])} (SE "
                f"{_f(diff['se_clustered'])}); naive {_span(diff['ci95'])} (SE "
                f"{_f(diff['se'])})",
                f"  {test}: p = {c.result.p_value:.4g}, Holm p = {c.p_holm:.4g}"]
    return out
