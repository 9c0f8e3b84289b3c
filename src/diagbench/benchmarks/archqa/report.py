"""report.html of an archqa run: per model the accuracy per diagram type (paper 003
Table 2 layout) with its bootstrap interval and the format violations, the counting
(Tables 4–6) and retrieval (Table 7) metrics, mean completion tokens (Table 3) and the
accuracy per subtype (Fig. 3) — tables only; plots are for a later report."""

from __future__ import annotations

from pathlib import Path

from diagbench.benchmarks.archqa.records import FAMILIES, ArchQASummary
from diagbench.report.html import HtmlReport

_COLUMNS = [*FAMILIES, "all"]


def write_report(run: Path, summary: ArchQASummary) -> Path:
    """Write RUN/report.html; return its path."""
    report = HtmlReport("Architecture-diagram question answering (SADU)")
    report.paragraph(f"Scorer: {summary.scorer}. Accuracy is exact match (paper 003 §3.3.2) "
                     "in percent; counting and retrieval metrics are fractions, as in the "
                     "paper's Tables 4–7.", note=True)
    models = summary.models
    report.heading("Accuracy (Table 2)")
    report.table(["Model", *_COLUMNS, "95 % CI (all)", "format violations (correct)",
                  "unparsable", "failed calls"],
                 [[name, *(m["accuracy"][c] for c in _COLUMNS),
                   "…".join(f"{v:.2f}" for v in m["accuracy_ci95"] or []),
                   f"{m['format_violations']} ({m['format_violations_correct']})",
                   m["outcomes"].get("unparsable", 0),
                   m["outcomes"].get("call_error", 0) + m["outcomes"].get("missing", 0)]
                  for name, m in models.items()])
    report.heading("Counting questions (Tables 4–6)")
    report.table(["Model", "type", "n", "Acc", "Acc@±1", "Acc@±2", "MAE", "Bias",
                  "P(Bias>0)", "P(Bias<0)"],
                 [[name, c, *(m["counting"][c][k] for k in
                              ("n", "acc", "acc_1", "acc_2", "mae", "bias", "p_over",
                               "p_under"))]
                  for name, m in models.items() for c in _COLUMNS if m["counting"][c]])
    report.heading("Retrieval questions (Table 7)")
    keys = ("precision", "recall", "f1", "em_rate", "subset_rate", "superset_rate", "missing",
            "spurious")
    report.table(["Model", "n", "Precision", "Recall", "F1", "EMRate", "SubsetRate",
                  "SupersetRate", "Missing", "Spurious"],
                 [[name, r["n"], *(r[k] for k in keys)] for name, m in models.items()
                  if (r := m["retrieval"]["all"])])
    report.heading("Mean completion tokens (Table 3)")
    report.table(["Model", *_COLUMNS], [[name, *(m["tokens"]["completion"][c] for c in _COLUMNS)]
                                        for name, m in models.items()])
    subtypes = sorted({s for m in models.values() for s in m["by_subtype"]})
    report.heading("Accuracy per subtype (Fig. 3)")
    report.table(["Subtype", *models], [[s, *(m["by_subtype"].get(s) for m in models.values())]
                                        for s in subtypes])
    if summary.paired:
        report.heading("Paired comparisons (same questions)")
        report.table(["A", "B", "n", "A − B (points)", "95 % CI", "p (Wilcoxon)"],
                     [[p["a"], p["b"], p["n"], p["mean_difference"],
                       f"{p['ci_low']} … {p['ci_high']}", p["p_value"]]
                      for p in summary.paired])
    return report.write(run / "report.html")
