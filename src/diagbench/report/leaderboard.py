"""The leaderboard across runs (`diagbench leaderboard`): its records and how it is
written (Markdown, CSV, HTML, JSON). It is given its figures (each benchmark's
`Headline`s); it reads no run itself."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field

FORMATS = ("md", "csv", "html", "json")


@dataclass(frozen=True, slots=True)
class Headline:
    """One model's value of a headline metric in a run (`Benchmark.headlines`): the
    value (None where undefined), the number of samples it is over, its 95 % interval
    where the benchmark computes one, the model's failures in the run (unusable images,
    failed calls, unreadable answers: each counted wrong; None: not known),
    `clustered`: the 95 % interval clustered by source diagram (resampling diagrams,
    not samples), where the summary has it, and `cost`: what the model's answers in the
    run cost in USD (its `usage.json`; None: not known)."""

    model: str
    metric: str
    value: float | None
    n: int
    interval: tuple[float, float] | None = None
    failures: int | None = None
    clustered: tuple[float, float] | None = None
    cost: float | None = None

    @property
    def cost_per_point(self) -> float | None:
        """USD per point of the value (cost ÷ value; None without both, or at 0)."""
        return self.cost / self.value if self.cost is not None and self.value else None


@dataclass(frozen=True, slots=True)
class BoardColumn:
    """One column: a benchmark's metric (whether higher is better, what it means), in
    one run or (`run` None) in every run."""

    benchmark: str
    metric: str
    higher_is_better: bool
    description: str
    run: str | None = None

    @property
    def title(self) -> str:
        return f"{self.benchmark} {self.metric}" + (f" ({self.run})" if self.run else "")


@dataclass(slots=True)
class Board:
    """The columns, and per model its value in each column (by title); the runs that
    could not be read, each with why."""

    columns: list[BoardColumn] = field(default_factory=list)
    rows: dict[str, dict[str, Headline]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def _cell(h: Headline | None, digits: int = 2) -> str:
    if h is None:
        return "—"
    failed = f", {h.failures} failed" if h.failures else ""
    if h.value is None:
        return f"— (n {h.n}{failed})" if h.n or failed else "—"
    interval = f" [{h.interval[0]:.{digits}f}–{h.interval[1]:.{digits}f}]" if h.interval else ""
    if h.clustered:
        interval += f" [clustered {h.clustered[0]:.{digits}f}–{h.clustered[1]:.{digits}f}]"
    cost = (f", ${h.cost:.4f}" + (f", ${h.cost_per_point:.4f}/point" if h.cost_per_point
                                   else "")) if h.cost is not None else ""
    return f"{h.value:.{digits}f}{interval} (n {h.n}{failed}{cost})"


_FAILED = ("n: the samples a value is over; failed: those never answered or whose "
           "answer could not be read, each counted wrong; $: what the model's answers in "
           "the run cost, and per point of the value.")


def render(board: Board, fmt: str) -> str:
    """The board as Markdown, CSV, HTML or JSON."""
    titles = [c.title for c in board.columns]
    models = list(board.rows)
    if fmt == "json":
        return json.dumps({"columns": [{"title": c.title, "benchmark": c.benchmark,
                                        "metric": c.metric, "run": c.run,
                                        "higher_is_better": c.higher_is_better,
                                        "description": c.description}
                                       for c in board.columns],
                           "rows": [{"model": m, "cells": {
                               t: {"value": h.value, "n": h.n,
                                   "interval": list(h.interval) if h.interval else None,
                                   "failures": h.failures,
                                   "clustered": list(h.clustered) if h.clustered else None,
                                   "cost_usd": h.cost, "cost_per_point": h.cost_per_point}
                               for t, h in board.rows[m].items()}} for m in models],
                           "problems": board.problems}, indent=1, ensure_ascii=False) + "\n"
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["model", *(f"{t} {part}" for t in titles
                                    for part in ("value", "low", "high", "n", "failures",
                                                 "clustered low", "clustered high", "cost usd",
                                                 "cost per point"))])
        for m in models:
            row: list[object] = [m]
            for t in titles:
                h = board.rows[m].get(t)
                low, high = h.interval if h and h.interval else (None, None)
                c_low, c_high = h.clustered if h and h.clustered else (None, None)
                row += [h.value if h else None, low, high, h.n if h else None,
                        h.failures if h else None, c_low, c_high, h.cost if h else None,
                        h.cost_per_point if h else None]
            writer.writerow(["" if v is None else v for v in row])
        return out.getvalue()
    cells = [[m, *(_cell(board.rows[m].get(t)) for t in titles)] for m in models]
    arrows = [f"{t} {'↑' if c.higher_is_better else '↓'}"
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
        report.paragraph("; ".join(f"{c.title}: {c.description}"
                                   for c in board.columns) + f". {_FAILED}", note=True)
        return report.page()
    raise ValueError(f"unknown format {fmt!r}")
