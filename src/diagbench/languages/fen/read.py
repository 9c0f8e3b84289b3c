"""FEN (Forsyth–Edwards Notation), read strictly into the board model
(`diagbench.diagram.chess.Board`): one position per non-blank line, each one `Parsed`
(`index` its position among the boards, `first_line` its line).

Why a reader of our own: the maintained FEN reader of Python, python-chess, is GPL
(diagbench imports only Apache-compatible libraries), and no permissively licensed,
maintained FEN library exists. FEN's grammar is six fields over a dozen letters
(PGN standard, §16.1), so it is read here character by character, each character
checked against what the grammar allows at that point — not with regular expressions,
which would say *that* a line is wrong but not where and why.

The fields, separated by spaces or tabs:
1. placement: ranks 8 … 1 separated by `/`, each exactly 8 files, a file a piece
   letter (KQRBNP white, kqrbnp black) or a run of empty squares as one digit 1–8
   (two digits in a row are an error);
2. side to move: `w` or `b`;
3. castling: `-`, or some of `KQkq` in that order, each at most once (X-FEN's file
   letters are not read);
4. en passant target: `-`, or a square on rank 6 when white moves (3 when black does);
5. halfmove clock: a whole number ≥ 0; 6. fullmove number: a whole number ≥ 1.

A line of the first four fields only is read too, with the clocks 0 and 1, and so is an
EPD line (test suites and puzzle sets write positions so): the four fields, then
operations `opcode operand …;` (`bm Qd1+; id "BK.01";`), checked for their form and not
read. Any other number of fields is an error.

Legality, each an error at the line (and the column of the piece, where one is to
blame): exactly one king per colour; no pawn on rank 1 or 8; at most 8 pawns and 16
pieces per colour, and no more promoted pieces than missing pawns; a castling right
needs its king and rook on their first squares; an en passant square needs the pawn
that just passed it, the square and the one behind empty, and any check on the side to
move given or uncovered by that double step (Stockfish 15.1 crashes on such a position
otherwise: found by the differential tests); the side *not* to move is
not in check, and the side to move is checked by two pieces at most. A line with a
grammar error gives an empty board; a legality error keeps the board as read.
`read_fen(text)` never raises.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from diagbench.diagram.chess import (
    COLOURS,
    FILES,
    PIECE_TYPES,
    Board,
    Colour,
    Piece,
    other,
    square_index,
)
from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.parsed import Parsed

#: The longest line read (a FEN is at most about 90 characters).
MAX_LINE_CHARS = 200
_BLANKS = " \t"
_PIECE_LETTERS = "KQRBNPkqrbnp"
#: Where a castling right needs its king and rook: right → (king, rook) squares.
CASTLING = {"K": ("e1", "h1"), "Q": ("e1", "a1"), "k": ("e8", "h8"), "q": ("e8", "a8")}
#: How many pieces of each type a side starts with.
_START = {"king": 1, "queen": 1, "rook": 2, "bishop": 2, "knight": 2, "pawn": 8}


class FenError(Exception):
    """A grammar error at a 1-based column of the line."""

    def __init__(self, column: int, reason: str) -> None:
        super().__init__(reason)
        self.column, self.reason = column, reason


@dataclass(frozen=True, slots=True)
class _Field:
    text: str
    column: int  # 1-based column of its first character


def records(text: str) -> list[tuple[int, str]]:
    """(1-based line number, line) of each non-blank line (a lone carriage return ends a
    line too)."""
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return [(n, line) for n, line in enumerate(lines, 1) if line.strip(_BLANKS)]


def record_texts(text: str) -> list[tuple[int, str]]:
    """(line number, text) of each position of a FEN text, drawn one at a time."""
    return [(n, line + "\n") for n, line in records(text)]


def read_fen(text: str) -> list[Parsed[Board]]:
    """Every position of a FEN text, one `Parsed` each, with diagnostics."""
    found = records(text)
    if not found:
        return [Parsed(0, 1, "fen", "board", Board(),
                       (Diagnostic(1, "", "no FEN in the source"),))]
    out: list[Parsed[Board]] = []
    for index, (number, line) in enumerate(found):
        board, problems = parse_line(line)
        diagnostics = tuple(Diagnostic(number, line, reason, column=column)
                            for column, reason in problems)
        out.append(Parsed(index, number, "fen", "board", board, diagnostics))
    return out


def parse_line(line: str) -> tuple[Board, list[tuple[int, str]]]:
    """(board, [(column, reason)] of its errors) of one FEN line."""
    if len(line) > MAX_LINE_CHARS:
        return Board(), [(1, f"a line of {len(line):,} characters is not a FEN "
                             f"(at most {MAX_LINE_CHARS})")]
    try:
        fields = _fields(line)
        board, columns = _grammar(fields)
    except FenError as exc:
        return Board(), [(exc.column, exc.reason)]
    return board, _legality(board, columns, fields)


def _fields(line: str) -> list[_Field]:
    """The blank-separated fields of a line, with their columns: six, or the first four
    (an EPD line's operations after them — from a letter on, with a `;` — checked by
    `_operations` and left out)."""
    fields: list[_Field] = []
    start = None
    for k, char in enumerate(line + " "):
        if char in _BLANKS:
            if start is not None:
                fields.append(_Field(line[start:k], start + 1))
            start = None
        elif start is None:
            start = k
        if len(fields) == 4 and start is not None and char.isalpha() and ";" in line[k:]:
            _operations(line, start)  # EPD: `opcode operand …;` after the position
            return fields
    if len(fields) not in (4, 6):
        column = fields[6].column if len(fields) > 6 else len(line.rstrip(_BLANKS)) + 1
        count = f"{len(fields)} field" + ("" if len(fields) == 1 else "s")
        raise FenError(column, f"{count}: a FEN has 6 (placement, side to "
                       "move, castling, en passant, halfmove clock, fullmove number), "
                       "or the first 4 (with EPD's operations after them)")
    return fields


def _operations(line: str, start: int) -> None:
    """Check EPD's operations from `start` (0-based) on: each an opcode (a letter, then
    letters, digits or `_`), operands, `;`; a quoted operand may hold anything but `"`."""
    k, opcode = start, True
    while k < len(line):
        char = line[k]
        if char in _BLANKS:
            k += 1
        elif char == ";":
            k, opcode = k + 1, True
        elif char == '"':
            end = line.find('"', k + 1)
            if end < 0:
                raise FenError(k + 1, "an EPD operand's quote is never closed")
            k, opcode = end + 1, False
        else:
            if opcode and not char.isalpha():
                raise FenError(k + 1, f"an EPD opcode starts with a letter, not {char!r}")
            while k < len(line) and line[k] not in _BLANKS + ';"':
                k += 1
            opcode = False
    if not opcode:
        raise FenError(len(line.rstrip(_BLANKS)) + 1, "an EPD operation ends with ';'")


def _grammar(fields: list[_Field]) -> tuple[Board, dict[str, int]]:
    """The board the fields write, and the column of each piece's letter."""
    squares, columns = _placement(fields[0])
    turn = _turn(fields[1])
    castling = _castling(fields[2])
    en_passant = _en_passant(fields[3], turn)
    halfmove = _number(fields[4], "halfmove clock", 0) if len(fields) == 6 else 0
    fullmove = _number(fields[5], "fullmove number", 1) if len(fields) == 6 else 1
    return Board(tuple(squares), turn, castling, en_passant, halfmove, fullmove), columns


def _placement(field: _Field) -> tuple[list[Piece | None], dict[str, int]]:
    squares: list[Piece | None] = [None] * 64
    columns: dict[str, int] = {}
    rank, file, previous = 8, 0, ""
    for k, char in enumerate(field.text + "/"):
        column = field.column + k
        if char == "/":
            if file != 8:
                raise FenError(column, f"rank {rank} has {file} files, not 8")
            if rank == 1 and k < len(field.text):
                raise FenError(column, "more than 8 ranks")
            rank, file = rank - 1, 0
        elif char in "12345678":
            if previous.isdigit():
                raise FenError(column, f"two digits in a row ({previous}{char}): a run of "
                               "empty squares is one digit")
            file += int(char)
        elif char in _PIECE_LETTERS:
            if file < 8:
                square = FILES[file] + str(rank)
                squares[square_index(square)] = Piece.from_letter(char)
                columns[square] = column
            file += 1
        else:
            raise FenError(column, f"{char!r} in the placement: a piece letter (KQRBNP, "
                           "kqrbnp), a digit 1-8 or '/' expected")
        previous = char
    if rank != 0:
        raise FenError(field.column + len(field.text),
                       f"the placement has {8 - rank} ranks, not 8")
    return squares, columns


def _turn(field: _Field) -> Colour:
    if field.text == "w":
        return "white"
    if field.text == "b":
        return "black"
    raise FenError(field.column, f"side to move {field.text!r}: 'w' or 'b' expected")


def _castling(field: _Field) -> str:
    if field.text == "-":
        return "-"
    order = "KQkq"
    last = -1
    for k, char in enumerate(field.text):
        if char not in order:
            raise FenError(field.column + k, f"{char!r} in the castling rights: some of "
                           "K, Q, k, q (in that order) or '-' expected")
        if order.index(char) <= last:
            raise FenError(field.column + k, f"castling right {char!r} repeated or out of "
                           "order: K, Q, k, q expected in that order")
        last = order.index(char)
    return field.text


def _en_passant(field: _Field, turn: Colour) -> str | None:
    if field.text == "-":
        return None
    rank = "6" if turn == "white" else "3"
    text = field.text
    if len(text) != 2 or text[0] not in FILES or text[1] not in "12345678":
        raise FenError(field.column, f"en passant target {text!r}: a square (a3 … h6) or "
                       "'-' expected")
    if text[1] != rank:
        raise FenError(field.column + 1, f"en passant target {text} with {turn} to move: "
                       f"it is on rank {rank}")
    return text


def _number(field: _Field, what: str, least: int) -> int:
    for k, char in enumerate(field.text):
        if char not in "0123456789":
            raise FenError(field.column + k, f"{char!r} in the {what}: a whole number "
                           "expected")
    value = int(field.text)
    if value < least:
        raise FenError(field.column, f"{what} {value}: at least {least}")
    return value


def _legality(board: Board, columns: dict[str, int],
              fields: list[_Field]) -> list[tuple[int, str]]:
    """(column, reason) of each rule of a legal position the board breaks: at the column
    of the piece or field to blame, else at the placement's."""
    first = fields[0].column
    problems = _material(board, columns, first)
    for square, piece in board.occupied().items():
        if piece.type == "pawn" and square[1] in "18":
            problems.append((columns[square], f"{piece.name} on {square}: no pawn stands on "
                             f"rank {square[1]}"))
    for k, right in enumerate(board.castling.strip("-")):
        side: Colour = "white" if right.isupper() else "black"
        king, rook = CASTLING[right]
        for square, piece in ((king, Piece(side, "king")), (rook, Piece(side, "rook"))):
            if board.at(square) != piece:
                problems.append((fields[2].column + k, f"castling right {right!r} but no "
                                 f"{piece.name} on {square}"))
    if board.en_passant:
        problems += _en_passant_legality(board, fields[3].column)
    if all(board.occupied_by(Piece(c, "king")) == 1 for c in COLOURS):
        waiting = other(board.turn)
        waiting_king = board.king(waiting)
        if waiting_king and board.in_check(waiting):
            problems.append((columns[waiting_king],
                             f"{waiting} is in check with {board.turn} to move"))
        checkers = board.checkers()
        if len(checkers) > 2:
            problems.append((first, f"{board.turn} is in check from {len(checkers)} pieces "
                             f"({', '.join(checkers)}): at most 2 in a game"))
    return problems


def _material(board: Board, columns: dict[str, int], first: int) -> list[tuple[int, str]]:
    """One king per colour; at most 8 pawns and 16 pieces, and no more pieces beyond the
    starting set than pawns missing (each could have promoted)."""
    problems = []
    for colour in COLOURS:
        kings = [s for s, p in board.occupied().items() if p == Piece(colour, "king")]
        if not kings:
            problems.append((first, f"no {colour} king"))
        elif len(kings) > 1:
            problems.append((columns[kings[1]], f"{len(kings)} {colour} kings (one expected)"))
        counts = Counter(p.type for p in board.occupied().values() if p.colour == colour)
        promoted = sum(max(0, counts[t] - _START[t]) for t in PIECE_TYPES
                       if t not in ("king", "pawn"))
        if counts["pawn"] > 8:
            problems.append((first, f"{counts['pawn']} {colour} pawns (at most 8)"))
        elif sum(counts.values()) > 16:
            problems.append((first, f"{sum(counts.values())} {colour} pieces (at most 16)"))
        elif promoted > 8 - counts["pawn"]:
            problems.append((first, f"{promoted} {colour} pieces beyond the starting set "
                             f"but only {8 - counts['pawn']} pawns missing to promote"))
    return problems


def _en_passant_legality(board: Board, column: int) -> list[tuple[int, str]]:
    """An en passant target needs the pawn that passed it in front, and itself and the
    square it came from empty."""
    assert board.en_passant is not None
    square = board.en_passant
    mover = other(board.turn)
    forward = 1 if mover == "white" else -1  # the direction the pawn moved in
    front = square[0] + str(int(square[1]) + forward)
    behind = square[0] + str(int(square[1]) - forward)
    problems = []
    if board.at(front) != Piece(mover, "pawn"):
        problems.append((column, f"en passant target {square} but no {mover} pawn on {front}"))
    for empty in (square, behind):
        if board.at(empty) is not None:
            problems.append((column, f"en passant target {square} but {empty} is occupied"))
    for checker in board.checkers():
        if checker != front and not _between(behind, checker, board.king(board.turn) or ""):
            problems.append((column, f"en passant target {square} but {board.turn} is in "
                             f"check from {checker}, which the double step {behind}-{front} "
                             "could neither give nor uncover"))
    return problems


def _between(square: str, start: str, end: str) -> bool:
    """Whether `square` lies strictly between `start` and `end` on a rank, file or
    diagonal."""
    def xy(name: str) -> tuple[int, int]:
        return FILES.index(name[0]), int(name[1])

    (x, y), (x0, y0), (x1, y1) = xy(square), xy(start), xy(end)
    dx, dy = x1 - x0, y1 - y0
    if (dx and dy and abs(dx) != abs(dy)) or not (dx or dy):
        return False
    steps = max(abs(dx), abs(dy))
    return any((x0 + k * dx // steps, y0 + k * dy // steps) == (x, y) for k in range(1, steps))

