"""The conversion report: Table 2 per model side by side, statuses, per-component bars,
error % by script length (paper 000 Fig. 6–7), paired model tests (footnote 3), and
each file's gold and predicted images with the differences listed (and the diff method's
paired and unpaired lines)."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

from diagbench.benchmarks.conversion.records import ConversionScore, ConversionSummary
from diagbench.benchmarks.conversion.robustness import MEASURE
from diagbench.benchmarks.conversion.samples import Sample
from diagbench.benchmarks.conversion.scoring import STATUSES, by_method, originals
from diagbench.benchmarks.robustness import robustness_section
from diagbench.benchmarks.runs import model_dir_name
from diagbench.compare.counts import COMPONENTS, ERROR_KINDS, describe_errors
from diagbench.compare.methods import METHODS, Method
from diagbench.compare.report import TITLES, FileResult
from diagbench.report.html import HtmlReport, Table
from diagbench.report.intervals import intervals_section
from diagbench.report.plots import error_bar_lines, grouped_bars
from diagbench.report.usage import usage_section
from diagbench.scoring.metrics import LENGTH_BINS, by_length, error_rate, length_bin

FIGURE_COMPONENTS = ("node", "message", "edge_direction")  # the paper's Fig. 6–7
MAX_FILES_SHOWN = 500


def _percent(value: float | None) -> float | None:
    return None if value is None else 100 * value


def _table2(report: HtmlReport, summary: ConversionSummary, method: str) -> None:
    rows = []
    for name, model in summary.models.items():
        components = model.methods[method]["components"]
        rows.append([name, "Ground truth count", *(components[c]["gold"] for c in COMPONENTS)])
        rows += [["", f"{kind.capitalize()} (%)",
                  *(_percent(components[c][f"{kind}_rate"]) for c in COMPONENTS)]
                 for kind in ERROR_KINDS]
    report.table(["Model", "", *(TITLES[c] for c in COMPONENTS)], rows)


def write_report(run: Path, samples: list[Sample],
                 outcomes: Mapping[str, list[ConversionScore]],
                 summary: ConversionSummary) -> Path:
    """Write RUN/report.html and its plots in RUN/plots; return the page's path. Every
    figure but the robustness table is the originals' (as in a run without twins)."""
    samples = [s for s in samples if s.twin is None]
    outcomes = {name: originals(scores) for name, scores in outcomes.items()}
    plots = run / "plots"
    report = HtmlReport("Image → PlantUML conversion")
    problems = summary.gold_problems
    report.paragraph(f"{len(samples)} diagrams, {len(outcomes)} model(s): "
                     f"{', '.join(outcomes)}." + (f" {len(problems)} ground-truth file(s) "
                                                  "could not be used (listed below)."
                                                  if problems else ""))
    for method in METHODS:
        report.heading(f"Table 2 — {method} method")
        _table2(report, summary, method)
        series = {name: [_percent(_total_rate(m.methods[method]["components"][c]))
                         for c in COMPONENTS] for name, m in summary.models.items()}
        src = grouped_bars(plots / f"components_{method}.png", [TITLES[c] for c in COMPONENTS],
                           series, "errors (% of ground truth)",
                           f"Errors per component ({method})")
        report.figure(_rel(src, run), f"Insertions + deletions + substitutions per component, "
                                      f"as % of the ground-truth count ({method} method).")
    intervals_section(report, {name: m.intervals for name, m in summary.models.items()})
    usage_section(report, run)
    _statuses(report, summary, plots, run)
    _lengths(report, outcomes, plots, run)
    if len(outcomes) > 1:
        _paired(report, summary)
    _robustness(report, summary)
    if problems:
        report.heading("Ground truth not used")
        report.table(["File", "Reason"], [[p.file, p.error] for p in problems])
    _files(report, samples, outcomes, run)
    return report.write(run / "report.html")


def _total_rate(counts: dict) -> float | None:
    return error_rate(counts["insertion"], counts["deletion"], counts["substitution"],
                      counts["gold"])


def total_error_rate(method: Mapping) -> float | None:
    """All errors over all components ÷ their gold count, %, of one method's pooled
    counts (a model's `methods[METHOD]`)."""
    components = method["components"].values()
    rate = _total_rate({k: sum(c[k] for c in components)
                        for k in ("insertion", "deletion", "substitution", "gold")})
    return _percent(rate)


def _statuses(report: HtmlReport, summary: ConversionSummary, plots: Path, run: Path) -> None:
    report.heading("Scripts: valid, invalid, missing")
    rows, series = [], {}
    for name, model in summary.models.items():
        counts = model.conversion.statuses
        rows.append([name, *(counts[s] for s in STATUSES)])
        series[name] = [counts[s] for s in STATUSES]
    header = ["Model", "valid (renders)", "invalid (render error)", "no script in answer",
              "call error", "image error"]
    report.table(header, rows)
    src = grouped_bars(plots / "statuses.png", header[1:], series, "images", "Conversion outcome")
    report.figure(_rel(src, run), "Outcome of each image: a script that renders, one that "
                                  "does not, an answer without a script (scored as empty), "
                                  "a failed call or an unusable image (not scored).")


def _lengths(report: HtmlReport, outcomes: Mapping[str, list[ConversionScore]], plots: Path,
             run: Path) -> None:
    report.heading("Error rate by ground-truth length (Fig. 6–7)")
    labels = [f"{lo}-{hi}" if hi is not None else f">{lo - 1}" for lo, hi in LENGTH_BINS]
    first = _results(next(iter(outcomes.values())), "semantic")
    in_bin = Counter(length_bin(r.gold_lines) for r in first if r.gold_lines is not None)
    per_bin = [in_bin[index] for index in range(len(LENGTH_BINS))]
    report.table(["Lines of ground truth", *labels], [["Files (Table 1)", *per_bin]])
    for name, outcome in outcomes.items():
        for method in METHODS:
            series = {}
            for component in FIGURE_COMPONENTS:
                points = _by_length(_results(outcome, method), component)
                series[TITLES[component]] = ([m for m, _ in points], [e for _, e in points])
            src = error_bar_lines(
                plots / f"length_{model_dir_name(name)}_{method}.png", labels, series,
                "lines in the ground-truth script", "errors (% of ground truth)",
                f"{name} — {method}")
            report.figure(_rel(src, run), f"{name}, {method} method: mean per-file error % "
                                          "per length bin, bars ± one standard error.")


def _results(scores: list[ConversionScore], method: Method) -> list[FileResult]:
    return [s.result for s in by_method(scores, method)]


def _by_length(results: list[FileResult], component: str) -> list[tuple[float | None, float]]:
    """Per length bin: mean per-file error % of `component` ± its standard error."""
    rated = [(r.gold_lines, 100 * rate) for r in results
             if r.comparison is not None and r.gold_lines is not None
             and (rate := r.comparison.components[component].error_rate) is not None]
    return by_length([lines for lines, _ in rated], [value for _, value in rated])


def _paired(report: HtmlReport, summary: ConversionSummary) -> None:
    report.heading("Paired comparison of models")
    report.paragraph("Per-file error rate of A minus that of B on the files both scored; "
                     "Wilcoxon signed-rank test (two-sided) and a 95 % bootstrap interval of "
                     "the mean difference (10,000 resamples). Negative: A makes fewer errors.",
                     note=True)
    for method in METHODS:
        rows = [[f"{t.a} − {t.b}", TITLES[t.component], t.n, _percent(t.mean_difference),
                 _percent(t.ci_low), _percent(t.ci_high),
                 None if t.p_value is None else f"{t.p_value:.4f}"]
                for t in summary.paired_tests[method]]
        report.heading(f"{method} method", 3)
        report.table(["A − B", "Component", "Files", "Mean diff. (pp)", "CI low", "CI high",
                      "p"], rows)


def _robustness(report: HtmlReport, summary: ConversionSummary) -> None:
    """The robustness table (with twins), what its figures are in this benchmark, and
    how each model's twins' images ended."""
    models = {name: m.robustness for name, m in summary.models.items()}
    if not any(models.values()):
        return
    robustness_section(report, models, "conversions", MEASURE)
    report.paragraph(
        "Here a twin's answer is its converted script and its score is 1 − its error "
        "rate by the semantic method (errors over the ground truth's elements, clamped "
        "to [0, 1]; an image not converted scores 0). A counterfactual twin's ground "
        "truth is the edited script; its conversion is answered from habit when the "
        "script's error rate against the ORIGINAL's ground truth is lower than against "
        "the twin's.", note=True)
    report.table(["model", *(f"twins: {s.replace('_', ' ')}" for s in STATUSES)],
                 [[name, *(m.twin_conversion.statuses[s] for s in STATUSES)]
                  for name, m in summary.models.items() if m.twin_conversion])


def _files(report: HtmlReport, samples: list[Sample],
           outcomes: Mapping[str, list[ConversionScore]], run: Path) -> None:
    report.heading("Files")
    if len(samples) > MAX_FILES_SHOWN:
        report.paragraph(f"The first {MAX_FILES_SHOWN} of {len(samples)} files; all are in "
                         "scores.jsonl.", note=True)
    for k, sample in enumerate(samples[:MAX_FILES_SHOWN]):
        for name, outcome in outcomes.items():
            score = by_method(outcome, "semantic")[k]
            record, result = score.record, score.result
            images = [(_rel(sample.image, run), "ground truth image")]
            if record.rendered:
                images.append((_rel(Path(record.rendered), run), f"{name}: rendered script"))
            if result.comparison is None:
                head, items = f"error: {result.pair.error}", []
            else:
                c = result.comparison
                head = f"{c.errors} errors / {c.gold_elements} gold elements"
                items = c.differences + [f"normalised: {n}" for n in record.normalizations]
            if record.status == "converted" and not record.valid:
                items.append(f"does not render: {record.render_error}"
                             + (f" (line {record.render_error_line})"
                                if record.render_error_line else ""))
            report.details(f"{sample.name} — {name}: {head}", items, images,
                           _line_diff(by_method(outcome, "diff")[k].result))


def _line_diff(result: FileResult) -> list[Table]:
    """The diff method's view of one file (paper Fig. 5): each removed line paired with
    an added one, their Levenshtein distance and the errors counted; then the unpaired
    lines. Nothing when the file was not compared or no line changed."""
    c = result.comparison
    if c is None or c.line_diff is None:
        return []
    seen = c.line_diff
    rows: list[list[object]] = [
        [p.removed, p.added, p.distance, describe_errors(p.errors) or None] for p in seen.pairs]
    rows += [[line, None, None, "unpaired: deletion"] for line in seen.unpaired_removed]
    rows += [[None, line, None, "unpaired: insertion"] for line in seen.unpaired_added]
    if not rows:
        return []
    return [(f"diff method: {c.errors} errors / {c.gold_elements} gold elements; git's "
             "changed lines, paired by least Levenshtein distance (paper Fig. 5)",
             ["Ground truth (removed)", "Prediction (added)", "Distance", "Errors"], rows)]


def _rel(path: Path, run: Path) -> str:
    return Path(os.path.relpath(Path(path).resolve(), run.resolve())).as_posix()
