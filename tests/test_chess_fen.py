"""FEN (STRUDEL's chess boards): the strict reader and its diagnostics, the board model
and its attacks, the `board` engine and what its SVG shows, the generator, the facts and
the board similarity on hand-worked positions."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from diagbench.diagram.chess import Board, Piece, board_facts
from diagbench.languages import detect, named
from diagbench.languages.fen import facts as facts_module
from diagbench.languages.fen.engine import BoardEngine, board_statistics, board_svg
from diagbench.languages.fen.facts import unique_best
from diagbench.languages.fen.read import read_fen
from diagbench.languages.fen.synth import SIZES, synth_fen
from diagbench.languages.fen.uci import Line

FEN = named("fen")
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def _read(text: str):
    [parsed] = read_fen(text)
    return parsed


def _reasons(text: str) -> list[tuple[int, str]]:
    return [(d.column, d.reason) for d in _read(text).errors]


# --- the reader -------------------------------------------------------------------------

def test_reader_reads_the_six_fields():
    p = _read("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
    assert p.errors == () and p.kind == "board" and p.language == "fen"
    board = p.diagram
    assert board.at("e4") == Piece("white", "pawn") and board.at("e2") is None
    assert board.at("a8") == Piece("black", "rook") and board.at("d1") == Piece("white", "queen")
    assert (board.turn, board.castling, board.en_passant, board.halfmove, board.fullmove) == \
        ("black", "KQkq", "e3", 0, 1)
    assert board.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"


def test_an_epd_line_is_its_position_with_the_operations_left_out():
    # Bratko-Kopec's first test position, as EPD test suites write it
    p = _read('1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id "BK.01";')
    assert p.errors == () and p.diagram.turn == "black" and p.counts()["pieces"] == 17
    assert p.diagram.at("d6") == Piece("black", "queen")
    assert (p.diagram.halfmove, p.diagram.fullmove) == (0, 1)


def test_counts_by_colour_and_type():
    counts = _read(START).counts()
    assert counts["pieces"] == 32 and counts["white"] == counts["black"] == 16
    assert counts["pawns"] == 16 and counts["kings"] == 2 and counts["queens"] == 2
    assert counts["white_knights"] == 2 and counts["black_bishops"] == 2


def test_one_board_a_line_blank_lines_skipped_and_four_fields_read():
    parsed = read_fen(f"{START}\n\n4k3/8/8/8/8/8/8/4K2R w K -\r\n")
    assert [(p.index, p.first_line) for p in parsed] == [(0, 1), (1, 3)]
    second = parsed[1]
    assert second.errors == () and second.diagram.castling == "K"
    assert (second.diagram.halfmove, second.diagram.fullmove) == (0, 1)


@pytest.mark.parametrize(("text", "column", "reason"), [
    ("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 19,
     "rank 7 has 9 files, not 8"),
    ("rnbqkbnr/pppppppp/8/8/8/7/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 26,
     "rank 3 has 7 files, not 8"),
    ("rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 20,
     "two digits in a row (44): a run of empty squares is one digit"),
    ("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 42,
     "the placement has 7 ranks, not 8"),
    ("rnbqkbnr/pppxpppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 13,
     "'x' in the placement: a piece letter (KQRBNP, kqrbnp), a digit 1-8 or '/' expected"),
    (START.replace(" w ", " x "), 45, "side to move 'x': 'w' or 'b' expected"),
    (START.replace("KQkq", "KkQ"), 49,
     "castling right 'Q' repeated or out of order: K, Q, k, q expected in that order"),
    (START.replace(" - ", " e3 "), 53, "en passant target e3 with white to move: it is on "
     "rank 6"),
    (START.replace(" 0 1", " 0 0"), 56, "fullmove number 0: at least 1"),
    (START.replace(" 0 1", " x 1"), 54, "'x' in the halfmove clock: a whole number expected"),
    (START.rsplit(" ", 1)[0], 55, "5 fields: a FEN has 6 (placement, side to move, "
     "castling, en passant, halfmove clock, fullmove number), or the first 4 (with EPD's "
     "operations after them)"),
    # EPD's operations after the four fields: each ends with ';', quotes are closed
    (START.rsplit(" ", 2)[0] + ' bm e4; id "open', 64, "an EPD operand's quote is never "
     "closed"),
    (START.rsplit(" ", 2)[0] + " bm e4; 1x;", 61, "an EPD opcode starts with a letter, "
     "not '1'"),
])
def test_grammar_errors_name_the_column_and_why(text, column, reason):
    p = _read(text)
    assert [(d.line, d.column, d.reason) for d in p.errors] == [(1, column, reason)]
    assert p.diagram.counts()["pieces"] == 0  # a line that does not parse: an empty board


@pytest.mark.parametrize(("text", "reasons"), [
    ("8/8/8/8/8/8/8/4K3 w - - 0 1", [(1, "no black king")]),
    ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", [(19, "2 white kings (one expected)")]),
    # a second king is not also counted as a promoted piece (eight pawns: none promoted)
    ("k7/8/8/8/8/8/PPPPPPPP/RNBQKBKR w - - 0 1", [(29, "2 white kings (one expected)")]),
    ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", [(17, "white pawn on a1: no pawn stands on rank 1")]),
    ("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", [(2, "black is in check with white to move")]),
    ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", [(23, "castling right 'K' but no white rook on h1")]),
    ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", [(25, "en passant target e6 but no black pawn on e5")]),
    ("1k6/8/8/4p3/8/8/8/4K3 b - - 0 1", []),
    # an en passant target and a check: the double step c7-c5 gives it (the pawn on c5
    # attacks d4) or uncovers it (the bishop on b8 through c7) — else it is impossible
    # (found by the differential tests: Stockfish 15.1 crashes on the third)
    ("4k3/8/8/2p5/3K4/8/8/8 w - c6 0 1", []),
    ("1b2k3/8/8/2p1K3/8/8/8/8 w - c6 0 1", []),
    ("n3k3/4p3/3K2P1/1Pp3N1/1r6/6P1/3P1b1Q/8 w - c6 0 46",
     [(44, "en passant target c6 but white is in check from e7, which the double step "
           "c7-c5 could neither give nor uncover")]),
    ("k7/8/8/8/8/8/PPPPPPPP/QQQQK3 w - - 0 1",
     [(1, "3 white pieces beyond the starting set but only 0 pawns missing to promote")]),
    ("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", []),  # black in check from one queen: legal
    ("k7/8/1N6/8/8/8/8/R3K2B b - - 0 1",
     [(1, "black is in check from 3 pieces (a1, h1, b6): at most 2 in a game")]),
])
def test_legality_errors(text, reasons):
    assert _reasons(text) == reasons


def test_reader_never_raises_on_hostile_lines():
    for text in ("", "\x00", "/" * 300, "8/8/8/8/8/8/8/8", "K" * 70, "🙂 w - - 0 1",
                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra"):
        for p in read_fen(text):
            assert all(d.line >= 1 and d.reason for d in p.diagnostics)
    assert _read("").errors[0].reason == "no FEN in the source"


# --- the model: attacks from the rules ----------------------------------------------------

def test_attacks_of_each_piece_type():
    board = _read("4k3/8/8/3p4/2B5/8/1P6/N3K2R w K - 0 1").diagram
    # the bishop on c4 runs to d5 (a black pawn: stops there) and to the edges otherwise
    assert board.attacks("c4") == {"b5", "a6", "d5", "b3", "a2", "d3", "e2", "f1"}
    assert board.attacks("a1") == {"b3", "c2"}  # knight
    assert board.attacks("b2") == {"a3", "c3"}  # white pawn: diagonally ahead
    assert board.attacks("d5") == {"c4", "e4"}  # black pawn: diagonally down the board
    # a line stops at the first piece, own or not: the rook on h1 defends its king on e1
    assert board.attacks("h1") == {"g1", "f1", "e1", "h2", "h3", "h4", "h5", "h6", "h7", "h8"}
    assert board.attacks("e1") == {"d1", "f1", "d2", "e2", "f2"}
    assert board.attacks("e5") == frozenset()  # an empty square attacks nothing


def test_board_writes_its_placement_and_has_64_squares():
    squares = [None] * 64
    squares[4], squares[60], squares[12] = Piece("white", "king"), Piece("black", "king"), \
        Piece("white", "pawn")  # e1, e8, e2
    board = Board(tuple(squares), "black")
    assert board.placement() == "4k3/8/8/8/8/8/4P3/4K3"
    assert board.fen() == "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"
    assert board.king("black") == "e8" and board.occupied_by(Piece("white", "pawn")) == 1
    with pytest.raises(ValueError, match="64 squares"):
        Board((None,) * 63)


def test_check_and_checkers():
    board = _read("4k3/8/8/1B6/8/8/8/4K3 b - - 0 1").diagram
    assert board.in_check() and board.checkers() == ("b5",)
    assert not board.in_check("white")
    blocked = _read("4k3/8/2n5/1B6/8/8/8/4K3 b - - 0 1").diagram
    assert not blocked.in_check() and blocked.attackers("c6", "white") == ("b5",)


# --- the engine and what its SVG shows ------------------------------------------------------

def test_svg_read_back_gives_the_placement_and_the_counts():
    board = _read("r3k2r/8/8/8/4P3/8/8/R3K2R b KQkq e3 0 1").diagram
    drawn = board_statistics(board_svg(board))
    assert drawn["placement"] == "r3k2r/8/8/8/4P3/8/8/R3K2R" and drawn["turn"] == "black"
    assert drawn["mismatches"] == 0
    assert {k: drawn[k] for k in board.counts()} == board.counts()


def test_statistics_read_squares_from_where_glyphs_stand():
    board = _read("4k3/8/8/8/8/8/8/4K3 w - - 0 1").diagram
    svg = board_svg(board).replace('data-square="e1"', 'data-square="d1"')
    drawn = board_statistics(svg)
    assert drawn["placement"] == "4k3/8/8/8/8/8/8/4K3" and drawn["mismatches"] == 1


def test_a_file_is_drawn_one_board_a_line():
    assert FEN.split(f"{START}\n\n{START}\r\n") == [(1, START + "\n"),
                                                           (3, START + "\n")]


def test_engine_draws_png_and_svg_and_reports_the_readers_error(tmp_path: Path):
    engine = BoardEngine(jobs=1)
    assert engine.version().startswith("diagbench board SVG + rsvg-convert ")
    ok, bad, two = engine.render([START + "\n", "8/8/8/8/8/8/8/8 w - - 0 1\n",
                                  f"{START}\n{START}\n"], tmp_path, "png")
    assert ok.ok and ok.image is not None and ok.image.read_bytes()[:4] == b"\x89PNG"
    # the SVG was drawn in the same pass: asked for next, it is not drawn again
    [svg] = engine.render([START + "\n"], tmp_path, "svg")
    assert svg.ok and svg.seconds == 0.0 and svg.image is not None
    assert svg.image.read_text(encoding="utf-8").startswith("<svg")
    assert not bad.ok and bad.error == "FEN not read: no white king" and bad.error_line == 1
    assert not two.ok and two.error == "one board per drawing, not 2"


# --- the generator --------------------------------------------------------------------------

@pytest.mark.parametrize("level", ["low", "medium", "high"])
def test_synth_writes_legal_boards_of_each_size(level: str):
    rng = random.Random(7)
    low, high = SIZES[level]
    for _ in range(15):
        code = synth_fen(rng, level)
        p = _read(code)
        assert p.errors == (), (code, p.errors)
        assert low <= p.counts()["pieces"] <= high
        assert detect(None, code) is FEN
    assert synth_fen(random.Random(3), level) == synth_fen(random.Random(3), level)


# --- facts ----------------------------------------------------------------------------------

def test_board_facts():
    board = _read("4k3/8/8/1B6/8/8/3P4/4K3 b - - 0 1").diagram
    facts = {(f.subject, f.question): f.answer for f in board_facts(board)}
    by_subject = {s: a for (s, _), a in facts.items()}
    assert by_subject["turn"] == "black" and by_subject["pieces"] == 4
    assert by_subject["pieces:white"] == 3 and by_subject["pawns:white"] == 1
    assert by_subject["pawns:black"] == 0
    assert by_subject["check"] is True and by_subject["checker"] == "white bishop"
    assert by_subject["checker_square"] == "b5"
    pieces = sorted(a for (s, _), a in facts.items() if s == "piece")
    # the first, middle and last occupied squares, a1 … h8: e1, b5 (index 2 of 4), e8
    assert pieces == ["black king", "white bishop", "white king"]


def test_without_stockfish_the_best_move_is_left_out(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(facts_module, "stockfish_path", lambda: None)
    board = _read("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").diagram
    subjects = [f.subject for f in facts_module.chess_facts(board)]
    assert "best_move" not in subjects
    assert subjects == [f.subject for f in board_facts(board)]


@pytest.mark.parametrize(("lines", "move"), [
    ([], None),                                                        # mate or stalemate
    ([Line("e1e2", 0, None, 20)], "e1e2"),                             # the only move
    ([Line("a1a8", None, 1, 12), Line("a1a5", 278, None, 12)], "a1a8"),  # mates, 2nd not
    ([Line("a1a8", None, 1, 12), Line("b1b8", None, 3, 12)], None),     # both mate
    ([Line("d7f8", 160, None, 14), Line("d7f6", 10, None, 14)], "d7f8"),  # margin 150
    ([Line("d7f8", 159, None, 14), Line("d7f6", 10, None, 14)], None),   # margin 149
    ([Line("g1g2", -50, None, 14), Line("g1h1", None, -2, 14)], "g1g2"),  # 2nd is mated
])
def test_unique_best_keeps_a_move_only_by_the_margin(lines, move):
    assert unique_best(lines) == move


# --- similarity -----------------------------------------------------------------------------

def test_similarity_of_boards():
    moved = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1"
    same = FEN.compare_code(START, START, True)
    assert same.score == 1.0 and same.exact
    one = FEN.compare_code(START, moved, True)
    # e2 and e4 differ: 62/64 = 0.96875; not exact → (0.96875 + 0)/2
    assert one.accuracy == 0.96875 and not one.exact and one.score == 0.484375
    turn = FEN.compare_code(START, START.replace(" w ", " b "), True)
    assert turn.accuracy == 1.0 and not turn.exact and turn.score == 0.5
    # castling, en passant and clocks are not drawn and not scored
    assert FEN.compare_code(START, START.replace("KQkq", "-"), True).score == 1
    broken = FEN.compare_code(START, "8/8/8/8/8/8/8/8 w - - 0 1", True)
    assert broken.score == 0.0 and not broken.valid and broken.warnings
    # two positions are not drawn (the engine draws one a drawing): not valid, 0
    assert FEN.compare_code(START, f"{START}\n{START}", False).score == 0.0
