"""The leaderboard's runs and figures (`diagbench leaderboard`; written by
`diagbench.report.leaderboard`): each run's benchmark (its manifest) gives its headline
metrics (`Benchmark.headline_metrics`, `Benchmark.headlines` of its summary.json) and
each model's failures (`Benchmark.failures`); a model is one row across runs; a column
is one benchmark's metric, split by run — every column of that metric labelled with its
run — where two runs give one model a value of it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from diagbench.benchmarks.jsonl import not_json, read_text
from diagbench.benchmarks.protocol import DataError
from diagbench.benchmarks.registry import get, registered
from diagbench.report.leaderboard import Board, BoardColumn, Headline


def read_run(run: Path) -> tuple[str, list[Headline]]:
    """(benchmark name, its headlines) of a run directory (DataError when it is not one)."""
    if not (run / "manifest.json").is_file():
        raise DataError(f"{run}: not a run directory (no manifest.json: give a directory "
                        "that `diagbench eval` wrote)")
    try:
        manifest = json.loads(read_text(run / "manifest.json"))
        name = manifest["benchmark"]
    except json.JSONDecodeError as exc:
        raise not_json(run / "manifest.json", exc) from None
    except (KeyError, TypeError):
        raise DataError(f"{run / 'manifest.json'}: names no benchmark") from None
    if name not in registered():
        raise DataError(f"{run / 'manifest.json'}: unknown benchmark {name!r}")
    if not (run / "summary.json").is_file():
        raise DataError(f"{run}: a run of {name} with no summary.json (not scored yet: "
                        f"`diagbench score {name} {run}`)")
    try:
        summary = json.loads(read_text(run / "summary.json"))
    except json.JSONDecodeError as exc:
        raise not_json(run / "summary.json", exc) from None
    bench = get(name)
    costs = _costs(run)
    try:
        read = bench.read_summary(summary)
        failures = bench.failures(read)
        return name, [replace(h, failures=failures[h.model].total if h.model in failures
                              and h.n else h.failures, cost=costs.get(h.model))
                      for h in bench.headlines(read)]
    except (KeyError, TypeError, ValueError) as exc:
        raise DataError(f"{run / 'summary.json'}: not a summary of {name} "
                        f"({type(exc).__name__}: {exc})") from None


def _costs(run: Path) -> dict[str, float]:
    """Each model's cost in USD in the run (its `usage.json`, where known)."""
    from diagbench.benchmarks.usage import USAGE

    if not (run / USAGE).is_file():
        return {}
    try:
        usage = json.loads(read_text(run / USAGE))
    except json.JSONDecodeError as exc:
        raise not_json(run / USAGE, exc) from None
    return {model: float(u["cost_usd"]) for model, u in usage.items()
            if isinstance(u, dict) and u.get("cost_usd") is not None}


def leaderboard(runs: Sequence[Path]) -> Board:
    """The board of `runs` (a run that cannot be read is a problem; the others count)."""
    board = Board()
    read: list[tuple[Path, str, list[Headline]]] = []
    for run in runs:
        try:
            read.append((run, *read_run(run)))
        except DataError as exc:
            board.problems.append(str(exc))
    seen: dict[tuple[str, str, str], int] = {}
    for _, name, headlines in read:
        for h in headlines:
            key = (name, h.metric, h.model)
            seen[key] = seen.get(key, 0) + 1
    shared = {(name, metric) for name, metric, _ in
              (key for key, count in seen.items() if count > 1)}
    for run, name, headlines in read:
        metrics = {m.name: m for m in get(name).headline_metrics}
        for h in headlines:
            split = (name, h.metric) in shared
            metric = metrics[h.metric]
            column = BoardColumn(name, metric.name, metric.higher_is_better, metric.description,
                                 str(run) if split else None)
            if column not in board.columns:
                board.columns.append(column)
            board.rows.setdefault(h.model, {})[column.title] = h
    return board
