"""The facts asked about a chess board: those read off the board
(`diagbench.diagram.chess.board_facts`), and the best move, computed by Stockfish
(`uci`) — STRUDEL's puzzle question, "What is the best move for White?".

The best move is asked only when it is unique by a margin: Stockfish's best line
(MultiPV 2, `NODES` nodes, one thread: deterministic) mates and the second does not,
or scores at least `MARGIN_CP` centipawns above the second; a position with one legal
move has that move. The answer is in UCI coordinates (from-square and to-square,
"e2e4"; a promotion adds the piece's letter, "e7e8q"), not SAN. Without Stockfish, or
when it fails, or for a board the FEN reader does not accept (Stockfish may crash on
illegal positions), the best-move fact is left out and the others stay.
"""

from __future__ import annotations

from diagbench.diagram.chess import Board, board_facts
from diagbench.diagram.facts import Fact
from diagbench.formats.chess.fen import parse_line
from diagbench.formats.chess.uci import Line, Stockfish, UciError, stockfish_path

#: The nodes Stockfish searches for the best move.
NODES = 200_000
#: How far (centipawns) the best move must score above the second to be asked about.
MARGIN_CP = 150


def chess_facts(board: Board) -> list[Fact]:
    """The board's facts, and its best move when it is unique (see the module)."""
    facts = board_facts(board)
    if stockfish_path() is None or parse_line(board.fen())[1]:
        return facts
    try:
        with Stockfish() as engine:
            move = unique_best(engine.analyse(board.fen(), nodes=NODES))
    except UciError:
        return facts
    if move is not None:
        side = board.turn.capitalize()
        facts.append(Fact("structural", "best_move", f"What is the best move for {side}? "
                          "Answer in coordinates: the from-square and the to-square, e.g. "
                          "e2e4 (a promotion adds the piece's letter, e.g. e7e8q).", move))
    return facts


def unique_best(lines: list[Line]) -> str | None:
    """The best move of Stockfish's two best `lines` when it is unique by the margin
    (see the module), else None."""
    if not lines:
        return None
    if len(lines) == 1:
        return lines[0].move
    best, second = lines[0], lines[1]
    if best.mate is not None and best.mate > 0:
        return None if second.mate is not None and second.mate > 0 else best.move
    return best.move if best.value - second.value >= MARGIN_CP else None
