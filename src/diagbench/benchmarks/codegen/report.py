"""The report of a codegen run: the paper's Table 2 (validity overall and per complexity,
complexity consistency) per model and prompting, Table 4 (prompting approaches over all
models), Tables 6–8 (validity per category × FRL, a column per model), the cells per
category × FRL × prompting, the codes drawn as another category, and two plots."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from diagbench.benchmarks.codegen.records import CodegenScore, CodegenSummary
from diagbench.benchmarks.failures import Failures, report_failures

_LEVELS = ("low", "medium", "high")


def _f(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}"


def _levels(cell: dict[str, Any]) -> list[str]:
    return [_f(cell["by_complexity"].get(c, {}).get("validity")) for c in _LEVELS]


def table_lines(summary: CodegenSummary) -> list[str]:
    """The results as `eval` prints them (%)."""
    out = ["model / prompting: validity overall (low, medium, high); complexity consistency"]
    for name, m in summary.models.items():
        for p, cell in m["promptings"].items():
            out.append(f"{name} / {p}: {_f(cell['validity'])} ({', '.join(_levels(cell))}); "
                       f"{_f(cell['consistency'])} over {cell['groups']} personas × FRLs")
        out.append("  outcomes: " + ", ".join(f"{k} {v}" for k, v in m["outcomes"].items()))
    out.append("all models: " + "; ".join(
        f"{p} validity {_f(c['validity'])}, consistency {_f(c['consistency'])}"
        for p, c in summary.promptings.items()))
    out.append("category / FRL: validity per model and prompting (Tables 6–8)")
    for category, language in _category_frls(summary):
        out.append(f"  {category} / {language}: " + "; ".join(
            f"{name} {p} {_f(c['validity'])} of {c['n']}" + _wrong(c)
            for name, m in summary.models.items() for p in summary.promptings
            if (c := m["cells"].get(f"{category}|{language}|{p}"))))
    return out


def _wrong(cell: dict[str, Any]) -> str:
    """", 2 wrong category" — or nothing."""
    return f", {cell['wrong_category']} wrong category" if cell["wrong_category"] else ""


def _category_frls(summary: CodegenSummary) -> list[tuple[str, str]]:
    """Every (category, FRL) of the run, in the order of the models' cells (the
    table's)."""
    keys = dict.fromkeys(key for m in summary.models.values() for key in m["frls"])
    return [(category, language) for category, language in (k.split("|") for k in keys)]


def write_report(run: Path, summary: CodegenSummary,
                 scores: Mapping[str, list[CodegenScore]], shown: int = 200) -> Path:
    """RUN/report.html (static) with the tables, the plots in RUN/plots/ and the first
    `shown` samples without valid code per model, with the reason."""
    from diagbench.report.html import HtmlReport
    from diagbench.report.intervals import intervals_section
    from diagbench.report.usage import usage_section

    report = HtmlReport("codegen — diagram code written by models (paper 004 §4, STRUDEL)")
    report.paragraph("Valid: the code renders with the real engine (diagbench.render) as "
                     "the category asked: its language's reader reads it as a diagram of "
                     "one of the category's kinds (else it is invalid, counted apart as "
                     "wrong category). "
                     "Complexity consistency: per persona and FRL, medium longer than low, "
                     "high than medium, high than low, each by at least 10 % (lines of code; "
                     "characters for an FRL whose code is usually under 5 lines); the share "
                     "of checks that hold. A failed call and an answer without code are "
                     "invalid, in every rate and counted (Failures).", note=True)
    intervals_section(report, {name: m.get("intervals") for name, m in summary.models.items()})
    usage_section(report, run)
    report.heading("Validity and complexity consistency (%, the paper's Table 2)")
    report.table(["model", "prompting", "n", "validity", *_LEVELS, "consistency", "outcomes"],
                 [[name, p, c["n"], _f(c["validity"]), *_levels(c), _f(c["consistency"]),
                   ", ".join(f"{k} {v}" for k, v in m["outcomes"].items())]
                  for name, m in summary.models.items() for p, c in m["promptings"].items()])
    report_failures(report, {name: Failures.from_json(m["failures"])
                             for name, m in summary.models.items() if "failures" in m})
    report.heading("Prompting approaches over all models (%, the paper's Table 4)")
    report.table(["metric", *summary.promptings],
                 [["code validity", *(_f(c["validity"]) for c in summary.promptings.values())],
                  ["complexity consistency",
                   *(_f(c["consistency"]) for c in summary.promptings.values())]])
    for p in summary.promptings:
        report.heading(f"Validity per category × FRL, {p} prompting (%, the paper's "
                       f"Tables 6–8)")
        report.table(["category", "FRL", *summary.models],
                     [[category, language, *(_frl(m["cells"].get(f"{category}|{language}|{p}"))
                                             for m in summary.models.values())]
                      for category, language in _category_frls(summary)])
    report.heading("Per category × FRL × prompting")
    report.table(["model", "category", "FRL", "prompting", "n", "validity", *_LEVELS,
                  "wrong category", "measure", "mean length (low / medium / high)",
                  "consistency"],
                 [[name, *key.split("|"), c["n"], _f(c["validity"]), *_levels(c),
                   c["wrong_category"], c["measure"] or "—",
                   " / ".join(_f(c["mean_length"].get(level)) for level in _LEVELS),
                   _f(c["consistency"])]
                  for name, m in summary.models.items() for key, c in m["cells"].items()])
    report.heading("Codes drawn as another category (invalid)")
    report.table(["model", "category", "FRL", "prompting", "kinds read"],
                 [[name, *key.split("|"),
                   ", ".join(f"{kind} {n}" for kind, n in c["kinds_read"].items())]
                  for name, m in summary.models.items() for key, c in m["cells"].items()
                  if c["wrong_category"]])
    for src, caption in _plots(run, summary):
        report.figure(src, caption)
    report.heading("Samples without valid code")
    report.table(["model", "sample", "status", "code", "reason"],
                 [[name, s.id, s.status, s.code or "—", s.error or "—"]
                  for name, records in scores.items()
                  for s in [r for r in records if r.valid is not True][:shown]])
    return report.write(run / "report.html")


def _frl(cell: dict[str, Any] | None) -> str:
    """A cell of Tables 6–8: "validity (n[, k wrong category])", or "—"."""
    return "—" if cell is None else f"{_f(cell['validity'])} (n {cell['n']}{_wrong(cell)})"


def _plots(run: Path, summary: CodegenSummary) -> list[tuple[str, str]]:
    """Validity per complexity per model × prompting, and Table 4 as bars."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    (run / "plots").mkdir(exist_ok=True)
    rows = [(f"{name} / {p}", c) for name, m in summary.models.items()
            for p, c in m["promptings"].items()]
    fig, ax = plt.subplots(figsize=(7, 3.2))
    width = 0.8 / max(1, len(rows))
    for k, (label, cell) in enumerate(rows):
        ax.bar([x + k * width for x in range(len(_LEVELS))],
               [cell["by_complexity"].get(c, {}).get("validity") or 0.0 for c in _LEVELS],
               width, label=label)
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(_LEVELS))], list(_LEVELS))
    ax.set_ylabel("code validity (%)")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(run / "plots" / "validity.png", dpi=100, metadata={"Software": None})
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(5, 3))
    metrics = ("validity", "consistency")
    width = 0.8 / max(1, len(summary.promptings))
    for k, (p, cell) in enumerate(summary.promptings.items()):
        ax.bar([x + k * width for x in range(len(metrics))],
               [cell[name] or 0.0 for name in metrics], width, label=p)
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(metrics))],
                  ["code validity", "complexity consistency"])
    ax.set_ylabel("%")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(run / "plots" / "promptings.png", dpi=100, metadata={"Software": None})
    plt.close(fig)
    return [("plots/validity.png", "Code validity per complexity level, per model and "
             "prompting"),
            ("plots/promptings.png", "Prompting approaches over all models (Table 4)")]
