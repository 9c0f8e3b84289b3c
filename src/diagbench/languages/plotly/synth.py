"""Seeded Plotly figures for the benchmarks: a chart or a table (the seed's choice),
sized by complexity.

A chart is a pie (low complexity, one time in two) or bars, then bars and a line with
markers, then two bar series and a line (medium, high), over 4, 6 or 8 categories of
one theme, with a title and axis titles. A table is a price list of 3, 4 or 5
columns ("Product", "Price", then "Stock", "Category", "Rating") and 4, 6 or 9 rows. Every
point is drawn as a mark (a bar, a marker, a slice) and every row fits the drawing,
so what the engine draws can be counted against what is read.
"""

from __future__ import annotations

import json
import random
from typing import Any

_SIZES = {"low": (4, 3, 4), "medium": (6, 4, 6), "high": (8, 5, 9)}
_THEMES = {
    "Sales by region": ("Region", ("North", "South", "East", "West", "Central", "Coast",
                                   "Mountain", "Islands")),
    "Monthly orders": ("Month", ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug")),
    "Revenue by product line": ("Product line", ("Basic", "Plus", "Pro", "Team", "Cloud",
                                                 "Mobile", "Support", "Training")),
    "Tickets by channel": ("Channel", ("Phone", "Email", "Chat", "Web", "Partner", "Store",
                                       "Social", "Kiosk")),
}
_SERIES = ("2023", "2024", "Target", "Forecast", "Budget")
_PRODUCTS = ("Laptop", "Monitor", "Keyboard", "Mouse", "Headset", "Webcam", "Dock",
             "Tablet", "Printer", "Router", "Speaker", "Charger")
_CATEGORIES = ("Computers", "Displays", "Accessories", "Audio", "Networking")


def synth_figure(rng: random.Random, complexity: str) -> str:
    """The JSON of a chart or a table at `complexity` ("low", "medium", "high")."""
    points, columns, rows = _SIZES.get(complexity, _SIZES["medium"])
    figure = _table(rng, columns, rows) if rng.random() < 0.5 else \
        _chart(rng, complexity, points)
    return json.dumps(figure, indent=2) + "\n"


def _chart(rng: random.Random, complexity: str, points: int) -> dict[str, Any]:
    title = rng.choice(sorted(_THEMES))
    axis, pool = _THEMES[title]
    keys = list(pool[:points])
    series = rng.sample(_SERIES, 3)

    def values() -> list[int]:
        return rng.sample(range(10, 400), points)

    if complexity == "low" and rng.random() < 0.5:
        data: list[dict[str, Any]] = [{"type": "pie", "labels": keys, "values": values()}]
        return {"data": data, "layout": {"title": {"text": title}}}
    data = [{"type": "bar", "name": series[0], "x": keys, "y": values()}]
    if complexity == "high":
        data.append({"type": "bar", "name": series[1], "x": keys, "y": values()})
    if complexity != "low":
        data.append({"type": "scatter", "mode": "lines+markers", "name": series[2],
                     "x": keys, "y": values()})
    return {"data": data, "layout": {"title": {"text": title},
                                     "xaxis": {"title": {"text": axis}},
                                     "yaxis": {"title": {"text": "Amount"}}}}


def _table(rng: random.Random, columns: int, rows: int) -> dict[str, Any]:
    products = rng.sample(_PRODUCTS, rows)
    cells: dict[str, list[Any]] = {
        "Product": products,
        "Price": [round(rng.uniform(5, 2000), 2) for _ in products],
        "Stock": [rng.randint(0, 500) for _ in products],
        "Category": [rng.choice(_CATEGORIES) for _ in products],
        "Rating": [round(rng.uniform(1, 5), 1) for _ in products],
    }
    header = list(cells)[:columns]
    return {"data": [{"type": "table", "header": {"values": header},
                      "cells": {"values": [cells[h] for h in header]}}],
            "layout": {"title": {"text": "Price list"}}}
