"""FEN: chess positions (STRUDEL's games-and-music domain, "chess board"), one a line,
read by diagbench's own strict reader (`formats/chess/fen.py` says why) and drawn as a
board by diagbench's SVG writer, rasterised by rsvg-convert (the `board` engine)."""

from __future__ import annotations

from diagbench.languages.record import Language

_PLACEMENT = frozenset("KQRBNPkqrbnp12345678/")


def recognises(text: str) -> bool:
    """A FEN source is one position a line: each line's first word is a placement of
    eight ranks (seven `/`), written in piece letters and digits, with both kings."""
    words = [line.split()[0] for line in text.removeprefix("\ufeff").splitlines()
             if line.strip()]
    return bool(words) and all(w.count("/") == 7 and set(w) <= _PLACEMENT
                               and "K" in w and "k" in w for w in words)


LANGUAGE = Language(
    doc=__doc__ or "",
    name="fen",
    title="FEN",
    suffixes=(".fen", ".epd"),
    domain="games-music",
    categories=("chess-board",),
    kinds=("board",),
    reader="diagbench.formats.chess.fen:read_fen",
    engine="board",
    statistics="diagbench.render.chessboard:board_statistics",
    similarity="diagbench.compare.chessboard:compare_boards",
    synth="diagbench.formats.chess.synth:synth_fen",
    facts="diagbench.formats.chess.facts:chess_facts",
    examples=("chess-board.fen",),
    recognises=recognises,
    node_limits=(2, 32),
    size="pieces",
)
