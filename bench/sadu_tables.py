"""SADU's Tables 3, 8 and 9 (paper 003) against the runs `score archqa --responses` wrote
from SADU's published logs: Table 3's mean completion tokens (reasoning included) per
model and family, and Tables 8-9's accuracy per (prompt, model, thinking) — the paper's
are its LLM judge's, these the rule-based scorer's — each next to the paper's figure.
Usage: python bench/sadu_tables.py RUN… (e.g. runs of response_result/default,
different_prompt and thinking_level)
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from diagbench.benchmarks.archqa.tables import labelled

FAMILIES = ("behavioral", "structural", "er", "all")
#: Table 3 of 003_26afdd344a01d15b.txt: mean completion tokens (Behavioral, Structural,
#: ER, All), by the model's name in SADU's log file names.
TABLE_3 = {
    "gemini-2.5-flash-lite": (16.47, 18.62, 16.40, 17.20),
    "gemini-2.5-flash": (339.33, 324.37, 289.35, 318.22),
    "gemini-3.1-flash-lite-preview": (16.37, 18.03, 16.35, 16.94),
    "gemini-3-flash-preview": (455.17, 450.54, 439.39, 448.54),
    "claude-haiku-4-5": (34.69, 50.99, 39.50, 41.90),
    "claude-sonnet-4-5": (22.76, 43.81, 32.88, 33.32),
    "gpt-5-nano": (1536.71, 1641.64, 1228.12, 1475.19),
    "gpt-4o-mini": (14.76, 14.71, 13.06, 14.20),
    "qwen_2.5-VL-32B": (12.96, 14.28, 13.09, 13.46),
    "qwen_2.5-VL-7B": (13.23, 14.37, 13.01, 13.56),
    "qwen_2.5-VL-3B": (16.93, 16.31, 19.53, 17.54),
}
#: Tables 8 and 9 (All column): (prompt, model, thinking) → the paper's accuracy.
TABLES_8_9 = {
    ("full", "gemini-2.5-flash-lite", "default"): 43.03,
    ("full", "gemini-2.5-flash", "default"): 69.68,
    ("full", "gemini-3.1-flash-lite-preview", "default"): 66.31,
    ("full", "gemini-3-flash-preview", "default"): 70.18,
    ("without-definitions", "gemini-2.5-flash-lite", "default"): 35.79,
    ("without-definitions", "gemini-2.5-flash", "default"): 63.10,
    ("without-definitions", "gemini-3.1-flash-lite-preview", "default"): 59.81,
    ("without-definitions", "gemini-3-flash-preview", "default"): 70.01,
    ("without-rules", "gemini-2.5-flash-lite", "default"): 47.84,
    ("without-rules", "gemini-2.5-flash", "default"): 70.59,
    ("without-rules", "gemini-3.1-flash-lite-preview", "default"): 67.26,
    ("without-rules", "gemini-3-flash-preview", "default"): 71.53,
    ("only-question", "gemini-2.5-flash-lite", "default"): 38.58,
    ("only-question", "gemini-2.5-flash", "default"): 34.88,
    ("only-question", "gemini-3.1-flash-lite-preview", "default"): 60.47,
    ("only-question", "gemini-3-flash-preview", "default"): 49.28,
    ("full", "gemini-3-flash-preview", "low"): 72.85,
    ("only-question", "gemini-3-flash-preview", "low"): 52.24,
    ("full", "gemini-3-flash-preview", "high"): 69.77,
    ("only-question", "gemini-3-flash-preview", "high"): 48.75,
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", type=Path)
    args = ap.parse_args()
    print("Table 3: mean completion tokens, reasoning included (ours / paper)")
    seen: dict[str, bool] = {}
    for run in args.runs:
        for name, m in json.loads((run / "summary.json").read_text())["models"].items():
            paper = TABLE_3.get(name.split("_response")[0])
            if paper is None or name in seen:  # a log of another table, or met before
                continue
            pairs = list(zip((m["tokens"]["completion"][f] for f in FAMILIES), paper,
                             strict=True))
            seen[name] = all(o is not None and abs(o - p) < 0.005 for o, p in pairs)
            print(f"  {name:<48}" + "".join(f"{o:>9} /{p:>8}" for o, p in pairs))
    print(f"  {sum(seen.values())} of {len(seen)} models equal to 0.01 in every column")
    print("Tables 8-9, All: rule-based (ours) / LLM judge (paper)")
    for run in args.runs:
        for row in labelled(run):
            paper_all = TABLES_8_9.get((row.prompt, row.model, row.thinking))
            if paper_all is not None:
                print(f"  {row.prompt:<20}{row.model:<31}{row.thinking:<9}"
                      f"{row.accuracy['all']:>7} /{paper_all:>7}  ({row.scorer})")


if __name__ == "__main__":
    main()
