"""One table of every model × benchmark headline metric over several runs
(`diagbench leaderboard`): each run's benchmark (its manifest) gives its headline
metrics (`Benchmark.headline_metrics`, `Benchmark.headlines` of its summary.json); a
model is one row across runs; a column is one benchmark's metric, split by run only
where two runs give the same model a value of it."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from diagbench.benchmarks.jsonl import read_text
from diagbench.benchmarks.protocol import DataError, Headline, RowMetric
from diagbench.benchmarks.registry import get, registered

FORMATS = ("md", "csv", "html", "json")


@dataclass(frozen=True, slots=True)
class BoardColumn:
    """One column: a benchmark's metric, in one run or (`run` None) in every run."""

    benchmark: str
    metric: RowMetric
    run: str | None = None

    @property
    def title(self) -> str:
        return f"{self.benchmark} {self.metric.name}" + (f" ({self.run})" if self.run else "")


@dataclass(slots=True)
class Board:
    """The columns, and per model its value in each column (by title); the runs that
    could not be read, each with why."""

    columns: list[BoardColumn] = field(default_factory=list)
    rows: dict[str, dict[str, Headline]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


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
            column = BoardColumn(name, metrics[h.metric], str(run) if split else None)
            if column not in board.columns:
                board.columns.append(column)
            board.rows.setdefault(h.model, {})[column.title] = h
    return board


def _cell(h: Headline | None, digits: int = 2) -> str:
    if h is None or h.value is None:
        return "—"
    interval = f" [{h.interval[0]:.{digits}f}–{h.interval[1]:.{digits}f}]" if h.interval else ""
    return f"{h.value:.{digits}f}{interval} (n {h.n})"


def render(board: Board, fmt: str) -> str:
    """The board as Markdown, CSV, HTML or JSON."""
    titles = [c.title for c in board.columns]
    models = list(board.rows)
    if fmt == "json":
        return json.dumps({"columns": [{"title": c.title, "benchmark": c.benchmark,
                                        "metric": c.metric.name, "run": c.run,
                                        "higher_is_better": c.metric.higher_is_better,
                                        "description": c.metric.description}
                                       for c in board.columns],
                           "rows": [{"model": m, "cells": {
                               t: {"value": h.value, "n": h.n,
                                   "interval": list(h.interval) if h.interval else None}
                               for t, h in board.rows[m].items()}} for m in models],
                           "problems": board.problems}, indent=1, ensure_ascii=False) + "\n"
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["model", *(f"{t} {part}" for t in titles
                                    for part in ("value", "low", "high", "n"))])
        for m in models:
            row: list[object] = [m]
            for t in titles:
                h = board.rows[m].get(t)
                low, high = h.interval if h and h.interval else (None, None)
                row += [h.value if h else None, low, high, h.n if h else None]
            writer.writerow(["" if v is None else v for v in row])
        return out.getvalue()
    cells = [[m, *(_cell(board.rows[m].get(t)) for t in titles)] for m in models]
    arrows = [f"{t} {'↑' if c.metric.higher_is_better else '↓'}"
              for t, c in zip(titles, board.columns, strict=True)]
    if fmt == "md":
        lines = ["| model | " + " | ".join(arrows) + " |",
                 "|---|" + "---|" * len(titles)]
        lines += ["| " + " | ".join(row) + " |" for row in cells]
        return "\n".join(lines) + "\n"
    if fmt == "html":
        from diagbench.report.html import HtmlReport
        report = HtmlReport("diagbench leaderboard")
        report.table(["model", *arrows], cells)
        report.paragraph("; ".join(f"{c.title}: {c.metric.description}"
                                   for c in board.columns), note=True)
        return report.page()
    raise ValueError(f"unknown format {fmt!r}")
