"""The typed model of a chess position (paper 004 Table 1: chess boards, written in FEN):
64 squares, each empty or holding a piece, the side to move, castling rights, the en
passant target square and the two clocks.

Squares are named as on a board, "a1" … "h8"; `Board.squares` holds them in the order
a1, b1, …, h1, a2, …, h8 (index = 8 · (rank − 1) + file). Attacks are computed from
the rules of chess (FIDE Laws, art. 3): a piece attacks the squares it could capture
on — a pawn the two squares diagonally ahead, a knight its leaps, a king the eight
squares around it, and a queen, rook or bishop every square along its lines up to and
including the first occupied one.

`Board.counts()` are what the board drawing shows: `pieces` (the diagram's size), by
colour (`white`, `black`), by type (`kings` … `pawns`) and by both (`white_pawns` …).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from diagbench.diagram.facts import Fact

Colour = Literal["white", "black"]
PieceType = Literal["king", "queen", "rook", "bishop", "knight", "pawn"]

COLOURS: tuple[Colour, ...] = ("white", "black")
#: The piece types, in FEN's letter order (KQRBNP).
PIECE_TYPES: tuple[PieceType, ...] = ("king", "queen", "rook", "bishop", "knight", "pawn")
#: FEN's letter of each type (white's; black's is the lower case).
LETTERS: dict[PieceType, str] = dict(zip(PIECE_TYPES, "KQRBNP", strict=True))
#: Plural nouns, as counts and questions name the types.
PLURALS: dict[PieceType, str] = {t: t + "s" for t in PIECE_TYPES}
FILES = "abcdefgh"
RANKS = "12345678"
#: Every square's name, in `Board.squares` order.
SQUARES: tuple[str, ...] = tuple(f + r for r in RANKS for f in FILES)

_KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
_KING = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
_ROOK_LINES = ((1, 0), (0, 1), (-1, 0), (0, -1))
_BISHOP_LINES = ((1, 1), (-1, 1), (-1, -1), (1, -1))


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece: its colour and type."""

    colour: Colour
    type: PieceType

    @property
    def letter(self) -> str:
        """FEN's letter: upper case for white, lower case for black."""
        letter = LETTERS[self.type]
        return letter if self.colour == "white" else letter.lower()

    @property
    def name(self) -> str:
        """"white knight", as questions and answers name it."""
        return f"{self.colour} {self.type}"

    @classmethod
    def from_letter(cls, letter: str) -> Piece:
        """The piece of a FEN letter (KQRBNP white, kqrbnp black); ValueError otherwise."""
        for kind, upper in LETTERS.items():
            if letter == upper:
                return cls("white", kind)
            if letter == upper.lower():
                return cls("black", kind)
        raise ValueError(f"{letter!r} is not a piece letter (KQRBNP, kqrbnp)")


def square_index(square: str) -> int:
    """The index of a square's name ("e4" → 28) in `Board.squares`."""
    return SQUARES.index(square)


def other(colour: Colour) -> Colour:
    return "black" if colour == "white" else "white"


@dataclass(frozen=True, slots=True)
class Board:
    """A chess position: `squares` (64, a1 … h8, each a `Piece` or None), the side to
    move (`turn`), `castling` ("KQkq", a subset in that order, or "-"), the `en_passant`
    target square (None: none), the halfmove clock and the fullmove number."""

    squares: tuple[Piece | None, ...] = (None,) * 64
    turn: Colour = "white"
    castling: str = "-"
    en_passant: str | None = None
    halfmove: int = 0
    fullmove: int = 1

    def __post_init__(self) -> None:
        if len(self.squares) != 64:
            raise ValueError(f"a board has 64 squares, not {len(self.squares)}")

    def at(self, square: str) -> Piece | None:
        """The piece on `square` ("e4"), or None."""
        return self.squares[square_index(square)]

    def occupied(self) -> dict[str, Piece]:
        """Square → piece of every occupied square, a1 … h8."""
        return {name: piece for name, piece in zip(SQUARES, self.squares, strict=True)
                if piece is not None}

    def occupied_by(self, piece: Piece) -> int:
        """How many squares hold `piece`."""
        return self.squares.count(piece)

    def placement(self) -> str:
        """FEN's first field: ranks 8 … 1, each file a letter or a run of empty squares
        as a digit."""
        ranks = []
        for rank in range(7, -1, -1):
            out, empty = "", 0
            for piece in self.squares[8 * rank:8 * rank + 8]:
                if piece is None:
                    empty += 1
                    continue
                out += (str(empty) if empty else "") + piece.letter
                empty = 0
            ranks.append(out + (str(empty) if empty else ""))
        return "/".join(ranks)

    def fen(self) -> str:
        """The position as the six fields of FEN."""
        return (f"{self.placement()} {self.turn[0]} {self.castling} "
                f"{self.en_passant or '-'} {self.halfmove} {self.fullmove}")

    def counts(self) -> dict[str, int]:
        pieces = list(self.occupied().values())
        out = {"pieces": len(pieces)}
        out |= {c: sum(p.colour == c for p in pieces) for c in COLOURS}
        out |= {PLURALS[t]: sum(p.type == t for p in pieces) for t in PIECE_TYPES}
        out |= {f"{c}_{PLURALS[t]}": pieces.count(Piece(c, t))
                for c in COLOURS for t in PIECE_TYPES}
        return out

    # --- attacks, from the rules -------------------------------------------------------

    def attacks(self, square: str) -> frozenset[str]:
        """The squares the piece on `square` attacks (empty when the square is)."""
        piece = self.at(square)
        if piece is None:
            return frozenset()
        file, rank = FILES.index(square[0]), RANKS.index(square[1])
        if piece.type == "pawn":
            ahead = 1 if piece.colour == "white" else -1
            return frozenset(_name(file + df, rank + ahead) for df in (-1, 1)
                             if _on_board(file + df, rank + ahead))
        if piece.type in ("knight", "king"):
            steps = _KNIGHT if piece.type == "knight" else _KING
            return frozenset(_name(file + df, rank + dr) for df, dr in steps
                             if _on_board(file + df, rank + dr))
        lines = {"rook": _ROOK_LINES, "bishop": _BISHOP_LINES,
                 "queen": _ROOK_LINES + _BISHOP_LINES}[piece.type]
        out = set()
        for df, dr in lines:
            f, r = file + df, rank + dr
            while _on_board(f, r):
                out.add(_name(f, r))
                if self.squares[8 * r + f] is not None:
                    break
                f, r = f + df, r + dr
        return frozenset(out)

    def attackers(self, square: str, colour: Colour) -> tuple[str, ...]:
        """The squares of the `colour` pieces that attack `square`, a1 … h8."""
        return tuple(name for name, piece in self.occupied().items()
                     if piece.colour == colour and square in self.attacks(name))

    def king(self, colour: Colour) -> str | None:
        """The square of `colour`'s king (the first, a1 … h8), or None."""
        return next((name for name, piece in self.occupied().items()
                     if piece == Piece(colour, "king")), None)

    def checkers(self, colour: Colour | None = None) -> tuple[str, ...]:
        """The squares of the pieces that give check to `colour`'s king (default: the side
        to move's); none without a king."""
        colour = colour or self.turn
        king = self.king(colour)
        return self.attackers(king, other(colour)) if king else ()

    def in_check(self, colour: Colour | None = None) -> bool:
        """Whether `colour`'s king (default: the side to move's) is attacked."""
        return bool(self.checkers(colour))


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < 8 and 0 <= rank < 8


def _name(file: int, rank: int) -> str:
    return FILES[file] + RANKS[rank]


def board_facts(board: Board) -> list[Fact]:
    """The facts read off a board alone: which side is to move and which piece stands on
    three occupied squares (the first, middle and last, a1 … h8) (identification); how
    many pieces in all, of each colour, and pawns of each colour (quantification);
    whether the side to move is in check and, when one piece gives it, which piece and
    on which square it stands (structural)."""
    counts = board.counts()
    facts = [Fact("identification", "turn", "Which side is to move, white or black?",
                  board.turn)]
    occupied = list(board.occupied().items())
    for square, piece in dict.fromkeys([occupied[0], occupied[len(occupied) // 2],
                                        occupied[-1]] if occupied else []):
        facts.append(Fact("identification", "piece", f"Which piece stands on {square}? "
                          "Answer with its colour and type, e.g. white knight.", piece.name))
    facts.append(Fact("quantification", "pieces", "How many pieces are on the board in all?",
                      counts["pieces"]))
    for colour in COLOURS:
        facts.append(Fact("quantification", f"pieces:{colour}",
                          f"How many {colour} pieces are on the board?", counts[colour]))
        facts.append(Fact("quantification", f"pawns:{colour}",
                          f"How many {colour} pawns are on the board?",
                          counts[f"{colour}_pawns"]))
    checkers = board.checkers()
    facts.append(Fact("structural", "check", f"Is {board.turn}'s king in check?",
                      bool(checkers)))
    checker = board.at(checkers[0]) if len(checkers) == 1 else None
    if checker is not None:
        side = board.turn.capitalize()
        facts.append(Fact("structural", "checker", f"{side}'s king is in check: which piece "
                          "gives check? Answer with its colour and type, e.g. white knight.",
                          checker.name))
        facts.append(Fact("structural", "checker_square", f"{side}'s king is in check: on "
                          "which square stands the piece that gives check?", checkers[0]))
    return facts
