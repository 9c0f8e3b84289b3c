"""The report of a structure run: accuracy per task, per task × category × FRL, the
image-to-code scores beside STRUDEL's counts-only score, and how answers were read."""

from __future__ import annotations

from pathlib import Path

from diagbench.benchmarks.structure.records import StructureSummary


def _f(value: float | None, digits: int = 1) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def table_lines(summary: StructureSummary) -> list[str]:
    """The results as `eval` prints them."""
    out = []
    for name, m in summary.models.items():
        acc = m.accuracy
        i2c = m.image_to_code
        out.append(f"{name}: accuracy % " + ", ".join(f"{k} {_f(v)}" for k, v in acc.items()))
        types = m.model_question_types
        if types:
            out.append("  model-written questions, accuracy % by answer type: " + ", ".join(
                f"{k} {_f(v.accuracy)} (n {v.n})" for k, v in types.items()))
        out.append(f"  image-to-code: score {_f(i2c.score, 3)} (STRUDEL counts-only "
                   f"{_f(i2c.counts_score, 3)}), valid {i2c.valid}/{i2c.n}")
        unread = {task: sum(n for k, n in reads.items() if k != "parsed")
                  for task, reads in m.reads.items()}
        out.append("  not read as an answer (wrong): " + ", ".join(
            f"{k} {v}" for k, v in unread.items()) + "; outcomes " + ", ".join(
            f"{k} {v}" for k, v in m.outcomes.items()))
    return out


def write_report(run: Path, summary: StructureSummary) -> Path:
    """RUN/report.html (static) with the tables and a bar plot of accuracy per task."""
    from diagbench.report.html import HtmlReport
    from diagbench.report.intervals import intervals_section
    from diagbench.report.usage import usage_section

    report = HtmlReport("structure — structured software diagrams (paper 004, STRUDEL)")
    tasks = sorted({t for m in summary.models.values() for t in m.accuracy})
    report.heading("Accuracy per task (%)")
    report.table(["model", *tasks], [[name, *(_f(m.accuracy.get(t)) for t in tasks)]
                                     for name, m in summary.models.items()])
    intervals_section(report, {name: m.intervals for name, m in summary.models.items()})
    usage_section(report, run)
    report.heading("Model-written questions by answer type (%)")
    report.paragraph("Closed-ended questions the generating model wrote about its own "
                     "diagram (paper 004 §3.4, Fig. 10), read by their answer type: the "
                     "option letter, yes/no, the number, or the label (normalised exact "
                     "match).", note=True)
    report.table(["model", "answer type", "n", "accuracy"],
                 [[name, kind, v.n, _f(v.accuracy)]
                  for name, m in summary.models.items()
                  for kind, v in m.model_question_types.items()])
    report.heading("Image-to-code")
    report.paragraph("score = renders × mean of entity F1 (normalised name and kind) and "
                     "relation F1 (ends, direction, type) on the parsed models; STRUDEL's "
                     "counts-only score = (renders + F1 over per-type counts) / 2, beside it.")
    report.table(["model", "cell", "n", "valid", "entity F1", "relation F1", "score",
                  "counts-only"],
                 [[name, cell, v.n, v.valid, _f(v.entity_f1, 3), _f(v.relation_f1, 3),
                   _f(v.score, 3), _f(v.counts_score, 3)]
                  for name, m in summary.models.items()
                  for cell, v in [("all", m.image_to_code), *m.image_to_code_cells.items()]])
    report.heading("Accuracy per task × category × FRL (%)")
    report.table(["model", "task", "category", "FRL", "n", "accuracy"],
                 [[name, *cell.split("|"), v.n, _f(v.accuracy)]
                  for name, m in summary.models.items()
                  for cell, v in m.accuracy_cells.items()])
    report.heading("How answers were read")
    report.paragraph("Only a stated option, number, yes/no or label counts; ambiguous, "
                     "unparsed, unsure and empty answers are wrong.", note=True)
    report.table(["model", "task", "reads"],
                 [[name, task, ", ".join(f"{k} {n}" for k, n in reads.items())]
                  for name, m in summary.models.items() for task, reads in m.reads.items()])
    plot = _plot(run, summary, tasks)
    if plot:
        report.figure(plot, "Accuracy per task and model")
    return report.write(run / "report.html")


def _plot(run: Path, summary: StructureSummary, tasks: list[str]) -> str | None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    (run / "plots").mkdir(exist_ok=True)
    fig, ax = plt.subplots(figsize=(7, 3.2))
    width = 0.8 / max(1, len(summary.models))
    for k, (name, m) in enumerate(summary.models.items()):
        ax.bar([x + k * width for x in range(len(tasks))],
               [m.accuracy.get(t) or 0.0 for t in tasks], width, label=name)
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(tasks))], tasks, rotation=20,
                  fontsize=8)
    ax.set_ylabel("accuracy (%)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(run / "plots" / "accuracy.png", dpi=100, metadata={"Software": None})
    plt.close(fig)
    return "plots/accuracy.png"
