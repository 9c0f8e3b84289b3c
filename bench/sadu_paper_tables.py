"""How close runs of SADU's published logs come to paper 003's Tables 7 and 11: every
cell of the paper beside the run's, and how many are equal (to the printed precision).
RUN is a `diagbench score archqa --responses …` run: of the 11 default logs with
`--scorer sadu` (Table 7: `retrieval_sadu` as SADU's script, `retrieval` as Eq. 6–11),
or of the 11 `sythesis/hard_*` logs (Table 11: `by_pattern`), with either scorer.
Usage: python bench/sadu_paper_tables.py RUN [RUN …]
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

#: Table 7 of paper 003: Precision, Recall, F1, EMRate, SubsetRate, SupersetRate,
#: Missing, Spurious.
TABLE_7 = {
    "gemini-2.5-flash-lite": (0.70, 0.69, 0.68, 0.53, 0.09, 0.06, 1.79, 5.85),
    "gemini-2.5-flash": (0.79, 0.79, 0.78, 0.63, 0.10, 0.07, 1.85, 2.71),
    "gemini-3.1-flash-lite-preview": (0.79, 0.77, 0.77, 0.68, 0.08, 0.02, 1.81, 2.27),
    "gemini-3-flash-preview": (0.87, 0.76, 0.79, 0.58, 0.21, 0.01, 2.39, 1.53),
    "claude-haiku-4-5": (0.67, 0.66, 0.65, 0.49, 0.10, 0.06, 1.84, 4.05),
    "claude-sonnet-4-5": (0.73, 0.73, 0.72, 0.58, 0.08, 0.07, 1.82, 4.14),
    "gpt-5-nano": (0.72, 0.68, 0.69, 0.57, 0.10, 0.03, 1.90, 2.98),
    "gpt-4o-mini": (0.36, 0.46, 0.38, 0.18, 0.03, 0.19, 2.06, 3.57),
    "qwen_2.5-VL-32B": (0.72, 0.66, 0.68, 0.53, 0.15, 0.02, 1.86, 1.71),
    "qwen_2.5-VL-7B": (0.65, 0.60, 0.61, 0.46, 0.12, 0.04, 1.72, 2.87),
    "qwen_2.5-VL-3B": (0.59, 0.52, 0.53, 0.26, 0.10, 0.01, 1.96, 3.90),
}
KEYS_7 = ("precision", "recall", "f1", "em_rate", "subset_rate", "superset_rate", "missing",
          "spurious")
#: Table 11 of paper 003: accuracy (%) on Long, Multi, Non-Rightward, Overlap Arrow.
TABLE_11 = {
    "gemini-2.5-flash-lite": (60.00, 20.00, 26.67, 20.00),
    "gemini-2.5-flash": (86.67, 53.33, 33.33, 6.67),
    "gemini-3.1-flash-lite-preview": (93.33, 86.67, 20.00, 33.33),
    "gemini-3-flash-preview": (86.67, 40.00, 13.33, 20.00),
    "claude-haiku-4-5": (13.33, 20.00, 40.00, 26.67),
    "claude-sonnet-4-5": (40.00, 33.33, 33.33, 13.33),
    "gpt-5-nano": (46.67, 13.33, 20.00, 6.67),
    "gpt-4o-mini": (40.00, 13.33, 0.00, 0.00),
    "qwen_2.5-VL-32B": (13.33, 20.00, 26.67, 0.00),
    "qwen_2.5-VL-7B": (13.33, 6.67, 33.33, 6.67),
    "qwen_2.5-VL-3B": (0.00, 26.67, 13.33, 0.00),
}
PATTERNS = ("long_arrow", "multi_arrow", "not_right_arrow", "overlap_arrow")


def model_of(log_name: str) -> str:
    """The paper's model of a log named like SADU's (hard_M_response_0223_t_0 → M)."""
    return re.sub(r"^hard_|_response_.*$", "", log_name)


def table7(models: dict[str, dict], key: str) -> None:
    equal = total = 0
    print(f"Table 7 from `{key}` (run / paper):")
    for name, m in models.items():
        paper = TABLE_7.get(model_of(name))
        row = (m.get(key) or {}).get("all")
        if paper is None or row is None:
            continue
        ours = tuple(None if row[k] is None else round(row[k], 2) for k in KEYS_7)
        equal += sum(a == b for a, b in zip(ours, paper, strict=True))
        total += len(paper)
        print(f"  {model_of(name):<31}" + " ".join(
            f"{'—' if a is None else f'{a:.2f}'}/{b:.2f}" for a, b in
            zip(ours, paper, strict=True)))
    print(f"  {equal} of {total} cells equal")


def table11(models: dict[str, dict]) -> None:
    equal = within = total = 0
    gaps = []
    print("Table 11 from `by_pattern` (run / paper, %):")
    for name, m in models.items():
        paper = TABLE_11.get(model_of(name))
        if paper is None or not m.get("by_pattern"):
            continue
        ours = tuple(m["by_pattern"].get(p, {}).get("accuracy") for p in PATTERNS)
        for a, b in zip(ours, paper, strict=True):
            if a is not None:
                gaps.append(a - b)
                equal += abs(a - b) < 0.01
                within += abs(a - b) <= 20.0 + 1e-9
                total += 1
        print(f"  {model_of(name):<31}" + " ".join(
            f"{'—' if a is None else f'{a:.2f}'}/{b:.2f}" for a, b in
            zip(ours, paper, strict=True)))
    if gaps:
        print(f"  {equal} of {total} cells equal, {within} within 20 points; run − paper: "
              f"mean {sum(gaps) / len(gaps):+.2f}, mean |·| "
              f"{sum(map(abs, gaps)) / len(gaps):.2f} points")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", type=Path)
    for run in ap.parse_args().runs:
        summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))
        models = summary["models"]
        print(f"{run} (scorer {summary['scorer']})")
        if any(m.get("by_pattern") for m in models.values()):
            table11(models)
            continue
        for key in ("retrieval_sadu", "retrieval"):
            if any((m.get(key) or {}).get("all") for m in models.values()):
                table7(models, key)


if __name__ == "__main__":
    main()
