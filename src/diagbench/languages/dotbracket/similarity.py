"""Image-to-code similarity of RNA secondary structures (dot-bracket): how many of the
gold structure's base pairs a predicted structure has, the field's own measure of a
structure prediction (`metrics.base_pair_f1`).

Both codes are read by the language's reader; the first structure of each is compared.
Pairs are compared by position, (i, j) with i < j numbered from the 5' end, whatever
the letters: a prediction of another length or sequence is still scored on its pairs,
and the share of positions with the gold letter (`sequence_identity`,
`metrics.consensus_accuracy` of the two sequences: matches over the longer length) is
reported beside it. The score is 𝟙[valid] · base-pair F1; a prediction the reader
finds any error in (an unbalanced bracket, a structure not as long as its sequence)
is not valid and scores 0. The graph comparison of the two models (bases matched by
letter, pairs by the letters at their ends) is kept beside it (`graph`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from diagbench.compare.graph import compare_models
from diagbench.diagram.rna import Pair, RnaStructure
from diagbench.formats.parsed import Diagram, Parsed
from diagbench.languages.smiles.similarity import FieldComparison
from diagbench.scoring import metrics


@dataclass(frozen=True, slots=True)
class StructureComparison(FieldComparison):
    """The comparison of a predicted structure with its gold."""

    gold_pairs: frozenset[Pair]
    pred_pairs: frozenset[Pair]
    sequence_identity: float
    read: bool

    @property
    def valid(self) -> bool:
        return self.graph.valid and self.read

    @property
    def f1(self) -> float:
        return metrics.base_pair_f1(self.gold_pairs, self.pred_pairs)

    @property
    def score(self) -> float:
        return self.f1 if self.valid else 0.0

    def as_dict(self) -> dict[str, Any]:
        common = self.gold_pairs & self.pred_pairs
        return self.graph.as_dict() | {
            "valid": self.valid, "gold_pairs": len(self.gold_pairs),
            "pred_pairs": len(self.pred_pairs), "matched_pairs": len(common),
            "base_pair_f1": round(self.f1, 6),
            "sequence_identity": round(self.sequence_identity, 6),
            "score": round(self.score, 6), "graph_score": round(self.graph.score, 6)}


def _structure(parsed: Parsed[Diagram] | None) -> tuple[RnaStructure | None, tuple[str, ...]]:
    """The first structure of `text` when the reader finds no error in it, or None and
    why not."""
    first = parsed
    if first is None or first.errors or not isinstance(first.diagram, RnaStructure):
        return None, tuple(str(d) for d in first.errors[:3]) if first else ("no structure",)
    return first.diagram, ()


def compare_structures(gold_read: Parsed[Diagram], pred_read: Parsed[Diagram] | None,
                       valid: bool) -> StructureComparison:
    """Compare a predicted dot-bracket structure with its gold (both read by its
    language's reader)."""
    gold, _ = _structure(gold_read)
    pred, warnings = _structure(pred_read)
    graph = compare_models(gold, pred, valid, "rna", warnings)
    return StructureComparison(
        graph, frozenset(gold.pairs) if gold else frozenset(),
        frozenset(pred.pairs) if pred else frozenset(),
        metrics.consensus_accuracy(gold.sequence if gold else "",
                                   pred.sequence if pred else ""), pred is not None)
