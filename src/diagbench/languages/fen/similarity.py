"""Image-to-code similarity of chess boards (FEN): how many of the 64 squares a predicted
position gets right, and whether it is the gold board exactly.

Both codes are read by the language's reader (the first position of each); the score
is `metrics.board_score`: 𝟙[valid] · (square accuracy + 𝟙[placement and side to move
equal]) / 2, the square accuracy giving each square 1 for the right piece (or both
empty), ½ for the right type in the wrong colour, 0 otherwise
(`metrics.square_credit`). What is scored is what is drawn: a placement alone reads
as white to move (`read`), and a position that breaks a rule of the game (a
seventeenth piece, a third bishop beside eight pawns) is drawn and scored square by
square like any other. A prediction that does not read (a grammar error), or does
not render (the engine draws one position a drawing), scores 0.
Castling, en passant and the clocks are not drawn, so they are not scored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from diagbench.compare.graph import model_as
from diagbench.diagram.chess import Board
from diagbench.formats.parsed import Diagram, Parsed
from diagbench.scoring import metrics


@dataclass(frozen=True, slots=True)
class BoardComparison:
    """The comparison of a predicted board with the gold one."""

    valid: bool
    gold: str  # FEN of the gold board ("" when it does not read)
    pred: str
    accuracy: float
    exact: bool
    gold_counts: dict[str, int] = field(default_factory=dict)
    pred_counts: dict[str, int] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    kind = "board"

    @property
    def score(self) -> float:
        return metrics.board_score(self.valid, self.accuracy, self.exact)

    @property
    def counts_score(self) -> float:
        return metrics.strudel_count_score(self.valid, self.gold_counts, self.pred_counts)

    def as_dict(self) -> dict[str, Any]:
        return {"status": "ok", "kind": "board", "valid": self.valid, "gold": self.gold,
                "pred": self.pred, "accuracy": round(self.accuracy, 6), "exact": self.exact,
                "score": round(self.score, 6), "counts_score": round(self.counts_score, 6),
                "warnings": list(self.warnings)}


def _letters(board: Board) -> list[str]:
    return [piece.letter if piece else "" for piece in board.squares]


def compare_boards(gold_read: Parsed[Diagram], pred_read: Parsed[Diagram] | None,
                   valid: bool) -> BoardComparison:
    """Compare a predicted FEN position with its gold one (both read by its
    language's reader)."""
    gold, _ = model_as(gold_read, Board, "board")
    pred, warnings = model_as(pred_read, Board, "board")
    if gold is None or pred is None:
        return BoardComparison(False, gold.fen() if gold else "", pred.fen() if pred else "",
                               0.0, False, gold.counts() if gold else {},
                               pred.counts() if pred else {}, warnings)
    exact = (gold.placement(), gold.turn) == (pred.placement(), pred.turn)
    return BoardComparison(valid, gold.fen(), pred.fen(),
                           metrics.square_accuracy(_letters(gold), _letters(pred)), exact,
                           gold.counts(), pred.counts(), warnings)
