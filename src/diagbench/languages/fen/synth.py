"""The seeded generator of chess positions (`baseline:synth`): random legal boards.

Each side gets its king (on its first square three times in ten) and a random subset
of the rest of its starting set (no promoted pieces; a rook goes to one of its corners
half the time); the two kings never touch, pawns stand on ranks 2–7. Castling rights
are given (each seven times in ten) where king and rook stand on their first squares,
an en passant target (half the time) where the side not to move has a pawn that may
just have made its double step, and the side to move is random. A board is kept only
when the FEN reader accepts it (`fen.parse_line`: no legality error, so the side not to
move is not in check); otherwise another is drawn from the same generator. Pieces in
all, kings included, per level in `SIZES`.
"""

from __future__ import annotations

import random

from diagbench.diagram.chess import COLOURS, SQUARES, Board, Colour, Piece, PieceType, other
from diagbench.languages.fen.read import CASTLING, parse_line

#: (fewest, most) pieces on the board, kings included, per complexity level.
SIZES = {"low": (3, 6), "medium": (8, 16), "high": (20, 32)}
#: A side's starting set without its king.
_SET: tuple[PieceType, ...] = ("queen", "rook", "rook", "bishop", "bishop", "knight",
                               "knight", *(("pawn",) * 8))


def synth_fen(rng: random.Random, complexity: str) -> str:
    """A random legal position in FEN (one line) at `complexity` (see `SIZES`)."""
    low, high = SIZES[complexity]
    count = rng.randint(low, high)
    while True:
        fen = _position(rng, count).fen()
        if not parse_line(fen)[1]:
            return fen + "\n"


def _position(rng: random.Random, count: int) -> Board:
    squares: list[Piece | None] = [None] * 64
    white_king = SQUARES.index("e1") if rng.random() < 0.3 else rng.randrange(64)
    black_king = SQUARES.index("e8") if rng.random() < 0.3 else rng.randrange(64)
    if max(abs(black_king % 8 - white_king % 8), abs(black_king // 8 - white_king // 8)) < 2:
        return _position(rng, count)  # kings side by side: draw again
    squares[white_king], squares[black_king] = Piece("white", "king"), Piece("black", "king")
    pools = {c: rng.sample(_SET, len(_SET)) for c in COLOURS}
    for k in range(count - 2):
        colour: Colour = COLOURS[k % 2]
        kind = pools[colour].pop()
        free = [s for s in range(64) if squares[s] is None
                and (kind != "pawn" or 8 <= s < 56)]
        corners = [s for s in ((0, 7) if colour == "white" else (56, 63)) if s in free]
        at = rng.choice(corners) if kind == "rook" and corners and rng.random() < 0.5 \
            else rng.choice(free)
        squares[at] = Piece(colour, kind)
    turn: Colour = rng.choice(COLOURS)
    board = Board(tuple(squares), turn)
    rights = ""
    for right, (king, rook) in CASTLING.items():
        colour = "white" if right.isupper() else "black"
        if board.at(king) == Piece(colour, "king") and board.at(rook) == Piece(colour, "rook") \
                and rng.random() < 0.7:
            rights += right
    passant = _en_passant(board, rng)
    return Board(tuple(squares), turn, rights or "-", passant,
                 0 if passant else rng.randint(0, 30), rng.randint(1, 60))


def _en_passant(board: Board, rng: random.Random) -> str | None:
    """Now and then, the target square behind a pawn of the side not to move that may
    just have advanced two squares."""
    mover = other(board.turn)
    rank, behind = ("5", "6") if mover == "black" else ("4", "3")
    start = "7" if mover == "black" else "2"
    targets = [s[0] + behind for s in SQUARES
               if s[1] == rank and board.at(s) == Piece(mover, "pawn")
               and board.at(s[0] + behind) is None and board.at(s[0] + start) is None]
    return rng.choice(targets) if targets and rng.random() < 0.5 else None
