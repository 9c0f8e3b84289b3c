"""FEN: chess positions (STRUDEL's games-and-music domain, "chess board"), one a line,
read by diagbench's own strict reader (`formats/chess/fen.py` says why) and drawn as a
board by diagbench's SVG writer, rasterised by rsvg-convert (the `board` engine). Its
styles are the board's: green or blue squares, and the board seen from Black's side
(coordinates drawn with it, so every square keeps its name)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from diagbench.languages.fen.styles import STYLES
from diagbench.languages.record import Drawn, Language, expect
from diagbench.languages.styled import DrawerStyles

if TYPE_CHECKING:
    from diagbench.compare.scored import Scored
    from diagbench.diagram.facts import Fact
    from diagbench.formats.parsed import Diagram, Parsed
    from diagbench.render.engines import Engine

_PLACEMENT = frozenset("KQRBNPkqrbnp12345678/")


def recognises(text: str) -> bool:
    """A FEN source is one position a line: each line's first word is a placement of
    eight ranks (seven `/`), written in piece letters and digits, with both kings."""
    words = [line.split()[0] for line in text.removeprefix("\ufeff").splitlines()
             if line.strip()]
    return bool(words) and all(w.count("/") == 7 and set(w) <= _PLACEMENT
                               and "K" in w and "k" in w for w in words)


class Fen(DrawerStyles, Language):
    """FEN as a `Language`: its parts, each importing what it uses when first called."""

    DRAWER_STYLES = STYLES

    def recognises(self, text: str) -> bool:
        return recognises(text)

    def records(self, text: str) -> list[tuple[int, str]]:
        from diagbench.languages.fen.read import record_texts

        return record_texts(text)

    def make_engine(self, jobs: int = 2, timeout: float = 20.0) -> Engine:
        from diagbench.languages.fen.engine import BoardEngine

        return BoardEngine(jobs=jobs, timeout=timeout)

    def read(self, text: str) -> Sequence[Parsed[Diagram]]:
        from diagbench.languages.fen.read import read_fen

        return read_fen(text)

    def drawn(self, kind: str, svg: str) -> Drawn:
        from diagbench.languages.fen.engine import board_statistics

        return Drawn(board_statistics(svg))

    def compare(self, gold: Parsed[Diagram], pred: Parsed[Diagram] | None,
                valid: bool) -> Scored:
        from diagbench.languages.fen.similarity import compare_boards

        return compare_boards(gold, pred, valid)

    def facts(self, diagram: Diagram) -> list[Fact]:
        from diagbench.diagram.chess import Board
        from diagbench.languages.fen.facts import chess_facts

        return chess_facts(expect(diagram, Board))

    def facts_ahead(self, diagrams: Sequence[Diagram]) -> None:
        """Stockfish's searches for the boards' best moves, two at a time."""
        from diagbench.diagram.chess import Board
        from diagbench.languages.fen.facts import search_ahead

        search_ahead([expect(d, Board) for d in diagrams])

    def release(self) -> None:
        """End the idle Stockfish processes (the searches' answers stay kept)."""
        from diagbench.languages.fen.uci import end_idle

        end_idle()

    def generate(self, rng: random.Random, complexity: str) -> str:
        from diagbench.languages.fen.synth import synth_fen

        return synth_fen(rng, complexity)

    def edit(self, code: str, rng: random.Random) -> str | None:
        """One piece that is not a king taken off the first board (the first, in `rng`'s
        order, whose removal leaves a legal position, castling and en passant dropped)."""
        from dataclasses import replace

        from diagbench.diagram.chess import Board

        read = self.read(code)
        board = read[0].diagram if read and not read[0].errors else None
        if not isinstance(board, Board):
            return None
        squares = [k for k, piece in enumerate(board.squares)
                   if piece is not None and piece.type != "king"]
        rng.shuffle(squares)
        for k in squares:
            changed = replace(board, squares=(*board.squares[:k], None, *board.squares[k + 1:]),
                              castling="-", en_passant=None).fen()
            if not any(p.diagnostics for p in self.read(changed)):
                return changed + "\n"
        return None

    def rewrite(self, code: str, rng: random.Random) -> str | None:
        """The first board with other move counters (`rng`'s: a halfmove clock of 0 … 40,
        0 after a double step, and a fullmove number of 1 … 80), which are not drawn."""
        from dataclasses import replace

        from diagbench.diagram.chess import Board

        read = self.read(code)
        board = read[0].diagram if read and not read[0].errors else None
        if not isinstance(board, Board):
            return None
        halfmove = 0 if board.en_passant else rng.randint(0, 40)
        counters = (halfmove, rng.randint(1, 80))
        if counters == (board.halfmove, board.fullmove):
            counters = (halfmove, board.fullmove % 80 + 1)
        return replace(board, halfmove=counters[0], fullmove=counters[1]).fen() + "\n"


LANGUAGE = Fen(
    doc=__doc__ or "",
    name="fen",
    title="FEN",
    suffixes=(".fen", ".epd"),
    domain="games-music",
    categories=("chess-board",),
    kinds=("board",),
    engine="board",
    examples=("chess-board.fen",),
    node_limits=(2, 32),
    size="pieces",
)
