"""Image-to-code similarity of Plotly figures: for a chart, whether each trace is drawn
as the right type with the right data, and whether its texts (title, axis titles,
legend) are right; for a table, cell F1 over (row, column, value) with its header.

Both codes are read by the language's reader (its model, so key order, number
formatting and defaults written out change nothing). A prediction that does not
read (an error) or does not render scores 0, and so does one of the other kind (a
table for a chart).

**Chart.** Two points agree (`agree`) when both are missing, when both are numbers
within a relative tolerance of 1 % (|a − b| ≤ 0.01 · max(|a|, |b|)), or when both are
texts equal after case and white space are folded. A trace's points are paired by
key (its category, x or label; the second "Q1" with the second "Q1"), and

- data(g, p) = #{gold points whose paired point agrees} / max(|g|, |p|) (1 for two
  traces without points);
- pair(g, p) = ½ · 𝟙[same type] + ½ · data(g, p);
- T = Σ pair / max(|G|, |P|) over the one-to-one pairing of gold and predicted traces
  with the greatest total (`compare.assignment.assign`; 1 for two figures without
  traces);
- X = F1 of the multisets of texts: the title, each axis' title (by axis) and each
  legend entry, folded as above (1 when neither figure has any);

and S = 𝟙[valid] · (¾ · T + ¼ · X). Axis ranges and styles are not scored.

**Table.** Each non-empty cell is (table, row, its column's header, the value as
drawn: a whole number without ".0", texts folded as above); each header is (table,
header). C = F1 of the gold and predicted multisets of cells, H = F1 of the headers
(`scoring.metrics.structure.set_f1`: 1 when both are empty), and
S = 𝟙[valid] · (¼ · H + ¾ · C): a cell under a renamed column no longer matches.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any

from diagbench.compare.graph import model_of
from diagbench.formats.parsed import Diagram, Parsed
from diagbench.languages.plotly.model import (
    Chart,
    Point,
    TableFigure,
    Trace,
    number_text,
)
from diagbench.scoring.metrics.structure import set_f1, strudel_count_score

#: The relative tolerance within which two numbers agree.
RELATIVE_TOLERANCE = 0.01


def fold(text: str) -> str:
    """A text compared without case and with its white space collapsed."""
    return " ".join(text.casefold().split())


def agree(gold: float | str | None, pred: float | str | None) -> bool:
    """Whether two point values agree (see the module's docstring).

    >>> agree(100.0, 100.9), agree(100.0, 101.5), agree("Yes ", "yes"), agree(None, 0.0)
    (True, False, True, False)
    """
    if isinstance(gold, float) and isinstance(pred, float):
        return abs(gold - pred) <= RELATIVE_TOLERANCE * max(abs(gold), abs(pred))
    if isinstance(gold, str) and isinstance(pred, str):
        return fold(gold) == fold(pred)
    return gold is None and pred is None


def _keyed(points: Iterable[Point]) -> dict[tuple[Hashable, int], float | str | None]:
    """Points by (key, its occurrence among points of that key)."""
    seen: Counter[Hashable] = Counter()
    out: dict[tuple[Hashable, int], float | str | None] = {}
    for point in points:
        key = fold(point.key) if isinstance(point.key, str) else point.key
        out[(key, seen[key])] = point.value
        seen[key] += 1
    return out


def data_agreement(gold: Trace, pred: Trace) -> float:
    """data(g, p): the share of points that agree (see the module's docstring).

    >>> g = Trace("bar", "", (Point("a", 1.0), Point("b", 2.0), Point("c", 3.0)))
    >>> p = Trace("bar", "", (Point("a", 1.0), Point("b", 2.0), Point("c", 9.0)))
    >>> round(data_agreement(g, p), 4)
    0.6667
    """
    if not gold.points and not pred.points:
        return 1.0
    predicted = _keyed(pred.points)
    agreed = sum(1 for key, value in _keyed(gold.points).items()
                 if key in predicted and agree(value, predicted[key]))
    return agreed / max(len(gold.points), len(pred.points))


def trace_pair(gold: Trace, pred: Trace) -> float:
    """pair(g, p) = ½ · 𝟙[same type] + ½ · data(g, p)."""
    return 0.5 * (gold.type == pred.type) + 0.5 * data_agreement(gold, pred)


def trace_match(gold: tuple[Trace, ...], pred: tuple[Trace, ...]) -> float:
    """T: the best one-to-one pairing's Σ pair / max(|G|, |P|) (1 when both have no
    traces)."""
    import numpy as np

    from diagbench.compare.assignment import assign

    if not gold and not pred:
        return 1.0
    cost = np.array([[1.0 - trace_pair(g, p) for p in pred] for g in gold]).reshape(
        len(gold), len(pred))
    total = sum(1.0 - cost[i, j] for i, j in assign(cost, 1.0))
    return float(total) / max(len(gold), len(pred))


def multiset_f1(gold: Iterable[Hashable], pred: Iterable[Hashable]) -> float:
    """F1 of two multisets (1 when both are empty)."""
    g, p = Counter(gold), Counter(pred)
    return set_f1(sum((g & p).values()), sum(g.values()), sum(p.values()))[2]


def chart_texts(chart: Chart) -> list[tuple[str, str]]:
    """The texts X compares: ("title", …), (axis name, its title), ("legend", entry)."""
    texts = [("title", chart.title)] + [(a.name, a.title) for a in chart.axes]
    texts += [("legend", entry) for entry in chart.legend]
    return [(where, fold(text)) for where, text in texts if text.strip()]


def table_cells(figure: TableFigure) -> list[tuple[int, int, str, str]]:
    """The cells C compares: (table, row, header, value as drawn), non-empty ones."""
    return [(t, r, fold(table.header[c]), fold(number_text(value)))
            for t, table in enumerate(figure.tables)
            for c, column in enumerate(table.columns)
            for r, value in enumerate(column) if number_text(value).strip()]


def table_headers(figure: TableFigure) -> list[tuple[int, str]]:
    return [(t, fold(h)) for t, table in enumerate(figure.tables) for h in table.header]


@dataclass(frozen=True, slots=True)
class FigureComparison:
    """The comparison of a predicted figure with the gold one: for a chart `parts` are
    T ("traces") and X ("texts"), for a table H ("header") and C ("cells")."""

    valid: bool
    kind: str
    parts: dict[str, float] = field(default_factory=dict)
    gold_counts: dict[str, int] = field(default_factory=dict)
    pred_counts: dict[str, int] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    @property
    def score(self) -> float:
        if not self.valid or not self.parts:
            return 0.0
        if self.kind == "table":
            return 0.25 * self.parts["header"] + 0.75 * self.parts["cells"]
        return 0.75 * self.parts["traces"] + 0.25 * self.parts["texts"]

    @property
    def counts_score(self) -> float:
        return strudel_count_score(self.valid, self.gold_counts, self.pred_counts)

    def as_dict(self) -> dict[str, Any]:
        return {"status": "ok", "kind": self.kind, "valid": self.valid,
                **{k: round(v, 6) for k, v in self.parts.items()},
                "score": round(self.score, 6), "counts_score": round(self.counts_score, 6),
                "gold_counts": self.gold_counts, "pred_counts": self.pred_counts,
                "warnings": list(self.warnings)}


def compare_figures(gold_read: Parsed[Diagram], pred_read: Parsed[Diagram] | None,
                    valid: bool) -> FigureComparison:
    """Compare a predicted Plotly figure with its gold one (both read by the language's
    reader; see the module's docstring)."""
    gold, _, _ = model_of(gold_read)
    pred, _, warnings = model_of(pred_read)
    kind = gold_read.kind
    gold_counts = gold.counts() if gold is not None else {}
    pred_counts = pred.counts() if pred is not None and not warnings else {}
    if gold is None or pred is None or warnings or type(gold) is not type(pred):
        why = warnings or (f"a {pred_read.kind if pred_read else 'missing'} figure, "
                           f"not a {kind}",)
        return FigureComparison(False, kind, {}, gold_counts, pred_counts, tuple(why))
    if isinstance(gold, TableFigure) and isinstance(pred, TableFigure):
        parts = {"header": multiset_f1(table_headers(gold), table_headers(pred)),
                 "cells": multiset_f1(table_cells(gold), table_cells(pred))}
    else:
        assert isinstance(gold, Chart) and isinstance(pred, Chart)
        parts = {"traces": trace_match(gold.traces, pred.traces),
                 "texts": multiset_f1(chart_texts(gold), chart_texts(pred))}
    return FigureComparison(valid, kind, parts, gold_counts, pred_counts)


__all__ = ["FigureComparison", "agree", "compare_figures", "data_agreement",
           "trace_match", "trace_pair"]
