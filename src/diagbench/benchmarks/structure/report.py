"""The report of a structure run: accuracy per task, per task × category × FRL, the
image-to-code scores beside STRUDEL's counts-only score, how answers were read, and
with twins their robustness figures (`robustness`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from diagbench.benchmarks.failures import report_failures
from diagbench.benchmarks.robustness import robustness_lines, robustness_section
from diagbench.benchmarks.structure.records import StructureSummary
from diagbench.benchmarks.structure.table3 import OVERALL
from diagbench.languages import named


def similarity_words(language: str) -> str:
    """What the image-to-code score of `language` measures (`Language.similarity_doc`)."""
    return named(language).similarity_doc()


def _f(value: float | None, digits: int = 1) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def table_lines(summary: StructureSummary) -> list[str]:
    """The results as `eval` prints them."""
    out = []
    for name, m in summary.models.items():
        acc = m.accuracy
        i2c = m.image_to_code
        out.append(f"{name}: accuracy % " + ", ".join(f"{k} {_f(v)} (n {_n(m, k)})"
                                                      for k, v in acc.items()))
        types = m.model_question_types
        if types:
            out.append("  model-written questions, accuracy % by answer type: " + ", ".join(
                f"{k} {_f(v.accuracy)} (n {v.n})" for k, v in types.items()))
        out += table3_lines(m.table3)
        out += robustness_lines(m.robustness)
        out.append(f"  image-to-code: score {_f(i2c.score, 3)} (STRUDEL counts-only "
                   f"{_f(i2c.counts_score, 3)}), valid {i2c.valid}/{i2c.n}")
        unread = {task: sum(n for k, n in reads.items() if k != "parsed")
                  for task, reads in m.reads.items()}
        out.append("  not read as an answer (wrong): " + ", ".join(
            f"{k} {v}" for k, v in unread.items()) + "; outcomes " + ", ".join(
            f"{k} {v}" for k, v in m.outcomes.items()))
    return out


def _cell(column: dict[str, Any] | None) -> str:
    """A Table 3 cell: the estimate (%) and its clustered 95 % interval."""
    if column is None:
        return "—"
    ci = column.get("ci95_clustered")
    span = "" if ci is None else f" [{ci[0]:.1f}–{ci[1]:.1f}]"
    return f"{_f(column['estimate'])}{span}"


def table3_lines(table: dict[str, dict[str, Any]]) -> list[str]:
    """Table 3's row of one model as `eval` prints it: its overall score and task types,
    then its domains, each with its 95 % interval clustered by diagram and its n (the
    columns without a task left out)."""
    from diagbench.benchmarks.structure.table3 import TYPE_TITLES, columns

    if not table:
        return []
    types = (OVERALL, *TYPE_TITLES.values())
    domains = [c for c in columns() if c not in types]
    return [f"  Table 3 {label} (%, 95 % CI clustered by diagram): " + " | ".join(
        f"{c} {_cell(table[c])} (n {table[c]['n']})" for c in group if c in table)
        for label, group in (("by task type", types), ("by domain", domains))
        if any(c in table for c in group)]


def write_report(run: Path, summary: StructureSummary) -> Path:
    """RUN/report.html (static) with the tables and a bar plot of accuracy per task."""
    from diagbench.benchmarks.structure.matching import matching_section
    from diagbench.report.html import HtmlReport
    from diagbench.report.intervals import intervals_section
    from diagbench.report.usage import usage_section

    report = HtmlReport("structure — structured software diagrams (paper 004, STRUDEL)")
    tasks = sorted({t for m in summary.models.values() for t in m.accuracy})
    report.heading("Accuracy per task (%)")
    report.paragraph("Every task asked is in its denominator (n): an unusable image, a "
                     "failed call or an unreadable answer counts as wrong. Chance: a blind "
                     "guess — association and caption_match 20 % (four options and NONE), "
                     "the matching tasks 50 % (yes or no).", note=True)
    report.table(["model", *tasks], [[name, *(f"{_f(m.accuracy.get(t))} (n {_n(m, t)})"
                                              for t in tasks)]
                                     for name, m in summary.models.items()])
    _table3_section(run, report, summary)
    robustness_section(report, {name: m.robustness for name, m in summary.models.items()})
    report_failures(report, {name: m.failures for name, m in summary.models.items()})
    intervals_section(report, {name: m.intervals for name, m in summary.models.items()})
    matching_section(report, summary)
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
    languages = sorted({cell.split("|")[1] for m in summary.models.values()
                        for cell in m.image_to_code_cells})
    report.paragraph("Each language's score is its own similarity of the predicted code to "
                     "the gold, on the parsed models (0 when the code does not render), "
                     "over every task: a failed call or an answer without code scores 0. "
                     "STRUDEL's counts-only score = (renders + F1 over per-type counts) / "
                     "2, beside it.", note=True)
    report.details("How each language's score is computed",
                   [f"{named(lang).title}: {similarity_words(lang)}" for lang in languages])
    report.table(["model", "cell", "n", "valid", "score", "counts-only"],
                 [[name, cell, v.n, v.valid, _f(v.score, 3), _f(v.counts_score, 3)]
                  for name, m in summary.models.items()
                  for cell, v in [("all", m.image_to_code), *m.image_to_code_cells.items()]])
    for lang in languages:
        cells = [(name, cell, v) for name, m in summary.models.items()
                 for cell, v in m.image_to_code_cells.items()
                 if cell.split("|")[1] == lang and v.parts]
        columns = list(dict.fromkeys(k for _, _, v in cells for k in v.parts))
        if cells:
            report.heading(f"Image-to-code parts: {named(lang).title} (means)", level=3)
            report.table(["model", "category", "n", *columns, "score"],
                         [[name, cell.split("|")[0], v.n,
                           *(_f(v.parts.get(k), 3) for k in columns), _f(v.score, 3)]
                          for name, cell, v in cells])
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


def _table3_section(run: Path, report: Any, summary: StructureSummary) -> None:
    """STRUDEL's Table 3 (every column; "—" where no task is of it) with each cell's
    clustered 95 % interval, Fig. 1's plots, and the task type × category × FRL cells."""
    from diagbench.benchmarks.structure.table3 import columns

    if not any(m.table3 for m in summary.models.values()):
        return
    report.heading("STRUDEL's Table 3: per task type and domain (%)")
    report.paragraph("Each task counts 100 when answered right and 0 otherwise (a failure "
                     "counts 0), an image-to-code task its score × 100; a column is the "
                     "mean over its tasks (paper 004 §5.2). In brackets: the 95 % bootstrap "
                     "interval clustered by source diagram.", note=True)
    shown = list(columns())
    report.table(["model", *shown], [[name, *(_cell(m.table3.get(c)) for c in shown)]
                                     for name, m in summary.models.items()])
    for name, title, picked in (("task_types", "Fig. 1: score per task type", 0),
                                ("domains", "Fig. 1: score per domain", 1)):
        plot = _fig1(run, summary, name, picked)
        if plot:
            report.figure(plot, title)
    report.heading("Per task type × category × FRL (%)", level=3)
    report.table(["model", "task type", "category", "FRL", "n", "score"],
                 [[name, *cell.split("|"), v.n, _f(v.accuracy)]
                  for name, m in summary.models.items()
                  for cell, v in m.table3_cells.items()])


def _fig1(run: Path, summary: StructureSummary, name: str, domains: int) -> str | None:
    """One of Fig. 1's plots: per task type (`domains` 0) or per domain (1), a bar per
    model with its clustered 95 % interval, in plots/NAME.png."""
    from diagbench.benchmarks.structure.table3 import TYPE_TITLES, columns

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    types = list(TYPE_TITLES.values())
    shown = [c for c in columns() if c != OVERALL and (c in types) != bool(domains)
             and any(c in m.table3 for m in summary.models.values())]
    if not shown:
        return None
    (run / "plots").mkdir(exist_ok=True)
    fig, ax = plt.subplots(figsize=(8, 3.6))
    width = 0.8 / max(1, len(summary.models))
    for k, (model, m) in enumerate(summary.models.items()):
        xs = [x + k * width for x in range(len(shown))]
        cells = [m.table3.get(c) for c in shown]
        values = [(c["estimate"] or 0.0) if c else 0.0 for c in cells]
        low = [v - c["ci95_clustered"][0] if c and c.get("ci95_clustered") else 0.0
               for v, c in zip(values, cells, strict=True)]
        high = [c["ci95_clustered"][1] - v if c and c.get("ci95_clustered") else 0.0
                for v, c in zip(values, cells, strict=True)]
        ax.bar(xs, values, width, yerr=[low, high], capsize=2, label=model)
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(shown))], shown, rotation=25,
                  ha="right", fontsize=7)
    ax.set_ylim(0, 105)
    ax.set_ylabel("score (%)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(run / "plots" / f"{name}.png", dpi=100, metadata={"Software": None})
    plt.close(fig)
    return f"plots/{name}.png"


#: The share a blind guess gets right, per task (None: no chance level): association
#: and caption_match have four options and NONE, the matching tasks yes or no.
CHANCE = {"association": 20.0, "caption_match": 20.0, "problem_match": 50.0,
          "description_match": 50.0}


def _plot(run: Path, summary: StructureSummary, tasks: list[str]) -> str | None:
    """Accuracy per task and model, each bar with its n, and the chance level of the
    tasks that have one (a dashed line over their bars)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    (run / "plots").mkdir(exist_ok=True)
    fig, ax = plt.subplots(figsize=(7, 3.4))
    width = 0.8 / max(1, len(summary.models))
    for k, (name, m) in enumerate(summary.models.items()):
        xs = [x + k * width for x in range(len(tasks))]
        values = [m.accuracy.get(t) or 0.0 for t in tasks]
        bars = ax.bar(xs, values, width, label=name)
        counts = [_n(m, t) for t in tasks]
        ax.bar_label(bars, [f"n {n}" for n in counts], fontsize=6, padding=1)
    for k, (x, task) in enumerate((x, t) for x, t in enumerate(tasks) if t in CHANCE):
        ax.hlines(CHANCE[task], x - width / 2, x + 0.8 - width / 2, colors="black",
                  linestyles="dashed", linewidth=1, label="_" if k else "chance")
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(tasks))], tasks, rotation=20,
                  fontsize=8)
    ax.set_ylim(0, 110)
    ax.set_ylabel("accuracy (%)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(run / "plots" / "accuracy.png", dpi=100, metadata={"Software": None})
    plt.close(fig)
    return "plots/accuracy.png"


def _n(m: Any, task: str) -> int:
    """The tasks an accuracy of `m` is over ("all": every question task)."""
    return sum(v.n for cell, v in m.accuracy_cells.items()
               if task == "all" or cell.split("|")[0] == task)
