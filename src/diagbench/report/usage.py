"""The report's section of what each model used: tokens, the answers cut by the token
limit and their share, the cost and the cost per correct answer — RUN/usage.json,
written before the report."""

from __future__ import annotations

import json
from pathlib import Path

from diagbench.report.html import HtmlReport

HEADER = ["Model", "answers", "tokens in", "tokens out", "reasoning", "cut by the token "
          "limit", "share cut", "cost (USD)", "per correct answer (USD)"]


def usage_section(report: HtmlReport, run: Path) -> None:
    """The section, from RUN/usage.json (nothing without one: a run scored before
    diagbench kept it)."""
    try:
        usage = json.loads((run / "usage.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if not isinstance(usage, dict) or not usage:
        return
    rows = []
    for model, u in usage.items():
        tokens, share = u["tokens"], u["truncated_share"]
        rows.append([model, u["answers"], tokens["input_tokens"], tokens["output_tokens"],
                     tokens["reasoning_tokens"], u["truncated"],
                     None if share is None else f"{100 * share:.1f} %",
                     None if u["cost_usd"] is None else
                     f"{u['cost_usd']:.4f}" + (" (batch)" if u["batch"] else ""),
                     None if u["cost_per_correct_usd"] is None
                     else f"{u['cost_per_correct_usd']:.4f}"])
    report.heading("Tokens, truncation and cost")
    report.table(HEADER, rows)
    report.paragraph("Answers cut by the token limit: finish reason length (OpenAI), "
                     "max_tokens (Anthropic) or MAX_TOKENS (Gemini). Cost from the price "
                     "table (--prices), at the batch price for a --batch run.", note=True)
