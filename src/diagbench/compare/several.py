"""The comparison of two files that hold several diagrams each (a SMILES or FEN list,
an ABC book of tunes, a dot-bracket file of structures, PlantUML blocks): the diagrams
are paired in order, each pair compared by its language's similarity, and a diagram
that one side has and the other has not scores 0.

    score = Σ_k score_k / max(n_gold, n_pred)

(the same for STRUDEL's counts-only score), so a file compared with itself scores 1,
one diagram changed among n scores between (n − 1)/n and 1, and a missing diagram
costs its share (a warning says how many each side has). The file is valid when
every predicted diagram renders.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from diagbench.compare.scored import Scored


@dataclass(frozen=True, slots=True)
class SeveralComparison:
    """Diagram-by-diagram comparison of two files (`parts`, in order)."""

    parts: tuple[Scored, ...]
    gold_diagrams: int
    pred_diagrams: int

    @property
    def kind(self) -> str:
        return self.parts[0].kind if self.parts else "empty"

    @property
    def valid(self) -> bool:
        return all(p.valid for p in self.parts)

    @property
    def score(self) -> float:
        return sum(p.score for p in self.parts) / max(1, self.gold_diagrams, self.pred_diagrams)

    @property
    def counts_score(self) -> float:
        return (sum(p.counts_score for p in self.parts)
                / max(1, self.gold_diagrams, self.pred_diagrams))

    @property
    def warnings(self) -> tuple[str, ...]:
        differ = ((f"{self.gold_diagrams} diagrams in the ground truth, "
                   f"{self.pred_diagrams} in the prediction",)
                  if self.gold_diagrams != self.pred_diagrams else ())
        return differ + tuple(f"diagram {k}: {w}" for k, p in enumerate(self.parts)
                              for w in p.warnings)

    def as_dict(self) -> dict[str, Any]:
        return {"status": "ok", "kind": self.kind, "valid": self.valid,
                "score": round(self.score, 6), "counts_score": round(self.counts_score, 6),
                "gold_diagrams": self.gold_diagrams, "pred_diagrams": self.pred_diagrams,
                "diagrams": [p.as_dict() for p in self.parts],
                "warnings": list(self.warnings)}
