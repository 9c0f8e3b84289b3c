"""Image-to-code similarity of sequence logos (FASTA): how much of the gold alignment's
consensus — the tallest letter of each column of its logo — a predicted alignment
reproduces.

Both codes are read by the language's reader; the score is `metrics.consensus_accuracy`
of the two consensus sequences (`SequenceSet.consensus`) times validity: a prediction
that does not read, or is not an alignment (no logo), scores 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from diagbench.diagram.alignment import SequenceSet
from diagbench.formats.parsed import Diagram, Parsed
from diagbench.scoring import metrics


@dataclass(frozen=True, slots=True)
class AlignmentComparison:
    """The comparison of a predicted alignment with the gold one."""

    valid: bool
    gold_consensus: str
    pred_consensus: str
    gold_counts: dict[str, int] = field(default_factory=dict)
    pred_counts: dict[str, int] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    kind = "alignment"

    @property
    def accuracy(self) -> float:
        return metrics.consensus_accuracy(self.gold_consensus, self.pred_consensus)

    @property
    def score(self) -> float:
        return self.accuracy if self.valid else 0.0

    @property
    def counts_score(self) -> float:
        return metrics.strudel_count_score(self.valid, self.gold_counts, self.pred_counts)

    def as_dict(self) -> dict[str, Any]:
        return {"status": "ok", "kind": "alignment", "valid": self.valid,
                "gold_consensus": self.gold_consensus, "pred_consensus": self.pred_consensus,
                "accuracy": round(self.accuracy, 6), "score": round(self.score, 6),
                "counts_score": round(self.counts_score, 6), "warnings": list(self.warnings)}


def _alignment(parsed: Parsed[Diagram] | None) -> tuple[SequenceSet | None, tuple[str, ...]]:
    """The aligned sequences of `text`, or None with why not."""
    if parsed is None:
        return None, ("no alignment",)
    model = parsed.diagram
    problems = tuple(str(d) for d in parsed.diagnostics[:3])
    if parsed.errors or not isinstance(model, SequenceSet) or not model.aligned:
        return None, problems or ("no alignment",)
    return model, problems


def compare_alignments(gold_read: Parsed[Diagram], pred_read: Parsed[Diagram] | None,
                       valid: bool) -> AlignmentComparison:
    """Compare a predicted FASTA alignment with its gold one (both read by its
    language's reader)."""
    gold, _ = _alignment(gold_read)
    pred, warnings = _alignment(pred_read)
    return AlignmentComparison(
        valid and pred is not None, gold.consensus() if gold else "",
        pred.consensus() if pred else "", gold.counts() if gold else {},
        pred.counts() if pred else {}, warnings if pred is None else ())
