"""Paired comparison of models scored on the same files: per component, the per-file
error rates of every two models under the paired test of paper 000's footnote 3
(`scoring.metrics.paired_test`). Used by `diagbench compare` on several prediction refs
and by the evaluation of live models."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from itertools import combinations

from diagbench.compare.counts import COMPONENTS
from diagbench.compare.report import TITLES, FileResult
from diagbench.scoring.metrics import paired_test

#: What is compared, file by file, and how (for the tables and the JSON).
STATISTIC = "per-file error rate of the component (errors ÷ ground-truth count)"
TEST = "Wilcoxon signed-rank, two-sided; 95 % bootstrap interval of the mean difference"


@dataclass(frozen=True, slots=True)
class PairedComparison:
    """Model `a` minus model `b` on one component's per-file error rates (`PairedTest`)."""

    a: str
    b: str
    component: str
    n: int
    mean_difference: float | None
    ci_low: float | None
    ci_high: float | None
    wilcoxon_statistic: float | None
    p_value: float | None


def paired_tests(results: Mapping[str, Sequence[FileResult]]) -> list[PairedComparison]:
    """Every two models (in the order given), per component: per-file error rates
    compared on the files both have scored and whose ground truth has that component.
    The result lists of the models hold the same files in the same order."""
    tests = []
    for (a, ra), (b, rb) in combinations(results.items(), 2):
        for component in COMPONENTS:
            xs, ys = [], []
            for fa, fb in zip(ra, rb, strict=True):
                if fa.comparison is None or fb.comparison is None:
                    continue
                x = fa.comparison.components[component].error_rate
                y = fb.comparison.components[component].error_rate
                if x is not None and y is not None:
                    xs.append(x)
                    ys.append(y)
            test = paired_test(xs, ys)
            tests.append(PairedComparison(a, b, component, test.n, test.mean_difference,
                                          test.ci_low, test.ci_high, test.statistic,
                                          test.p_value))
    return tests


def common_files(results: Mapping[str, Sequence[FileResult]]) -> dict[str, list[FileResult]]:
    """Each model's results on the files (by name) that every model has, in name order:
    the aligned lists `paired_tests` takes when models were given different file sets."""
    names = set.intersection(*({r.pair.name for r in rs} for rs in results.values()))
    return {model: sorted((r for r in rs if r.pair.name in names), key=lambda r: r.pair.name)
            for model, rs in results.items()}


def paired_document(tests: Sequence[PairedComparison]) -> dict:
    """The paired comparisons as `diagbench compare --json` writes them."""
    return {"statistic": STATISTIC, "test": TEST, "tests": [asdict(t) for t in tests]}


def paired_table(tests: Sequence[PairedComparison]) -> str:
    """The paired comparisons as `diagbench compare` prints them: one line per two models
    and component, differences in percentage points (negative: A makes fewer errors)."""
    def pp(value: float | None) -> str:
        return "—" if value is None else f"{100 * value:.2f}"

    lines = ["paired comparison (A − B; negative: A makes fewer errors)",
             f"per-file statistic: {STATISTIC}", f"test: {TEST}",
             f"{'A − B':<24}{'Component':<12}{'files':>6}{'mean diff (pp)':>16}"
             f"{'95 % CI (pp)':>20}{'W':>8}{'p':>9}"]
    for t in tests:
        w = "—" if t.wilcoxon_statistic is None else f"{t.wilcoxon_statistic:g}"
        p = "—" if t.p_value is None else f"{t.p_value:.4f}"
        lines.append(f"{t.a + ' − ' + t.b:<24}{TITLES[t.component]:<12}{t.n:>6}"
                     f"{pp(t.mean_difference):>16}"
                     f"{'[' + pp(t.ci_low) + ', ' + pp(t.ci_high) + ']':>20}{w:>8}{p:>9}")
    return "\n".join(lines)
