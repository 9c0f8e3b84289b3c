"""The prior-bias report: RelAcc and EM per model × condition × relation × scale (the
paper's Table 2 layout), the conflict gap Δ with its bootstrap interval, the
prerequisite check, and the paper's figures (Fig. 4–9 style)."""

from __future__ import annotations

from pathlib import Path

from diagbench.benchmarks.prior_bias.generate import CONDITIONS, CONFLICT
from diagbench.benchmarks.prior_bias.records import Cell, PriorBiasSummary
from diagbench.benchmarks.prior_bias.vocabulary import RELATIONS
from diagbench.report.html import HtmlReport
from diagbench.report.plots import grouped_bars, scatter_thresholds
from diagbench.scoring.metrics import EM_THRESHOLD, PRIOR_FREE_THRESHOLD


def write_report(run: Path, summary: PriorBiasSummary) -> Path:
    """Write RUN/report.html and its plots; return the page's path."""
    models = summary.models
    plots = run / "plots"
    report = HtmlReport("Prior bias in UML class diagrams")
    report.paragraph("RelAcc: relation-direction accuracy (Unknown counts as wrong); EM: exact "
                     "match of the class-name set; Δ = RelAcc(prior-conform) − RelAcc(2-reverse),"
                     " with a 95 % bootstrap interval. Paper 002, §3.2.", note=True)
    report.heading("Conflict gap and prerequisite")
    rows = []
    for name, m in models.items():
        ci, check = m.delta_ci, m.prerequisite
        rows.append([name, m.conditions["prior-conform"].rel_acc,
                     m.conditions["2-reverse"].rel_acc, m.delta,
                     f"{ci[0]:.1f} … {ci[1]:.1f}" if ci else None,
                     *(m.delta_by_condition[c] for c in CONFLICT[1:]), check.em,
                     check.prior_free_rel_acc, "passed" if check.passed else "failed",
                     m.errors])
    report.table(["Model", "RelAcc conform", "RelAcc 2-reverse", "Δ", "Δ 95 % CI",
                  "Δ 3-reverse", "Δ 3-mixed", "EM", "RelAcc prior-free",
                  f"prerequisite (EM ≥ {EM_THRESHOLD:g}, prior-free ≥ "
                  f"{PRIOR_FREE_THRESHOLD:g})", "failed calls"], rows)
    if summary.mean_delta is not None and len(models) > 1:
        report.paragraph(f"Mean Δ over the models: {summary.mean_delta:.2f}.")
    names = list(models)
    figures = [
        (grouped_bars(plots / "conform_conflict.png", names,
                      {c: [models[n].conditions[c].rel_acc for n in names]
                       for c in ("prior-conform", "2-reverse")}, "RelAcc (%)",
                      "Prior-conform vs prior-conflict", percent=True),
         "RelAcc on prior-conform and 2-reverse diagrams (Fig. 4); the gap is Δ."),
        (grouped_bars(plots / "conflict_conditions.png", names,
                      {c: [models[n].conditions[c].rel_acc for n in names]
                       for c in CONFLICT}, "RelAcc (%)", "Two and three classes",
                      percent=True),
         "RelAcc on 2-reverse, 3-reverse and 3-mixed (Fig. 5)."),
        (grouped_bars(plots / "delta_relation.png", list(RELATIONS),
                      {n: [models[n].delta_by_relation[r] for r in RELATIONS]
                       for n in names}, "Δ (points)", "Conflict gap per relation"),
         "Δ per relation (Fig. 6–7)."),
        (grouped_bars(plots / "delta_scale.png",
                      list(next(iter(models.values())).delta_by_scale),
                      {n: list(models[n].delta_by_scale.values()) for n in names},
                      "Δ (points)", "Conflict gap per image scale"),
         "Δ per image scale (Fig. 8)."),
        (scatter_thresholds(plots / "em_prior_free.png",
                            {n: (models[n].prerequisite.em or 0.0,
                                 models[n].prerequisite.prior_free_rel_acc or 0.0)
                             for n in names}, EM_THRESHOLD, PRIOR_FREE_THRESHOLD,
                            "EM (%)", "RelAcc on prior-free (%)",
                            "Can the model read the diagram?"),
         "EM against prior-free RelAcc with the prerequisite thresholds (Fig. 9)."),
    ]
    report.heading("Figures")
    for src, caption in figures:
        report.figure(src.relative_to(run).as_posix(), caption)
    for name, m in models.items():
        report.heading(f"{name}: RelAcc / EM per condition, relation and scale", 3)
        scales = list(m.delta_by_scale)
        header = ["Condition"] + [f"{r[:4]}. {s}" for r in RELATIONS for s in scales]
        report.table(header, [[c] + [_pair(m.cells[c][r].get(s)) for r in RELATIONS
                                     for s in scales] for c in CONDITIONS])
        report.paragraph(f"Answers parsed: {m.parse}; labels: {m.labels}; class-name "
                         f"lists not parsed: {m.names_unparsed}.", note=True)
    return report.write(run / "report.html")


def _pair(cell: Cell | None) -> str:
    if cell is None or not cell.n:
        return "—"
    return f"{cell.rel_acc:.1f} / {cell.em:.1f}"
