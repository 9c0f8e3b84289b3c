"""The models of a Plotly figure as diagbench reads it: a chart (`Chart`: data traces
with their points, axes, title, legend) or a table (`TableFigure`: `table` traces with
their header and typed cells)."""

from __future__ import annotations

from dataclasses import dataclass

#: A point's key (its category, x value or label) or a cell's value: a number or a text.
Value = float | str


@dataclass(frozen=True, slots=True)
class Point:
    """One data point of a trace: its `key` (the x of a vertical bar or scatter point,
    the y of a horizontal bar, a pie's label, a sample's or cell's position) and its
    `value` (the y, x, slice value or sample; None where the figure gives none)."""

    key: Value
    value: float | str | None


@dataclass(frozen=True, slots=True)
class Trace:
    """One data trace: its Plotly `type`, legend `name`, `mode` (scatter: "markers",
    "lines+markers" …; "" for the others), `orientation` ("v" or "h") and its points
    in order."""

    type: str
    name: str
    points: tuple[Point, ...]
    mode: str = ""
    orientation: str = "v"

    def numbers(self) -> list[float]:
        """The point values that are numbers."""
        return [p.value for p in self.points if isinstance(p.value, float)]


@dataclass(frozen=True, slots=True)
class Axis:
    """A cartesian axis of the layout: `name` ("xaxis", "yaxis2" …), its title and its
    range when the figure fixes one."""

    name: str
    title: str
    range: tuple[float, float] | None = None


@dataclass(frozen=True, slots=True)
class Chart:
    """A figure of data traces: its `title`, the drawn traces (`visible` not false), the
    axes the layout sets and the legend's entries (the names of traces shown in it)."""

    title: str
    traces: tuple[Trace, ...]
    axes: tuple[Axis, ...] = ()
    legend: tuple[str, ...] = ()

    def counts(self) -> dict[str, int]:
        return {"traces": len(self.traces),
                "points": sum(len(t.points) for t in self.traces)}

    def extremes(self) -> tuple[float, float] | None:
        """The least and the greatest number of every trace, None when there is none."""
        numbers = [v for t in self.traces for v in t.numbers()]
        return (min(numbers), max(numbers)) if numbers else None


@dataclass(frozen=True, slots=True)
class Table:
    """One `table` trace: its column headers and its columns of typed cells (a number
    or a text; "" for an empty cell), all as long as its longest column."""

    header: tuple[str, ...]
    columns: tuple[tuple[Value, ...], ...]

    @property
    def rows(self) -> int:
        return max((len(c) for c in self.columns), default=0)

    def cell(self, row: int, column: int) -> Value:
        """The cell at 0-based `row` and `column` ("" past a short column's end)."""
        cells = self.columns[column]
        return cells[row] if row < len(cells) else ""


@dataclass(frozen=True, slots=True)
class TableFigure:
    """A figure of `table` traces: its `title` and its tables."""

    title: str
    tables: tuple[Table, ...]

    def counts(self) -> dict[str, int]:
        return {"tables": len(self.tables),
                "rows": sum(t.rows for t in self.tables),
                "columns": sum(len(t.columns) for t in self.tables),
                "cells": sum(t.rows * len(t.columns) for t in self.tables)}


def number_text(value: Value) -> str:
    """A value as a figure shows it by default: a whole number without ".0" (12, not
    12.0), other numbers in their shortest form, texts as they are."""
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    return value
