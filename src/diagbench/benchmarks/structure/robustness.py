"""Does the model read the diagram or answer from habit? The figures of a structure run
whose data set has twins (`StructureSample.twin`): per model, accuracy on the
originals and on each family of twins (counterfactual, style, capture), the paired
difference twin − original with its bootstrap interval clustered by source diagram, and
the share of counterfactual questions answered with the original's answer.

A twin's question is paired with the same question on its original
(`StructureScore.twin_of`) when the model was asked both. For a pair,
d = right(twin) − right(original) (1, 0 or −1); the paired difference is the mean of d,
in percentage points; its intervals treat the source diagram (the original sample) as
the unit sampled, each drawn diagram bringing all its pairs (`scoring.metrics.intervals`).
The habit share is over the counterfactual questions whose answer the edit changed
(`StructureTask.original_gold`): the share whose answer, read strictly as every answer
is read, states the original's answer. Only question tasks count (not image-to-code);
a failed call is wrong, and not an answer from habit.

Example: three originals with one counting question each (golds 3, 3, 5), each with a
counterfactual twin (golds 4, 2, 4). A model that always answers 3 is right on the
first two originals (66.7 %) and on no twin (0 %): d = −1, −1, 0, a paired difference
of −66.7 points; it answered 3, the original's answer, on the first two twins: a habit
share of 66.7 %. A model that reads the picture scores 0 points and 0 %.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, get_args

from diagbench.benchmarks.intervals import metric_intervals
from diagbench.benchmarks.protocol import RowMetric, SampleValue
from diagbench.benchmarks.structure.records import (
    Robustness,
    StructureScore,
    TwinFamily,
    TwinFigures,
)
from diagbench.scoring import metrics

if TYPE_CHECKING:
    from diagbench.report.leaderboard import Headline

#: The families of twins, in the order the report shows them.
FAMILIES: tuple[str, ...] = get_args(TwinFamily)

#: The leaderboard's robustness column: lower is better.
HABIT_METRIC = RowMetric(
    "robustness: answered from habit", False,
    "% of the counterfactual questions whose answer the edit changed that were answered "
    "with the original's answer (the model answered from habit, not from the picture; "
    "runs whose data set has counterfactual twins)", scale=100)


def robustness(rows: Sequence[StructureScore]) -> Robustness | None:
    """The robustness figures of one model's scores (None when no question is a
    twin's), each pair and each habit clustered by the twin's original sample."""
    questions = [r for r in rows if r.task != "image_to_code"]
    if not any(r.twin for r in questions):
        return None
    originals = {r.id: r for r in questions if not r.twin}
    families = {}
    for family in FAMILIES:
        twins = [r for r in questions if r.twin == family]
        if not twins:
            continue
        pairs = [(t, originals[t.twin_of]) for t in twins if t.twin_of in originals]
        differences = [SampleValue(t.model, "difference", t.id, str(t.original),
                                   float(bool(t.correct)) - float(bool(o.correct)))
                       for t, o in pairs]
        changed = [SampleValue(t.model, "habit", t.id, str(t.original),
                               float(bool(t.habit)))
                   for t in twins if t.habit is not None]
        families[family] = TwinFigures(
            len(twins), _accuracy(twins), _accuracy([o for _, o in pairs]),
            metric_intervals(differences, 100),
            metric_intervals(changed, 100) if family == "counterfactual" else None)
    return Robustness(len(originals), _accuracy(list(originals.values())), families)


def _accuracy(rows: Sequence[StructureScore]) -> float | None:
    return metrics.qa_accuracy([bool(r.correct) for r in rows])


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


def robustness_lines(figures: Robustness | None) -> list[str]:
    """What `eval` prints of one model's robustness (nothing without twins)."""
    if figures is None:
        return []
    out = [f"  twins: accuracy % on the originals {_f(figures.original_accuracy)} "
           f"(n {figures.originals}); paired difference twin − original in points, 95 % "
           "CI clustered by source diagram"]
    for family, f in figures.families.items():
        habit = "" if f.habit is None else \
            f"; answered with the original's answer % {_ci(f.habit)}"
        out.append(f"    {family}: accuracy % {_f(f.accuracy)} (n {f.n}), paired "
                   f"{_ci(f.difference)}{habit}")
    return out


#: What each figure of the robustness table means, as the report says it.
MEANING = (
    "Each twin is a diagram drawn from its original's source: a counterfactual twin's "
    "source has one edit that changes at least one answer (the answers recomputed "
    "exactly), a style twin's is drawn another way and a capture twin's image is "
    "scanned or photographed (answers unchanged). Originals: accuracy on the questions "
    "of the original diagrams. Accuracy: on the family's twin questions. Paired "
    "difference: the twin's accuracy minus its original's, in percentage points, over "
    "the questions asked of both (the originals' accuracy on them beside it); below 0 "
    "the model loses answers when the drawing changes — on style and capture twins it "
    "should not, since their answers are the same. In brackets: the 95 % bootstrap "
    "interval clustered by source diagram (a diagram and its twins resampled together). "
    "Answered from habit: of the counterfactual questions whose answer the edit changed, "
    "the share answered with the original's answer — the model answered from habit or "
    "from the question alone, not from the picture: near 0 for a model that reads the "
    "picture, its accuracy on those originals for one that never looks.")


def robustness_section(report: Any, models: dict[str, Robustness | None]) -> None:
    """The report's robustness table (nothing when no model has twins)."""
    shown = {name: r for name, r in models.items() if r is not None}
    if not shown:
        return
    report.heading("Robustness: the same questions on twins of each diagram")
    report.paragraph(MEANING, note=True)
    report.table(["model", "originals % (n)", "twins", "accuracy % (n)",
                  "originals of the pairs %", "paired difference, points",
                  "answered from habit %"],
                 [[name, f"{_f(r.original_accuracy)} (n {r.originals})", family,
                   f"{_f(f.accuracy)} (n {f.n})", _f(f.original_accuracy),
                   _ci(f.difference), _ci(f.habit)]
                  for name, r in shown.items() for family, f in r.families.items()])
