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

A source is one FEN line; a FEN the reader rejects is not drawn: its first error
(reason, line) is the render's error. The SVG is written in-process; the PNG comes from
rsvg-convert (no shell, in an empty temporary folder, with a time-out), so a render
gives both; the source is refused over `render.result.MAX_SOURCE_BYTES`.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import time
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

from diagbench.diagram.chess import (
    COLOURS,
    FILES,
    PIECE_TYPES,
    SQUARES,
    Board,
    Piece,
)
from diagbench.formats.chess.fen import read_fen
from diagbench.render.result import EngineMissing, RenderResult, finish, refusal

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


@cache
def rsvg_path() -> str:
    path = shutil.which("rsvg-convert")
    if path is None:
        raise EngineMissing("rsvg-convert not found: install librsvg2-bin "
                            "(scripts/setup.sh does it)")
    return path


@cache
def rsvg_version() -> str:
    done = subprocess.run([rsvg_path(), "--version"], capture_output=True, text=True,
                          check=False, timeout=30)
    m = re.search(r"version (\S+)", done.stdout)
    return m.group(1) if m else "unknown"


def board_svg(board: Board) -> str:
    """The board drawn as SVG (see the module's docstring)."""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" class="chessboard">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>', '<g class="squares">']
    for k, name in enumerate(SQUARES):
        x, y = _corner(k)
        shade = "dark" if (k // 8 + k % 8) % 2 == 0 else "light"
        out.append(f'<rect class="square {shade}" data-square="{name}" x="{x}" y="{y}" '
                   f'width="{SQUARE}" height="{SQUARE}" '
                   f'fill="{DARK if shade == "dark" else LIGHT}"/>')
    out.append(f'</g><g class="coordinates" font-family="{FONT}" font-size="16" '
               'fill="#333333" text-anchor="middle">')
    for k, file in enumerate(FILES):
        out.append(f'<text class="file" x="{MARGIN + k * SQUARE + SQUARE // 2}" '
                   f'y="{MARGIN + 8 * SQUARE + 21}">{file}</text>')
    for rank in range(8):
        out.append(f'<text class="rank" x="{MARGIN // 2}" '
                   f'y="{MARGIN + (7 - rank) * SQUARE + SQUARE // 2 + 6}">{rank + 1}</text>')
    out.append(f'</g><g class="pieces" font-family="{FONT}" font-size="{SQUARE * 4 // 5}" '
               'text-anchor="middle">')
    for name, piece in board.occupied().items():
        x, y = _corner(SQUARES.index(name))
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


def _corner(index: int) -> tuple[int, int]:
    """The top-left corner of square `index` (a1 = 0) in the drawing."""
    return MARGIN + (index % 8) * SQUARE, MARGIN + (7 - index // 8) * SQUARE


def board_statistics(svg: str) -> dict[str, Any]:
    """What a board drawing shows, read back from its SVG: each piece's colour and type
    from its glyph and its square from where the glyph stands (not from the `data-`
    attributes, which are checked against them: `mismatches` counts pieces whose
    attributes say otherwise). Counts as `Board.counts()` names them, the `placement`
    (FEN's first field) and the side to move (`turn`) the caption gives."""
    root = ET.fromstring(svg)
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
        square = FILES[int(file)] + str(8 - int(row))
        board[SQUARES.index(square)] = piece
        said = (text.get("data-colour"), text.get("data-piece"), text.get("data-square"))
        mismatches += said != (piece.colour, piece.type, square)
    turn = next((t.get("data-turn") for t in root.iter(f"{_SVG}text")
                 if t.get("class") == "turn"), None)
    drawn = Board(tuple(board), "black" if turn == "black" else "white")
    return {**drawn.counts(), "placement": drawn.placement(), "turn": turn or "",
            "mismatches": mismatches}


class BoardEngine:
    """Draw FEN positions as boards (SVG here, PNG by rsvg-convert), `jobs` at a time."""

    name = "board"

    def __init__(self, jobs: int = 2, timeout: float = 20.0) -> None:
        self.jobs = jobs
        self.timeout = timeout

    def version(self) -> str:
        return f"diagbench board SVG + rsvg-convert {rsvg_version()}"

    def render(self, sources: list[str], out_dir: Path, fmt: str = "png",
               progress=lambda: None) -> list[RenderResult]:
        with tempfile.TemporaryDirectory(prefix="diagbench-board-") as jail:
            def work(k: int) -> RenderResult:
                result = self._one(k, sources[k], fmt, out_dir, jail)
                progress()
                return result

            with ThreadPoolExecutor(max_workers=max(1, self.jobs)) as pool:
                return list(pool.map(work, range(len(sources))))

    def _one(self, k: int, source: str, fmt: str, out_dir: Path, jail: str) -> RenderResult:
        result = RenderResult(k, self.name, self.version())
        start = time.perf_counter()
        result.error = refusal(source)
        parsed = read_fen(source) if result.error is None else []
        if result.error is None and len(parsed) != 1:
            result.error = f"one board per drawing, not {len(parsed)}"
        elif result.error is None and parsed[0].errors:
            first = parsed[0].errors[0]
            result.error, result.error_line = f"FEN not read: {first.reason}", first.line
        if result.error is None:
            svg = board_svg(parsed[0].diagram).encode("utf-8")
            png = self._png(svg, jail, result)
            if png is not None:
                other = "png" if fmt == "svg" else "svg"
                finish(result, svg if fmt == "svg" else png, fmt, out_dir / f"{k:06d}.{fmt}")
                if result.ok:
                    (out_dir / f"{k:06d}.{other}").write_bytes(png if fmt == "svg" else svg)
        result.seconds = time.perf_counter() - start
        return result

    def _png(self, svg: bytes, jail: str, result: RenderResult) -> bytes | None:
        """The PNG rsvg-convert makes of `svg`, or None with the error in `result`."""
        try:
            done = subprocess.run([rsvg_path(), "--format=png"], input=svg, capture_output=True,
                                  cwd=jail, env={"PATH": "/usr/bin:/bin", "HOME": jail},
                                  timeout=self.timeout, check=False)
        except subprocess.TimeoutExpired:
            result.error = f"rsvg-convert timed out after {self.timeout:g} s"
            return None
        if done.returncode or not done.stdout:
            message = done.stderr.decode("utf-8", "replace").strip()
            result.error = message.splitlines()[0] if message else f"exit {done.returncode}"
            return None
        return done.stdout
