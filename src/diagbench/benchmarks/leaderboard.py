"""The leaderboard's runs and figures (`diagbench leaderboard`; written by
`diagbench.report.leaderboard`): each run's benchmark (its manifest) gives its headline
metrics (`Benchmark.headline_metrics`, `Benchmark.headlines` of its summary.json); a
model is one row across runs; a column is one benchmark's metric, split by run only
where two runs give the same model a value of it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from diagbench.benchmarks.jsonl import read_text
from diagbench.benchmarks.protocol import DataError
from diagbench.benchmarks.registry import get, registered
from diagbench.report.leaderboard import Board, BoardColumn, Headline


def read_run(run: Path) -> tuple[str, list[Headline]]:
    """(benchmark name, its headlines) of a run directory (DataError when it is not one)."""
    try:
        manifest = json.loads(read_text(run / "manifest.json"))
        name = manifest["benchmark"]
        summary = json.loads(read_text(run / "summary.json"))
    except json.JSONDecodeError as exc:
        raise DataError(f"{run}: not JSON ({exc.msg})") from None
    except (KeyError, TypeError):
        raise DataError(f"{run / 'manifest.json'}: names no benchmark") from None
    if name not in registered():
        raise DataError(f"{run / 'manifest.json'}: unknown benchmark {name!r}")
    bench = get(name)
    try:
        return name, bench.headlines(bench.read_summary(summary))
    except (KeyError, TypeError, ValueError) as exc:
        raise DataError(f"{run / 'summary.json'}: not a summary of {name} "
                        f"({type(exc).__name__}: {exc})") from None


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
    for run, name, headlines in read:
        metrics = {m.name: m for m in get(name).headline_metrics}
        for h in headlines:
            split = seen[name, h.metric, h.model] > 1
            metric = metrics[h.metric]
            column = BoardColumn(name, metric.name, metric.higher_is_better, metric.description,
                                 str(run) if split else None)
            if column not in board.columns:
                board.columns.append(column)
            board.rows.setdefault(h.model, {})[column.title] = h
    return board
