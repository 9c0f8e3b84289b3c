"""PNG plots with matplotlib (Agg: no display needed). Each function draws one figure
from numbers already computed and writes it to `path`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

Values = Sequence[float | None]


def _save(fig, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def grouped_bars(path: Path, categories: Sequence[str], series: Mapping[str, Values],
                 ylabel: str, title: str, percent: bool = False) -> Path:
    """One group of bars per category, one bar per series (a missing value: no bar);
    `percent` fixes the axis at 0–100."""
    fig, ax = plt.subplots(figsize=(max(6.0, 0.9 * len(categories) * max(1, len(series))), 4))
    width = 0.8 / max(1, len(series))
    for k, (name, values) in enumerate(series.items()):
        xs = [i + (k - (len(series) - 1) / 2) * width for i in range(len(categories))]
        heights = [v if v is not None else 0.0 for v in values]
        bars = ax.bar(xs, heights, width, label=name)
        for bar, value in zip(bars, values, strict=True):
            label = "—" if value is None else f"{value:.3g}"
            ax.annotate(label, (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                        ha="center", va="bottom", fontsize=7)
    ax.set_xticks(range(len(categories)), categories, rotation=20, ha="right")
    if percent:
        ax.set_ylim(0, 105)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if len(series) > 1:
        ax.legend(fontsize=8)
    return _save(fig, path)


def error_bar_lines(path: Path, bins: Sequence[str],
                    series: Mapping[str, tuple[Values, Values]], xlabel: str, ylabel: str,
                    title: str) -> Path:
    """One line per series over `bins`: (means, error half-widths); None where a bin is empty."""
    fig, ax = plt.subplots(figsize=(7, 4))
    for name, (means, errors) in series.items():
        points = [(i, m, e or 0.0) for i, (m, e) in enumerate(zip(means, errors, strict=True))
                  if m is not None]
        if points:
            xs, ys, es = zip(*points, strict=True)
            ax.errorbar(xs, ys, yerr=es, marker="o", capsize=4, label=name)
    ax.set_xticks(range(len(bins)), bins)
    ax.set_xlim(-0.5, len(bins) - 0.5)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8)
    return _save(fig, path)


def scatter_thresholds(path: Path, points: dict[str, tuple[float, float]], xline: float,
                       yline: float, xlabel: str, ylabel: str, title: str) -> Path:
    """One labelled point per name, with dashed threshold lines at x = xline, y = yline."""
    fig, ax = plt.subplots(figsize=(6, 5))
    for name, (x, y) in points.items():
        ax.scatter([x], [y], s=40)
        ax.annotate(name, (x, y), textcoords="offset points", xytext=(5, 5), fontsize=8)
    ax.axvline(xline, linestyle="--", color="grey")
    ax.axhline(yline, linestyle="--", color="grey")
    ax.set_xlim(-2, 102)
    ax.set_ylim(-2, 102)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    return _save(fig, path)


def labelled_scatter(path: Path, points: Mapping[str, tuple[float, float]], xlabel: str,
                     ylabel: str, title: str, ylim: tuple[float, float] | None = (0, 105)
                     ) -> Path:
    """One labelled point per name (x, y), axes scaled to the data (y fixed at `ylim`)."""
    fig, ax = plt.subplots(figsize=(6, 4.5))
    for name, (x, y) in points.items():
        ax.scatter([x], [y], s=40)
        ax.annotate(name, (x, y), textcoords="offset points", xytext=(5, 5), fontsize=8)
    if ylim is not None:
        ax.set_ylim(*ylim)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    return _save(fig, path)
