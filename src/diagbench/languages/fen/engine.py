"""The `board` engine: a FEN position drawn as a chess diagram by diagbench's own SVG
writer, rasterised to PNG by rsvg-convert (librsvg, run as a separate program).

Why a writer of our own: the board drawing of Python's chess library (python-chess's
`chess.svg`) is GPL, and no maintained, permissively licensed board drawer exists; a
board is 64 squares, two rows of coordinates and Unicode chess glyphs, drawn here from
the reader's model (`diagbench.diagram.chess.Board`). White is at the bottom; files
a–h are written under the board, ranks 1–8 on its left, and "White to move" (or
"Black …") under it. Pieces are DejaVu Sans's chess glyphs in `<text>`: white pieces
the outline glyphs (♔♕♖♗♘♙) over a white filled one, black pieces the filled glyphs
(♚♛♜♝♞♟). Each piece's text carries `class="piece COLOUR TYPE"` and `data-colour`,
`data-piece` and `data-square`, so that `board_statistics` reads the drawing back.
A source in an envelope (`languages.styled`) is drawn in its style: other square
colours (`BOARD_COLOURS`), or the board seen from Black's side (rank 8 at the bottom,
file h on the left, coordinates drawn so; the SVG's `data-bottom` says which side is at
the bottom, for `board_statistics`).

A source is one FEN line; a FEN the reader rejects is not drawn: its first error
(reason, line) is the render's error. The SVG is written in-process; the PNG comes from
rsvg-convert (no shell, in an empty temporary folder, with a time-out), so a render
gives both; the source is refused over `render.result.MAX_SOURCE_BYTES`.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from diagbench.diagram.chess import (
    COLOURS,
    FILES,
    PIECE_TYPES,
    SQUARES,
    Board,
    Piece,
)
from diagbench.languages.fen.read import read_fen
from diagbench.languages.fen.styles import BOARD_COLOURS, FLIPPED, STYLES
from diagbench.languages.styled import opened
from diagbench.render.drawing import DrawingEngine
from diagbench.render.programs import rsvg_version, svg_to_png

#: The drawing's geometry (pixels): a square's side, the margin around the board that
#: holds the coordinates, and the band under it that says who is to move.
SQUARE = 60
MARGIN = 30
CAPTION = 40
WIDTH = 2 * MARGIN + 8 * SQUARE
HEIGHT = 2 * MARGIN + 8 * SQUARE + CAPTION
LIGHT, DARK = "#f0d9b5", "#b58863"
FONT = "DejaVu Sans"
#: The glyph of each piece (Unicode's chess symbols, U+2654 … U+265F).
GLYPHS: dict[Piece, str] = {
    Piece(colour, kind): chr(start + k)
    for colour, start in zip(COLOURS, (0x2654, 0x265A), strict=True)
    for k, kind in enumerate(PIECE_TYPES)
}
_PIECE_OF_GLYPH = {glyph: piece for piece, glyph in GLYPHS.items()}
_SVG = "{http://www.w3.org/2000/svg}"


def board_svg(board: Board, style: str = "") -> str:
    """The board drawn as SVG in `style` (see the module's docstring)."""
    light, dark = BOARD_COLOURS.get(style, (LIGHT, DARK))
    flipped = style == FLIPPED
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" class="chessboard" '
           f'data-bottom="{"black" if flipped else "white"}">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>', '<g class="squares">']
    for k, name in enumerate(SQUARES):
        x, y = _corner(k, flipped)
        shade = "dark" if (k // 8 + k % 8) % 2 == 0 else "light"
        out.append(f'<rect class="square {shade}" data-square="{name}" x="{x}" y="{y}" '
                   f'width="{SQUARE}" height="{SQUARE}" '
                   f'fill="{dark if shade == "dark" else light}"/>')
    out.append(f'</g><g class="coordinates" font-family="{FONT}" font-size="16" '
               'fill="#333333" text-anchor="middle">')
    for k, file in enumerate(FILES):
        x, _ = _corner(k, flipped)
        out.append(f'<text class="file" x="{x + SQUARE // 2}" '
                   f'y="{MARGIN + 8 * SQUARE + 21}">{file}</text>')
    for rank in range(8):
        _, y = _corner(8 * rank, flipped)
        out.append(f'<text class="rank" x="{MARGIN // 2}" '
                   f'y="{y + SQUARE // 2 + 6}">{rank + 1}</text>')
    out.append(f'</g><g class="pieces" font-family="{FONT}" font-size="{SQUARE * 4 // 5}" '
               'text-anchor="middle">')
    for name, piece in board.occupied().items():
        x, y = _corner(SQUARES.index(name), flipped)
        at = f'x="{x + SQUARE // 2}" y="{y + SQUARE * 4 // 5}"'
        if piece.colour == "white":  # the outline glyph over a white filled one
            out.append(f'<text class="backing" {at} fill="#ffffff">'
                       f'{GLYPHS[Piece("black", piece.type)]}</text>')
        out.append(f'<text class="piece {piece.colour} {piece.type}" '
                   f'data-colour="{piece.colour}" data-piece="{piece.type}" '
                   f'data-square="{name}" {at} fill="#000000">{GLYPHS[piece]}</text>')
    out.append(f'</g><text class="turn" data-turn="{board.turn}" x="{WIDTH // 2}" '
               f'y="{HEIGHT - CAPTION // 2}" font-family="{FONT}" font-size="20" '
               f'text-anchor="middle" fill="#000000">{board.turn.capitalize()} to move</text>')
    out.append("</svg>\n")
    return "\n".join(out)


def _corner(index: int, flipped: bool = False) -> tuple[int, int]:
    """The top-left corner of square `index` (a1 = 0) in the drawing (`flipped`: seen
    from Black's side)."""
    column, row = index % 8, 7 - index // 8
    if flipped:
        column, row = 7 - column, 7 - row
    return MARGIN + column * SQUARE, MARGIN + row * SQUARE


def board_statistics(svg: str) -> dict[str, Any]:
    """What a board drawing shows, read back from its SVG: each piece's colour and type
    from its glyph and its square from where the glyph stands (not from the `data-`
    attributes, which are checked against them: `mismatches` counts pieces whose
    attributes say otherwise), on the board seen from the side its `data-bottom`
    names. Counts as `Board.counts()` names them, the `placement`
    (FEN's first field) and the side to move (`turn`) the caption gives."""
    root = ET.fromstring(svg)
    flipped = root.get("data-bottom") == "black"
    board: list[Piece | None] = [None] * 64
    mismatches = 0
    for text in root.iter(f"{_SVG}text"):
        if (text.get("class") or "").split()[:1] != ["piece"]:
            continue
        piece = _PIECE_OF_GLYPH.get(text.text or "")
        file = (float(text.get("x", "-1")) - MARGIN) // SQUARE
        row = (float(text.get("y", "-1")) - MARGIN) // SQUARE
        if piece is None or not (0 <= file < 8 and 0 <= row < 8):
            mismatches += 1
            continue
        if flipped:
            file, row = 7 - file, 7 - row
        square = FILES[int(file)] + str(8 - int(row))
        board[SQUARES.index(square)] = piece
        said = (text.get("data-colour"), text.get("data-piece"), text.get("data-square"))
        mismatches += said != (piece.colour, piece.type, square)
    turn = next((t.get("data-turn") for t in root.iter(f"{_SVG}text")
                 if t.get("class") == "turn"), None)
    drawn = Board(tuple(board), "black" if turn == "black" else "white")
    return {**drawn.counts(), "placement": drawn.placement(), "turn": turn or "",
            "mismatches": mismatches}


def draw_board(source: str, timeout: float) -> dict[str, Any]:
    """{"svg": bytes, "png": bytes} of the one position of `source`, or {"error": the
    reader's first error, "line": its line}."""
    style, source = opened(source, STYLES)
    parsed = read_fen(source)
    if len(parsed) != 1:
        return {"error": f"one board per drawing, not {len(parsed)}", "line": None}
    if parsed[0].errors:
        first = parsed[0].errors[0]
        return {"error": f"FEN not read: {first.reason}", "line": first.line}
    svg = board_svg(parsed[0].diagram, style).encode("utf-8")
    return {"svg": svg, "png": svg_to_png(svg, timeout)}


class BoardEngine(DrawingEngine):
    """Draw FEN positions as boards (SVG here, PNG by rsvg-convert), `jobs` at a time."""

    name = "board"
    drawer = "diagbench.languages.fen.engine:draw_board"
    programs = True

    def version(self) -> str:
        return f"diagbench board SVG + rsvg-convert {rsvg_version()}"
