"""The prior-bias report: RelAcc and EM per model × condition × relation × scale (the
paper's Table 2 layout), the conflict gap Δ with its bootstrap interval, the
prerequisite check, the paper's figures (Figs. 4–9, §4.3.2; `figures`), and with twins
their robustness figures (`benchmarks.robustness`)."""

from __future__ import annotations

from pathlib import Path

from diagbench.benchmarks.prior_bias.figures import (
    MEAN,
    SIZES_FILE,
    Gap,
    SizePoint,
    by_family,
    family_conflicts,
    family_gaps,
    identify,
    passing_gap,
    read_sizes,
    relation_gaps,
    scale_gaps,
    size_scaling,
)
from diagbench.benchmarks.prior_bias.generate import CONDITIONS, CONFLICT
from diagbench.benchmarks.prior_bias.records import Cell, PriorBiasSummary
from diagbench.benchmarks.prior_bias.vocabulary import RELATIONS
from diagbench.benchmarks.robustness import robustness_section
from diagbench.report.html import HtmlReport
from diagbench.report.intervals import intervals_section
from diagbench.report.plots import error_bar_lines, grouped_bars, scatter_thresholds
from diagbench.report.usage import usage_section
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
    intervals_section(report, {name: m.intervals for name, m in models.items()})
    robustness_section(report, {name: m.robustness for name, m in models.items()},
                       "relation questions")
    usage_section(report, run)
    names = list(models)
    identities = {n: identify(n, read_sizes(run)) for n in names}
    families = family_gaps(models, identities)
    conflicts = family_conflicts(models, identities)
    groups = by_family(models, identities)
    by_relation, by_scale = relation_gaps(groups[MEAN]), scale_gaps(groups[MEAN])
    passing, passed = passing_gap(models)
    report.heading("The paper's figures (Figs. 4–8, §4.3.2)")
    report.paragraph("Simple means of per-model RelAcc (%), each averaged over 4 relations × "
                     "3 scales unless grouped by one; a family is the models of one name before "
                     "their size (or as RUN/model_sizes.json says); Mean is over all models "
                     "(Figs. 4–5) or over the relations or scales (Figs. 6–7).", note=True)
    report.heading("Fig. 4: per family, prior-conform vs prior-conflict (2-reverse)", 3)
    report.table(["", "models", "RelAcc conform", "RelAcc conflict", "Δ"],
                 [[g.label, g.models, g.conform, g.conflict, g.delta] for g in families])
    for title, gaps in (("Fig. 6: per relation", relation_gaps),
                        ("Fig. 7: per image scale", scale_gaps)):
        report.heading(f"{title}, over all models (Mean) and per family", 3)
        report.table(["models", "", "n", "RelAcc conform", "RelAcc conflict", "Δ"],
                     [[label, g.label, g.models, g.conform, g.conflict, g.delta]
                      for label, group in groups.items() for g in gaps(group)])
    report.heading("Fig. 5: per family, the conflict conditions", 3)
    report.table(["", *CONFLICT], [[f, *row.values()] for f, row in conflicts.items()])
    report.heading("Fig. 8: model size (billions of parameters) within a family", 3)
    points = size_scaling(models, identities)
    report.table(["Family", "Model", "size (B)", "RelAcc 2-reverse", "RelAcc 3-reverse"],
                 [[p.family, p.model, f"{p.size:g}", p.reverse2, p.reverse3] for p in points])
    if not points:
        report.paragraph(f"No model has a known size: name it with its size (…-8B…) or "
                         f"write RUN/{SIZES_FILE}.", note=True)
    report.heading("§4.3.2: Δ on the prerequisite-passing subset", 3)
    everyone = next(g for g in families if g.label == MEAN)
    report.paragraph(f"{len(passed)} of {len(models)} models pass the prerequisite"
                     + (f" ({', '.join(passed)}): Δ = {_num(passing.delta)}" if passed else "")
                     + f"; Δ over all models = {_num(everyone.delta)}.")
    figures = [
        (_gap_bars(plots / "families.png", families, "Prior-conform vs prior-conflict per "
                   "family"), "Per-family mean RelAcc and Δ (Fig. 4)."),
        (grouped_bars(plots / "conflict_conditions.png", list(conflicts),
                      {c: [row[c] for row in conflicts.values()] for c in CONFLICT},
                      "RelAcc (%)", "Two and three classes", percent=True),
         "Per-family mean RelAcc on 2-reverse, 3-reverse and 3-mixed (Fig. 5)."),
        (_gap_bars(plots / "delta_relation.png", by_relation, "Conflict gap per relation"),
         "Mean RelAcc and Δ per relation (Fig. 6)."),
        (_gap_bars(plots / "delta_scale.png", by_scale, "Conflict gap per image scale"),
         "Mean RelAcc and Δ per image scale (Fig. 7)."),
        *([(_size_lines(plots / "size_scaling.png", points), "RelAcc on 2-reverse and "
            "3-reverse against model size, per family (Fig. 8).")] if points else []),
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


def _gap_bars(path: Path, gaps: list[Gap], title: str) -> Path:
    return grouped_bars(path, [g.label for g in gaps],
                        {"prior-conform": [g.conform for g in gaps],
                         "prior-conflict": [g.conflict for g in gaps],
                         "Δ": [g.delta for g in gaps]}, "RelAcc, Δ (%)", title)


def _size_lines(path: Path, points: list[SizePoint]) -> Path:
    sizes = sorted({p.size for p in points})
    series: dict[str, tuple[list[float | None], list[float | None]]] = {}
    for p in points:
        for condition, value in (("2-reverse", p.reverse2), ("3-reverse", p.reverse3)):
            means, _ = series.setdefault(f"{p.family} {condition}",
                                         ([None] * len(sizes), [None] * len(sizes)))
            means[sizes.index(p.size)] = value
    return error_bar_lines(path, [f"{s:g}B" for s in sizes], series, "model size",
                           "RelAcc (%)", "Scaling within a family")


def _num(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def _pair(cell: Cell | None) -> str:
    if cell is None or not cell.n:
        return "—"
    return f"{cell.rel_acc:.1f} / {cell.em:.1f}"
