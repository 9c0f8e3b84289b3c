"""The facts asked about a chess board: those read off the board
(`diagbench.diagram.chess.board_facts`), and the best move, computed by Stockfish
(`uci`) — STRUDEL's puzzle question, "What is the best move for White?". No fact is
asked of a board that breaks a rule of the game (the reader's legality warnings): its
counts and checks describe no position a game reaches.

The drawing shows the pieces and the side to move, not the castling rights or the en
passant target: the best move is asked only when it is the same for every value of
those two fields the position allows (`undrawn_variants`: each castling right whose
king and rook stand on their squares, given or not; no en passant target, or any
square behind a pawn that may just have made its double step) — on
`7k/8/2pb4/Pp6/K7/7r/8/8 w - b6` White plays a5b6 en passant, while with `-` White is
mated, so the board alone does not decide it and the question is not asked. The side
to move is drawn under the board and named in the question.

The best move is asked only when it is unique by a margin: Stockfish's best line
(MultiPV 2, `NODES` nodes, one thread: deterministic) mates and the second does not,
or scores at least `MARGIN_CP` centipawns and `MARGIN_CHANCES` points of winning
chances above the second, and it stays so (the same move) in a search of twice as
many nodes — in lost or won positions Stockfish's choice drifts with the search; a
position with one legal move has that move. The answer is in UCI coordinates
(from-square and to-square, "e2e4"; a promotion adds the piece's letter, "e7e8q"), not
SAN. Without Stockfish, or when it fails, or for a board the FEN reader does not accept
(Stockfish may crash on illegal positions), the best-move fact is left out and the
others stay. A warm Stockfish serves board after board (`uci.shared_stockfish`):
`ucinewgame` clears its hash table before each position, so a board gets the lines a
fresh Stockfish gives it. The best move found for a board is kept for the process
(`searched_best_move`), so that asking a board's facts again — a build reads each
board, then its model asks a question of it — searches nothing; `search_ahead`
searches many boards `SEARCHES_AT_ONCE` at a time, each search in a Stockfish of its
own (the same moves as one after another: each search depends on its board alone).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

from diagbench.diagram.chess import FILES, Board, Piece, board_facts
from diagbench.diagram.facts import Fact
from diagbench.languages.fen.read import CASTLING, parse_line
from diagbench.languages.fen.uci import (
    Line,
    Stockfish,
    UciError,
    shared_stockfish,
    stockfish_path,
)

#: The nodes Stockfish searches for the best move.
NODES = 200_000
#: How far the best move must score above the second to be asked about: centipawns, and
#: winning chances (percentage points, `winning_chances`) — in a lost or won position
#: hundreds of centipawns change little, and the best move there is not stable.
MARGIN_CP = 150
MARGIN_CHANCES = 10.0
#: The boards whose best move a process keeps (`searched_best_move`).
KEPT_BOARDS = 16_384
#: Stockfish searches `search_ahead` runs side by side (one thread each).
SEARCHES_AT_ONCE = 2


def chess_facts(board: Board) -> list[Fact]:
    """The board's facts, and its best move when the drawing decides it and it is unique
    (see the module); none for a board that breaks a rule of the game."""
    if parse_line(board.fen())[1]:
        return []
    facts = board_facts(board)
    if stockfish_path() is None:
        return facts
    try:
        move = searched_best_move(board)
    except UciError:
        return facts
    if move is not None:
        side = board.turn.capitalize()
        facts.append(Fact("structural", "best_move", f"What is the best move for {side}? "
                          "Answer in coordinates: the from-square and the to-square, e.g. "
                          "e2e4 (a promotion adds the piece's letter, e.g. e7e8q).", move))
    return facts


@lru_cache(maxsize=KEPT_BOARDS)
def searched_best_move(board: Board) -> str | None:
    """`drawn_best_move` of `board` by a Stockfish of the process, kept for the next call
    with the same board (the search is deterministic: the same board gives the same
    move); a `UciError` is raised and nothing kept."""
    with shared_stockfish() as engine:
        return drawn_best_move(engine, board)


def search_ahead(boards: Sequence[Board]) -> None:
    """Search the best move of each board that is asked one (legal, Stockfish
    installed), `SEARCHES_AT_ONCE` boards at a time, so that `chess_facts` of each
    afterwards finds it kept (`searched_best_move`); a board whose search fails is left
    for `chess_facts` to try again."""
    from concurrent.futures import ThreadPoolExecutor

    if stockfish_path() is None:
        return
    todo = list(dict.fromkeys(b for b in boards if not parse_line(b.fen())[1]))

    def search(board: Board) -> None:
        with contextlib.suppress(UciError):
            searched_best_move(board)

    with ThreadPoolExecutor(max_workers=SEARCHES_AT_ONCE) as pool:
        list(pool.map(search, todo))


def undrawn_variants(board: Board) -> list[Board]:
    """The board with every value of the fields its drawing does not show that the
    position allows (see the module), the board itself first; each one the reader
    accepts."""
    from itertools import product

    rights = [right for right, (king, rook) in CASTLING.items()
              if board.at(king) == Piece("white" if right.isupper() else "black", "king")
              and board.at(rook) == Piece("white" if right.isupper() else "black", "rook")]
    castlings = ["".join(r for r, keep in zip(rights, mask, strict=True) if keep) or "-"
                 for mask in product((True, False), repeat=len(rights))]
    targets: list[str | None] = [None, *(f + ("6" if board.turn == "white" else "3")
                                         for f in FILES)]
    out = [board]
    for castling, target in product(castlings, targets):
        variant = replace(board, castling=castling, en_passant=target,
                          halfmove=0 if target else board.halfmove)
        if variant != board and not parse_line(variant.fen())[1]:
            out.append(variant)
    return out


def drawn_best_move(engine: Stockfish, board: Board) -> str | None:
    """The best move of `board` (`best_move`) when every other variant of its undrawn
    fields (`undrawn_variants`) has that same move as its unique best in a search of
    `NODES` nodes; else None."""
    move = best_move(engine, board.fen())
    if move is None:
        return None
    for variant in undrawn_variants(board)[1:]:
        if unique_best(engine.analyse(variant.fen(), nodes=NODES)) != move:
            return None
    return move


def best_move(engine: Stockfish, fen: str) -> str | None:
    """The best move of `fen` when it is unique by the margin in a search of `NODES`
    nodes and stays so, the same move, in a search of twice as many; else None."""
    move = unique_best(engine.analyse(fen, nodes=NODES))
    if move is None:
        return None
    return move if unique_best(engine.analyse(fen, nodes=2 * NODES)) == move else None


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
    unique = best.value - second.value >= MARGIN_CP \
        and winning_chances(best) - winning_chances(second) >= MARGIN_CHANCES
    return best.move if unique else None


def winning_chances(line: Line) -> float:
    """The side to move's winning chances (percent) of a line's score, as lichess turns
    centipawns into them: 50 + 50 · (2 / (1 + e^(−0.00368208 · cp)) − 1); a mate for the
    side to move is 100, against it 0."""
    if line.mate is not None:
        return 100.0 if line.mate > 0 else 0.0
    return 50 + 50 * (2 / (1 + math.exp(-0.00368208 * (line.cp or 0))) - 1)
