"""The report of a structure run: accuracy per task, per task × category × FRL, the
image-to-code scores beside STRUDEL's counts-only score, and how answers were read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from diagbench.benchmarks.failures import report_failures
from diagbench.benchmarks.structure.records import StructureSummary
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
    from diagbench.benchmarks.structure.matching import matching_section
    from diagbench.report.html import HtmlReport
    from diagbench.report.intervals import intervals_section
    from diagbench.report.usage import usage_section

    report = HtmlReport("structure — structured software diagrams (paper 004, STRUDEL)")
    tasks = sorted({t for m in summary.models.values() for t in m.accuracy})
    report.heading("Accuracy per task (%)")
    report.paragraph("Every task asked is in its denominator (n): an unusable image, a "
                     "failed call or an unreadable answer counts as wrong. Chance: a blind "
                     "guess — association 20 % (four options and NONE), the matching tasks "
                     "50 % (yes or no).", note=True)
    report.table(["model", *tasks], [[name, *(f"{_f(m.accuracy.get(t))} (n {_n(m, t)})"
                                              for t in tasks)]
                                     for name, m in summary.models.items()])
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


#: The share a blind guess gets right, per task (None: no chance level): association
#: has four options and NONE, the matching tasks yes or no.
CHANCE = {"association": 20.0, "problem_match": 50.0, "description_match": 50.0}


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
