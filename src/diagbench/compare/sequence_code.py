"""Image-to-code score of a sequence diagram, read as paper 000 reads one
(000_30f6dc923c2b066d.txt §2.3): the semantic comparison (`compare.semantic`) counts the
prediction's component errors, the order of its matched messages and the similarity of
their labels, and `scoring.metrics.sequence_code_score` makes them one score. So a
prediction that relabels every message, swaps messages or drops a note scores below
1.0, where counting participants and messages by their ends would not see it.

The participant and message matches of the graph comparison (`compare.graph`) are
given beside it, for the tables that show entity and relation F1.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from diagbench.compare.graph import Match, elements, match, model_of, type_counts
from diagbench.compare.semantic import compare_diagrams
from diagbench.diagram.sequence import SequenceDiagram
from diagbench.formats.parsed import Diagram, Parsed
from diagbench.scoring import metrics


@dataclass(frozen=True, slots=True)
class SequenceCodeComparison:
    """One predicted sequence diagram against its ground truth: the component errors of
    the semantic comparison (`errors` of `gold_elements`, each message on one side only
    counting its arrow type too), the order agreement and the
    mean label similarity of the matched messages (None: none labelled), and the
    participant (`entities`) and message (`relations`) matches."""

    kind: str
    valid: bool
    entities: Match
    relations: Match
    errors: int
    gold_elements: int
    ordering: float
    labels: float | None
    gold_counts: dict[str, int] = field(default_factory=dict)
    pred_counts: dict[str, int] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    @property
    def score(self) -> float:
        return metrics.sequence_code_score(self.valid, self.errors, self.gold_elements,
                                           self.ordering, self.labels)

    @property
    def counts_score(self) -> float:
        return metrics.strudel_count_score(self.valid, self.gold_counts, self.pred_counts)

    def as_dict(self) -> dict[str, Any]:
        return {"status": "ok", "kind": self.kind, "valid": self.valid,
                "entities": self.entities.as_dict(), "relations": self.relations.as_dict(),
                "errors": self.errors, "gold_elements": self.gold_elements,
                "ordering": round(self.ordering, 6),
                "labels": None if self.labels is None else round(self.labels, 6),
                "score": round(self.score, 6), "counts_score": round(self.counts_score, 6),
                "warnings": list(self.warnings)}


def compare_sequence_code(gold: Parsed[Diagram], pred: Parsed[Diagram] | None,
                          valid: bool) -> SequenceCodeComparison:
    """Compare a predicted sequence diagram with its ground truth, both read by their
    language; a prediction read as another kind of diagram, or not read, is an empty
    sequence diagram (every gold element missing)."""
    gold_model, kind, _ = model_of(gold)
    pred_model, _, warnings = model_of(pred)
    assert isinstance(gold_model, SequenceDiagram), "the ground truth is a sequence diagram"
    predicted = pred_model if isinstance(pred_model, SequenceDiagram) else SequenceDiagram()
    found = compare_diagrams(gold_model, predicted)
    # a message on one side only misses its arrow type too, which paper 000's Table 2
    # does not count (it compares arrow types of matched messages only); the score
    # counts it, so that a prediction missing everything scores 0
    arrows = found.components["edge_direction"]
    errors = found.errors + arrows.deletion + arrows.insertion
    ge, gr = elements(gold_model)
    pe, pr = elements(predicted)
    return SequenceCodeComparison(
        kind, valid, match(ge, pe), match(gr, pr), errors, found.gold_elements,
        found.ordering.score, found.label_similarity, type_counts(gold_model),
        type_counts(pred_model) if pred_model is not None else {}, warnings)
