"""report.html of an archqa run: per model the accuracy per diagram type (paper 003
Table 2 layout) with its bootstrap interval and the format violations, the counting
(Tables 4–6) and retrieval (Table 7) metrics, mean completion tokens (Table 3), the
prompt variant and reasoning setting of the run (Tables 8–9: one run per variant), the
LLM judge's agreement (Table 10) and its disagreement categories (§4.5), the accuracy per
subtype (Fig. 3, bars), against diagram complexity (entities + relations, Fig. 4) and
against token cost — PNG plots in RUN/plots/; with twins, their robustness figures
(`benchmarks.robustness`). Every figure but those is the originals'."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from diagbench.benchmarks.archqa.hard import PATTERN_IDS, PATTERN_NAMES, table11_rows
from diagbench.benchmarks.archqa.records import FAMILIES, ArchQAScore, ArchQASummary
from diagbench.benchmarks.archqa.summary import originals
from diagbench.benchmarks.robustness import Robustness, robustness_section
from diagbench.report.html import HtmlReport
from diagbench.report.intervals import intervals_section
from diagbench.report.usage import usage_section

#: Bins of diagram complexity (entities + relations), as (label, low, high).
COMPLEXITY_BINS = (("≤ 10", 0, 10), ("11–15", 11, 15), ("16–20", 16, 20), ("21–30", 21, 30),
                   ("> 30", 31, 10**9))

_COLUMNS = [*FAMILIES, "all"]


def complexity_accuracy(scores: Sequence[ArchQAScore], complexity: Mapping[str, int]
                        ) -> list[tuple[str, int, float | None, float | None]]:
    """Per complexity bin: (label, questions, accuracy in percent, its standard error)
    over the scores whose diagram's complexity is known."""
    out: list[tuple[str, int, float | None, float | None]] = []
    for label, low, high in COMPLEXITY_BINS:
        hits = [s.correct for s in scores
                if low <= complexity.get(s.id.rsplit("/", 1)[0], -1) <= high]
        if not hits:
            out.append((label, 0, None, None))
            continue
        p = sum(hits) / len(hits)
        out.append((label, len(hits), round(100 * p, 2),
                    round(100 * math.sqrt(p * (1 - p) / len(hits)), 2)))
    return out


def write_report(run: Path, summary: ArchQASummary,
                 scores: Mapping[str, Sequence[ArchQAScore]] | None = None,
                 complexity: Mapping[str, int] | None = None,
                 manifest: Mapping[str, Any] | None = None) -> Path:
    """Write RUN/report.html and its plots; return its path. `complexity` maps a diagram
    id to its entities + relations (from the data set's annotations)."""
    from diagbench.report.plots import error_bar_lines, grouped_bars, labelled_scatter

    report = HtmlReport("Architecture-diagram question answering (SADU)")
    report.paragraph(f"Scorer: {summary.scorer}. Accuracy is the rule-based scorer's exact "
                     "match (paper 003 §3.3.2, the figures of §4.3's text) in percent; the "
                     "paper's Tables 2, 8 and 9 are its LLM judge's accuracy (T_Same + "
                     "T_Diff of Table 10), given below where a judge ran. Counting and "
                     "retrieval metrics are fractions, as in the paper's Tables 4–7.",
                     note=True)
    models = summary.models
    report.heading("Accuracy (Table 2)")
    report.table(["Model", *_COLUMNS, "95 % CI (all)", "format violations (correct)",
                  "unparsable", "failed calls", "unusable images"],
                 [[name, *(m["accuracy"][c] for c in _COLUMNS),
                   "…".join(f"{v:.2f}" for v in m["accuracy_ci95"] or []),
                   f"{m['format_violations']} ({m['format_violations_correct']})",
                   m["outcomes"].get("unparsable", 0),
                   m["outcomes"].get("call_error", 0) + m["outcomes"].get("missing", 0),
                   m["outcomes"].get("image_error", 0)]
                  for name, m in models.items()])
    intervals_section(report, {name: m.get("intervals") for name, m in models.items()})
    robustness_section(report, {name: Robustness.from_json(m["robustness"])
                                if m.get("robustness") else None
                                for name, m in models.items()})
    usage_section(report, run)
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
    if any(m.get("retrieval_sadu") for m in models.values()):
        report.paragraph("Above: Eq. 6–11 as §3.3.2 writes them. Below: as SADU's analysis "
                         "script computes them, which gives its published Table 7 (multisets; "
                         "unread answers out of the means; Missing and Spurious averaged over "
                         "the answers where they are not zero).", note=True)
        report.table(["Model", "n", "in the means", "Precision", "Recall", "F1", "EMRate",
                      "SubsetRate", "SupersetRate", "Missing", "Spurious"],
                     [[name, r["total"], r["scored"], *(r[k] for k in keys)]
                      for name, m in models.items()
                      if (r := (m.get("retrieval_sadu") or {}).get("all"))])
    if hard := table11_rows(models):
        report.heading("Hard set: accuracy per arrow pattern (Table 11)")
        report.table(["Model", *(PATTERN_NAMES[p] for p in PATTERN_IDS)], hard)
    report.heading("Mean completion tokens (Table 3)")
    report.paragraph("Completion tokens include the reasoning (thinking) tokens, as the "
                     "paper counts them; the last two columns split the mean of all "
                     "questions into the answer's and the reasoning's (reasoning: 0 where "
                     "the provider does not report it apart).", note=True)
    report.table(["Model", *_COLUMNS, "answer (all)", "reasoning (all)"],
                 [[name, *(m["tokens"]["completion"][c] for c in _COLUMNS),
                   m["tokens"].get("answer", {}).get("all"),
                   m["tokens"].get("reasoning", {}).get("all")]
                  for name, m in models.items()])
    subtypes = sorted({s for m in models.values() for s in m["by_subtype"]})
    report.heading("Accuracy per subtype (Fig. 3)")
    report.table(["Subtype", *models], [[s, *(m["by_subtype"].get(s) for m in models.values())]
                                        for s in subtypes])
    options = dict((manifest or {}).get("options", {}))
    report.heading("Prompt and reasoning (Tables 8–9)")
    report.paragraph("Tables 8 and 9 compare runs: one run per prompt variant (--prompt) "
                     "and reasoning setting (--reasoning); this run's are below, and "
                     "`diagbench report archqa RUN RUN…` prints the tables over several.",
                     note=True)
    entries = {e.get("name"): e for e in (manifest or {}).get("models", [])}
    report.table(["Model", "prompt", "reasoning", "accuracy (all)", "mean tokens (total)",
                  "mean completion tokens"],
                 [[name, options.get("prompt", "—"),
                   (entries.get(name, {}).get("parameters", {}).get("reasoning") or "—"),
                   m["accuracy"]["all"], m["tokens"]["total"]["all"],
                   m["tokens"]["completion"]["all"]] for name, m in models.items()])
    judged = {name: m["judge"] for name, m in models.items() if m.get("judge")}
    if judged:
        report.heading("Accuracy by the LLM judge (Table 2's unit)")
        report.table(["Model", *(f"{c} (rules)" for c in _COLUMNS),
                      *(f"{c} (judge)" for c in _COLUMNS), "asked", "verdicts",
                      "failed calls", "unreadable"],
                     [[name, *(models[name]["accuracy"][c] for c in _COLUMNS),
                       *((models[name].get("accuracy_judge") or {}).get(c) for c in _COLUMNS),
                       j["asked"], j["verdicts"], j["call_errors"], j["unreadable"]]
                      for name, j in judged.items()])
        report.heading("LLM as judge against the rule-based scorer (Table 10)")
        report.paragraph(f"Judge: {options.get('judge') or 'see the manifest'}. Shares of the "
                         "judged questions in percent; T_Diff: the judge says True, the "
                         "rules False; F_Diff: the judge False, the rules True (the text's "
                         "definition); F_Diff_caption: the judge False and the rules False "
                         "(the caption's, as written: the same questions as F_Same).",
                         note=True)
        cols = ("All_Same", "T_Same", "F_Same", "T_Diff", "F_Diff", "F_Diff_caption", "n",
                "unjudged")
        report.table(["Model", *cols], [[name, *(j["agreement"][c] for c in cols)]
                                        for name, j in judged.items()])
        rows = []
        for name, j in judged.items():
            for case in ("t_diff", "f_diff"):
                for kind, counts in j[case].items():
                    for category, n in sorted(counts.items()):
                        rows.append([name, case.upper().replace("_", "_"), kind, category, n])
        report.table(["Model", "case", "kind", "category (§4.5)", "questions"], rows)
    plots = run / "plots"
    if subtypes:
        grouped_bars(plots / "subtypes.png", subtypes,
                     {n: [m["by_subtype"].get(s) for s in subtypes] for n, m in models.items()},
                     "accuracy (%)", "Accuracy per subtype (Fig. 3)", percent=True)
        report.figure("plots/subtypes.png", "Accuracy per question subtype")
    if scores and complexity:
        bins = [label for label, *_ in COMPLEXITY_BINS]
        table = {name: complexity_accuracy(originals(records), complexity)
                 for name, records in scores.items()}
        error_bar_lines(plots / "complexity.png", bins,
                        {n: ([r[2] for r in rows_], [r[3] for r in rows_])
                         for n, rows_ in table.items()},
                        "entities + relations", "accuracy (%)",
                        "Accuracy against diagram complexity (Fig. 4)")
        report.figure("plots/complexity.png", "Accuracy (± one standard error) per bin of "
                      "diagram complexity")
        report.table(["Model", *bins], [[n, *(f"{r[2]} (n={r[1]})" if r[2] is not None
                                              else "—" for r in rows_)]
                                        for n, rows_ in table.items()])
    points = {n: (m["tokens"]["total"]["all"], m["accuracy"]["all"])
              for n, m in models.items()
              if m["tokens"]["total"]["all"] is not None and m["accuracy"]["all"] is not None}
    if points:
        labelled_scatter(plots / "tokens.png", points, "mean tokens per request "
                         "(prompt + completion, reasoning included)", "accuracy (%)",
                         "Token cost against accuracy")
        report.figure("plots/tokens.png", "Token cost against accuracy, one point per model")
    if summary.paired:
        report.heading("Paired comparisons (same questions)")
        report.table(["A", "B", "n", "A − B (points)", "95 % CI", "p (Wilcoxon)"],
                     [[p["a"], p["b"], p["n"], p["mean_difference"],
                       f"{p['ci_low']} … {p['ci_high']}", p["p_value"]]
                      for p in summary.paired])
    return report.write(run / "report.html")
