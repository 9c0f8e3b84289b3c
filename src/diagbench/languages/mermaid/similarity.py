"""Image-to-code similarity of Mermaid diagrams: flowchart, class, ER and state diagrams
by the graph comparison (`compare.graph`: entity and relation F1); a Gantt chart by its
tasks and their dates, S = 𝟙[valid] · (task F1 + date agreement) / 2; a mind map by its
tree, S = 𝟙[valid] · (normalised tree edit distance similarity + node-label F1) / 2.

Both codes are read by Mermaid's own parser (`reading.read_own`); a prediction that
does not read (Mermaid's error) is an empty chart or map, so it scores 0.

**Gantt.** Tasks (bars, milestones and markers alike) are keyed by (name, section),
each with case and runs of spaces ignored, and matched as multisets (the k-th gold task
of a key with the k-th predicted one). Task F1 = 2m / (|G| + |P|) for m matched
tasks. Date agreement D = Σ over matched pairs of (𝟙[same start] + 𝟙[same end]) / 2,
over max(|G|, |P|): the dates as Mermaid computed them (after `after`, `until`,
`excludes` and durations), so a chart written with other dependencies or formats that
draws the same bars agrees. Both empty: F1 = D = 1. Example: gold tasks A [1–5 Jan],
B [5–8 Jan]; predicted A [1–5 Jan], B [6–8 Jan] → F1 = 1, D = (1 + ½)/2 = 0.75,
S = 0.875.

**Mind map.** The tree edit distance TED (APTED, unit costs: deleting or inserting a
node 1, renaming 1 when the label keys differ, where a label key is the label with
case and runs of spaces ignored) is normalised by the two sizes: T = 1 − TED / (|G| +
|P|) (TED ≤ |G| + |P|, so T ∈ [0, 1]; both empty: 1). Node-label F1 matches label keys
as multisets. Example: gold root R with children A, B and B's child C; predicted R
with children A, B and A's child C (C moved to another parent) → TED = 2 (C deleted
and inserted), T = 1 − 2/8 = 0.75, label F1 = 1, S = 0.875.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from diagbench.compare.graph import Match, match, model_of
from diagbench.formats.parsed import Diagram, Parsed
from diagbench.languages.mermaid.gantt import Gantt, Task
from diagbench.languages.mermaid.mindmap import MindMap, MindNode
from diagbench.scoring import metrics


def key(text: str) -> str:
    """A name or label as compared: runs of spaces collapsed, case folded."""
    return " ".join(text.split()).casefold()


def _task_key(task: Task) -> tuple[str, str]:
    return key(task.name), key(task.section)


def task_pairs(gold: list[Task], pred: list[Task]) -> list[tuple[Task, Task]]:
    """The matched (gold, predicted) tasks: the k-th of each key with the k-th."""
    waiting: dict[tuple[str, str], list[Task]] = {}
    for t in pred:
        waiting.setdefault(_task_key(t), []).append(t)
    pairs = []
    for t in gold:
        queue = waiting.get(_task_key(t))
        if queue:
            pairs.append((t, queue.pop(0)))
    return pairs


def date_agreement(gold: list[Task], pred: list[Task]) -> float:
    """D = Σ_matched (𝟙[same start] + 𝟙[same end]) / 2 / max(|G|, |P|); 1 when both
    are empty."""
    if not gold and not pred:
        return 1.0
    agree = sum(((g.start == p.start) + (g.end == p.end)) / 2
                for g, p in task_pairs(gold, pred))
    return agree / max(len(gold), len(pred))


def gantt_score(valid: bool, task_f1: float, dates: float) -> float:
    """S = 𝟙[valid] · (task F1 + date agreement) / 2."""
    return (task_f1 + dates) / 2 if valid else 0.0


class _Node:
    """A mind map node as APTED walks it: its label key and children."""

    def __init__(self, node: MindNode) -> None:
        self.name = key(node.label)
        self.children = [_Node(c) for c in node.children]


def tree_similarity(gold: MindMap, pred: MindMap) -> float:
    """T = 1 − TED / (|G| + |P|), TED by APTED with unit costs; 1 when both are empty."""
    from apted import APTED  # type: ignore[import-untyped]  # no stubs

    g, p = len(gold.nodes()), len(pred.nodes())
    if not g or not p:
        return 1.0 if g == p else 0.0
    assert gold.root is not None and pred.root is not None
    distance = APTED(_Node(gold.root), _Node(pred.root)).compute_edit_distance()
    return 1.0 - distance / (g + p)


def mindmap_score(valid: bool, tree: float, labels_f1: float) -> float:
    """S = 𝟙[valid] · (tree similarity + node-label F1) / 2."""
    return (tree + labels_f1) / 2 if valid else 0.0


@dataclass(frozen=True, slots=True)
class GanttComparison:
    """The comparison of a predicted Gantt chart with the gold one."""

    valid: bool
    tasks: Match
    dates: float
    gold_counts: dict[str, int] = field(default_factory=dict)
    pred_counts: dict[str, int] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    kind = "gantt"

    @property
    def score(self) -> float:
        return gantt_score(self.valid, self.tasks.f1, self.dates)

    @property
    def counts_score(self) -> float:
        return metrics.strudel_count_score(self.valid, self.gold_counts, self.pred_counts)

    def as_dict(self) -> dict[str, Any]:
        return {"status": "ok", "kind": self.kind, "valid": self.valid,
                "tasks": self.tasks.as_dict(), "date_agreement": round(self.dates, 6),
                "score": round(self.score, 6), "counts_score": round(self.counts_score, 6),
                "warnings": list(self.warnings)}


@dataclass(frozen=True, slots=True)
class MindMapComparison:
    """The comparison of a predicted mind map with the gold one."""

    valid: bool
    labels: Match
    tree: float
    gold_counts: dict[str, int] = field(default_factory=dict)
    pred_counts: dict[str, int] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    kind = "mindmap"

    @property
    def score(self) -> float:
        return mindmap_score(self.valid, self.tree, self.labels.f1)

    @property
    def counts_score(self) -> float:
        return metrics.strudel_count_score(self.valid, self.gold_counts, self.pred_counts)

    def as_dict(self) -> dict[str, Any]:
        return {"status": "ok", "kind": self.kind, "valid": self.valid,
                "labels": self.labels.as_dict(), "tree_similarity": round(self.tree, 6),
                "score": round(self.score, 6), "counts_score": round(self.counts_score, 6),
                "warnings": list(self.warnings)}


def compare_gantt(gold_read: Parsed[Diagram], pred_read: Parsed[Diagram] | None,
                  valid: bool) -> GanttComparison:
    """Compare a predicted Gantt chart with its gold one (both read by Mermaid)."""
    gold, _, _ = model_of(gold_read)
    pred, _, warnings = model_of(pred_read)
    g = list(gold.tasks) if isinstance(gold, Gantt) else []
    p = list(pred.tasks) if isinstance(pred, Gantt) else []
    tasks = match([_task_key(t) for t in g], [_task_key(t) for t in p])
    return GanttComparison(valid, tasks, date_agreement(g, p),
                           dict(gold.counts()) if isinstance(gold, Gantt) else {},
                           dict(pred.counts()) if isinstance(pred, Gantt) else {}, warnings)


def compare_mindmaps(gold_read: Parsed[Diagram], pred_read: Parsed[Diagram] | None,
                     valid: bool) -> MindMapComparison:
    """Compare a predicted mind map with its gold one (both read by Mermaid)."""
    gold, _, _ = model_of(gold_read)
    pred, _, warnings = model_of(pred_read)
    g = gold if isinstance(gold, MindMap) else MindMap()
    p = pred if isinstance(pred, MindMap) else MindMap()
    labels = match([(key(n.label),) for n, _, _ in g.nodes()],
                   [(key(n.label),) for n, _, _ in p.nodes()])
    return MindMapComparison(valid, labels, tree_similarity(g, p), g.counts(),
                             p.counts(), warnings)
