"""Does the model read the diagram or answer from habit? The figures of a run whose data
set has twins (`benchmarks.twins`), the same for every benchmark: per model, the score
on the originals and on each family of twins (counterfactual, style, capture), the
paired difference twin − original with its bootstrap interval clustered by source
diagram, and the share of counterfactual items answered with the original's answer.

Each benchmark turns its scores into `Outcome`s: an item's value (1 right, 0 wrong, or a
score in [0, 1]), and for a twin's item its family, the original item it pairs with
(`twin_of`, None where the original was not asked it), its source diagram (the original
sample: the unit the intervals resample) and, for a counterfactual item whose answer
the edit changed, whether the answer states the original's answer (`habit`).

For a pair, d = value(twin) − value(original); the paired difference is the mean of d,
in percentage points; its intervals treat the source diagram as the unit sampled, each
drawn diagram bringing all its pairs (`scoring.metrics.intervals`). The habit share is
over the counterfactual items whose answer the edit changed. A failed call is wrong,
and not an answer from habit.

Example: three originals with one counting question each (golds 3, 3, 5), each with a
counterfactual twin (golds 4, 2, 4). A model that always answers 3 is right on the
first two originals (66.7 %) and on no twin (0 %): d = −1, −1, 0, a paired difference
of −66.7 points; it answered 3, the original's answer, on the first two twins: a habit
share of 66.7 %. A model that reads the picture scores 0 points and 0 %.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from diagbench.benchmarks.intervals import metric_intervals
from diagbench.benchmarks.protocol import RowMetric, SampleValue
from diagbench.benchmarks.twins import FAMILIES, TwinFamily
from diagbench.records import OMIT_NONE, Record

if TYPE_CHECKING:
    from diagbench.report.leaderboard import Headline

#: The leaderboard's robustness column: lower is better.
HABIT_METRIC = RowMetric(
    "robustness: answered from habit", False,
    "% of the counterfactual items whose answer the edit changed that were answered "
    "with the original's answer (the model answered from habit, not from the picture; "
    "runs whose data set has counterfactual twins)", scale=100)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One scored item of one model, as the robustness figures see it (see the module's
    docstring)."""

    model: str
    id: str
    value: float
    family: TwinFamily | None = None
    twin_of: str | None = None
    source: str = ""
    habit: bool | None = None


@dataclass(frozen=True, slots=True)
class TwinFigures(Record):
    """One family of twins: its mean score (%) over its `n` items; over the items asked
    of both a twin and its original, the originals' mean (%) and the paired difference
    twin − original (`intervals.metric_intervals`, in percentage points, clustered by
    source diagram; its `n` the pairs); for counterfactuals, the share (%) of the items
    whose answer the edit changed that were answered with the original's answer (its
    intervals, clustered the same way; its `n` those items)."""

    n: int
    accuracy: float | None
    original_accuracy: float | None
    difference: dict[str, Any]
    habit: dict[str, Any] | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True)
class Robustness(Record):
    """One model's robustness figures: the mean score (%) of its `originals` items
    (those of no twin) and each family's `TwinFigures` (only the families present)."""

    originals: int
    original_accuracy: float | None
    families: dict[str, TwinFigures]


def robustness(rows: Sequence[Outcome]) -> Robustness | None:
    """The robustness figures of one model's outcomes (None when no item is a twin's)."""
    if not any(r.family for r in rows):
        return None
    originals = {r.id: r for r in rows if not r.family}
    families: dict[str, TwinFigures] = {}
    for family in FAMILIES:
        twins = [r for r in rows if r.family == family]
        if not twins:
            continue
        pairs = [(t, originals[t.twin_of]) for t in twins if t.twin_of in originals]
        differences = [SampleValue(t.model, "difference", t.id, t.source, t.value - o.value)
                       for t, o in pairs]
        habits = [SampleValue(t.model, "habit", t.id, t.source, float(t.habit))
                  for t in twins if t.habit is not None]
        families[family] = TwinFigures(
            len(twins), _mean(twins), _mean([o for _, o in pairs]),
            metric_intervals(differences, 100),
            metric_intervals(habits, 100) if family == "counterfactual" else None)
    return Robustness(len(originals), _mean(list(originals.values())), families)


def _mean(rows: Sequence[Outcome]) -> float | None:
    """The mean value in % (None without items)."""
    return 100.0 * sum(r.value for r in rows) / len(rows) if rows else None


def habit_headline(model: str, figures: Robustness | None) -> list[Headline]:
    """The leaderboard's robustness cell of one model (`HABIT_METRIC`): none without
    counterfactual twins."""
    from diagbench.report.leaderboard import Headline

    cf = figures.families.get("counterfactual") if figures else None
    if cf is None or cf.habit is None or not cf.habit["n"]:
        return []
    ci = cf.habit.get("ci95_clustered")
    return [Headline(model, HABIT_METRIC.name, cf.habit["estimate"], cf.habit["n"],
                     clustered=None if ci is None else (ci[0], ci[1]))]


def _f(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}"


def _ci(figures: dict[str, Any] | None) -> str:
    """An estimate with its clustered 95 % interval and its n."""
    if not figures or not figures["n"]:
        return "—"
    ci = figures.get("ci95_clustered")
    span = "" if ci is None else f" [{ci[0]:.1f} to {ci[1]:.1f}]"
    return f"{_f(figures['estimate'])}{span} (n {figures['n']})"


def robustness_lines(figures: Robustness | None, measure: str = "accuracy") -> list[str]:
    """What `eval` prints of one model's robustness (nothing without twins); `measure`
    names the benchmark's score."""
    if figures is None:
        return []
    out = [f"  twins: {measure} % on the originals {_f(figures.original_accuracy)} "
           f"(n {figures.originals}); paired difference twin − original in points, 95 % "
           "CI clustered by source diagram"]
    for family, f in figures.families.items():
        habit = "" if f.habit is None else \
            f"; answered with the original's answer % {_ci(f.habit)}"
        out.append(f"    {family}: {measure} % {_f(f.accuracy)} (n {f.n}), paired "
                   f"{_ci(f.difference)}{habit}")
    return out


def meaning(items: str = "questions", measure: str = "accuracy") -> str:
    """What each figure of the robustness table means, as the report says it, of a
    benchmark whose twins are asked `items` scored by `measure`."""
    return (
        "Each twin is a diagram drawn from its original's source: a counterfactual "
        "twin's source has one edit that changes at least one answer (the answers "
        "recomputed exactly), a style twin's is drawn another way and a capture twin's "
        f"image is scanned or photographed (answers unchanged). Originals: {measure} on "
        f"the {items} of the original diagrams. {measure.capitalize()}: on the family's "
        f"twin {items}. Paired difference: the twin's {measure} minus its original's, in "
        f"percentage points, over the {items} asked of both (the originals' {measure} on "
        "them beside it); below 0 the model loses answers when the drawing changes — on "
        "style and capture twins it should not, since their answers are the same. In "
        "brackets: the 95 % bootstrap interval clustered by source diagram (a diagram "
        f"and its twins resampled together). Answered from habit: of the counterfactual "
        f"{items} whose answer the edit changed, the share answered with the original's "
        "answer — the model answered from habit or from the question alone, not from "
        "the picture: near 0 for a model that reads the picture, its accuracy on those "
        "originals for one that never looks.")


def robustness_section(report: Any, models: dict[str, Robustness | None],
                       items: str = "questions", measure: str = "accuracy") -> None:
    """The report's robustness table (nothing when no model has twins)."""
    shown = {name: r for name, r in models.items() if r is not None}
    if not shown:
        return
    report.heading("Robustness: the same questions on twins of each diagram")
    report.paragraph(meaning(items, measure), note=True)
    report.table(["model", f"originals {measure} % (n)", "twins", f"{measure} % (n)",
                  "originals of the pairs %", "paired difference, points",
                  "answered from habit %"],
                 [[name, f"{_f(r.original_accuracy)} (n {r.originals})", family,
                   f"{_f(f.accuracy)} (n {f.n})", _f(f.original_accuracy),
                   _ci(f.difference), _ci(f.habit)]
                  for name, r in shown.items() for family, f in r.families.items()])
