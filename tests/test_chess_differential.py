"""FEN, differentially: generated positions (the seeded generator at its three complexity
levels, and mutated copies) and scalachess's real FEN files are read by the reader,
drawn by the `board` engine and given to Stockfish (a separate program with a FEN
reader of its own; its `d` command prints the board it read, its FEN and the checking
pieces). The reader's placement, side to move, castling, en passant and clocks must be
Stockfish's, its checkers Stockfish's `Checkers:`, and its placement, side to move and
counts what the SVG shows. Only positions the reader accepts go to Stockfish (it may
crash on illegal ones); a position the reader rejects the engine rejects too. The best
move asked about (unique by the margin) must be Stockfish's at five times the nodes.

Found so far: Stockfish 15.1 crashes on an en passant target while the side to move is
in check from a piece the double step could not have given or uncovered; the reader
now rejects such a position (`test_chess_fen.py`)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from diagbench.diagram.chess import Board, board_facts
from diagbench.languages import named
from diagbench.languages.fen.engine import BoardEngine, board_statistics
from diagbench.languages.fen.facts import (
    NODES,
    best_move,
    chess_facts,
    drawn_best_move,
    undrawn_variants,
)
from diagbench.languages.fen.read import read_fen
from diagbench.languages.fen.synth import synth_fen
from diagbench.languages.fen.uci import Stockfish, UciError, shared_stockfish, stockfish_path
from tests.sizes import sized

pytestmark = [pytest.mark.differential,
              pytest.mark.skipif(stockfish_path() is None, reason="needs Stockfish")]
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
REALWORLD = Path(__file__).resolve().parents[2] / "shared" / "data" / "realworld" / \
    "scalachess-fen"


def generated(count: int, seed: int = 31) -> list[str]:
    """`count` positions per complexity level, seeded."""
    rng = random.Random(seed)
    return [synth_fen(rng, level).strip() for level in ("low", "medium", "high")
            for _ in range(count)]


def mutated(codes: list[str], seed: int = 32) -> list[str]:
    """Each code with one character replaced, deleted or inserted, or two swapped (a
    piece moved, a field changed: many no longer read)."""
    rng = random.Random(seed)
    alphabet = "KQRBNPkqrbnp12345678/ wb-"
    out = []
    for code in codes:
        k, how = rng.randrange(len(code)), rng.choice(("replace", "delete", "insert", "swap"))
        if how == "swap":
            j = rng.randrange(len(code))
            chars = list(code)
            chars[k], chars[j] = chars[j], chars[k]
            out.append("".join(chars))
        else:
            out.append(code[:k] + (rng.choice(alphabet) if how != "delete" else "")
                       + code[k + (how != "insert"):])
    return out


def real_fens() -> list[str]:
    if not REALWORLD.is_dir():
        pytest.skip(f"{REALWORLD} is missing")
    lines = [line for path in sorted(REALWORLD.rglob("*.txt"))
             for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    step = max(1, len(lines) // sized(60, 1000))
    return lines[::step]


def stockfish_view(board: Board) -> list[str]:
    """The FEN fields Stockfish prints for `board` as the reader read it: Stockfish keeps
    an en passant target only when a pawn of the side to move attacks it."""
    capture = board.en_passant is not None and any(
        (piece := board.at(s)) is not None and piece.type == "pawn"
        for s in board.attackers(board.en_passant, board.turn))
    return [board.placement(), board.turn[0], board.castling,
            board.en_passant if capture and board.en_passant else "-",
            str(board.halfmove), str(board.fullmove)]


def _agree_with_stockfish(codes: list[str]) -> int:
    """Every code the reader accepts, read by Stockfish: the same board and checkers.
    Returns how many were compared."""
    accepted = [p.diagram for code in codes for p in read_fen(code) if not p.diagnostics]
    with Stockfish(timeout=10) as engine:
        for board in accepted:
            shown = engine.display(board.fen())
            assert shown.fen.split() == stockfish_view(board), board.fen()
            assert sorted(shown.checkers) == sorted(board.checkers()), board.fen()
    return len(accepted)


def _agree_with_the_drawing(codes: list[str], tmp_path: Path) -> None:
    """Each code drawn: accepted ones show the reader's placement, side to move and
    counts; rejected ones are not drawn, with the reader's first error."""
    results = BoardEngine(jobs=2).render([c + "\n" for c in codes], tmp_path, "svg")
    for code, result in zip(codes, results, strict=True):
        [parsed] = read_fen(code)
        if parsed.errors:
            assert not result.ok and result.error == f"FEN not read: {parsed.errors[0].reason}"
            continue
        assert result.ok and result.image is not None, (code, result.error)
        drawn = board_statistics(result.image.read_text(encoding="utf-8"))
        board = parsed.diagram
        assert (drawn["placement"], drawn["turn"], drawn["mismatches"]) == \
            (board.placement(), board.turn, 0), code
        assert {k: drawn[k] for k in board.counts()} == board.counts(), code


def test_generated_positions_agree_with_stockfish_and_the_drawing(tmp_path: Path):
    codes = generated(sized(10, 200))
    assert all(not p.diagnostics for c in codes for p in read_fen(c))  # legal by construction
    assert _agree_with_stockfish(codes) == len(codes)
    _agree_with_the_drawing(codes, tmp_path)


def test_mutated_positions_agree_with_stockfish_where_read(tmp_path: Path):
    codes = mutated(generated(sized(10, 200), seed=33))
    compared = _agree_with_stockfish(codes)
    assert 0 < compared < len(codes)  # some mutations still read, others do not
    _agree_with_the_drawing(codes, tmp_path)


def test_real_fen_files_read_and_agree_with_stockfish(tmp_path: Path):
    codes = real_fens()
    assert all(not p.errors for c in codes for p in read_fen(c)), "a real FEN rejected"
    assert _agree_with_stockfish(codes) == len(codes)
    _agree_with_the_drawing(codes, tmp_path)


def test_kept_best_moves_agree_with_a_deeper_search():
    codes = generated(sized(4, 30), seed=34)
    kept = 0
    with Stockfish(timeout=60) as engine:
        for code in codes:
            move = best_move(engine, code)
            if move is None:
                continue
            kept += 1
            [deeper] = engine.analyse(code, nodes=5 * NODES, lines=1)
            assert deeper.move == move, code
    assert kept > 0


def test_stockfish_client_finds_a_mate_deterministically_and_times_out():
    back_rank = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"  # Ra8 mates at once
    with Stockfish() as engine:
        first = engine.analyse(back_rank, nodes=50_000)
        assert first == engine.analyse(back_rank, nodes=50_000)  # one thread, same nodes
        assert first[0].move == "a1a8" and first[0].mate == 1
        assert len(first) == 2 and first[1].mate is None  # the second best does not mate
        assert engine.analyse("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1") == []  # stalemate: no move
    facts = {f.subject: f.answer for f in chess_facts(read_fen(back_rank)[0].diagram)}
    assert facts["best_move"] == "a1a8" and facts["turn"] == "white"
    with Stockfish() as engine:
        engine.analyse(START, nodes=1_000)  # started and warm
        engine.timeout = 0.5
        with pytest.raises(UciError, match=r"no 'bestmove' within 0\.5 s"):
            engine.analyse(START, nodes=None, depth=99)


def test_one_stockfish_serves_board_after_board_as_a_fresh_one_would():
    """The shared Stockfish gives each position the lines a fresh Stockfish gives it,
    whatever it searched before; an error ends it and the next caller gets another."""
    fens = ["6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", START,
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"]
    with shared_stockfish() as engine:
        lines = [engine.analyse(fen, nodes=30_000) for fen in fens]
    with shared_stockfish() as again:
        assert again is engine and engine._process.started == 1
        assert again.analyse(fens[0], nodes=30_000) == lines[0]
    for fen, seen in zip(fens, lines, strict=True):
        with Stockfish() as fresh:
            assert fresh.analyse(fen, nodes=30_000) == seen, fen
    with pytest.raises(UciError), shared_stockfish() as failing:
        failing.timeout = 0.5
        failing.analyse(START, nodes=None, depth=99)
    with shared_stockfish() as after:
        assert after is not engine and after.analyse(fens[0], nodes=30_000) == lines[0]


def test_a_boards_best_move_is_searched_once_per_process(monkeypatch: pytest.MonkeyPatch):
    """Asking a board's facts again (a build reads each board, then its model asks a
    question of it) gives the same facts and starts no Stockfish search; another board,
    or the same placement with another side to move, is searched."""
    from diagbench.languages.fen import facts as facts_module

    searches: list[str] = []
    analyse = Stockfish.analyse

    def counted(self: Stockfish, fen: str, *args: object, **kwargs: object) -> list:
        searches.append(fen)
        return analyse(self, fen, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Stockfish, "analyse", counted)
    facts_module.searched_best_move.cache_clear()
    back_rank = read_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")[0].diagram
    first = chess_facts(back_rank)
    assert {f.subject: f.answer for f in first}["best_move"] == "a1a8"
    # the best line, the search of twice the nodes confirming it: two searches
    assert searches == [back_rank.fen(), back_rank.fen()]
    assert chess_facts(read_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\n")[0].diagram) == first
    assert len(searches) == 2
    black = read_fen("6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1")[0].diagram
    chess_facts(black)
    assert searches[2:3] == [black.fen()]


def test_callers_at_once_each_get_a_stockfish_of_their_own_and_one_after_another_share():
    with shared_stockfish() as first, shared_stockfish() as second:
        assert first is not second
        lines = first.analyse(START, nodes=20_000), second.analyse(START, nodes=20_000)
        assert lines[0] == lines[1]
    with shared_stockfish() as again:
        assert again in (first, second)


def test_boards_searched_ahead_side_by_side_get_the_moves_searched_one_by_one(
        monkeypatch: pytest.MonkeyPatch):
    from diagbench.languages.fen import facts as facts_module

    boards = [read_fen(code)[0].diagram for code in ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
                                                      START)]
    with Stockfish() as alone:
        moves = [drawn_best_move(alone, b) for b in boards]
    assert moves == ["a1a8", None]  # mates at once; no move best by the margin
    engines: list[int] = []
    analyse = Stockfish.analyse

    def counted(self: Stockfish, fen: str, *args: object, **kwargs: object) -> list:
        engines.append(id(self))
        return analyse(self, fen, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Stockfish, "analyse", counted)
    facts_module.searched_best_move.cache_clear()
    named("fen").facts_ahead(boards)
    assert engines and len(set(engines)) <= facts_module.SEARCHES_AT_ONCE
    searched = len(engines)
    asked = [{f.subject: f.answer for f in chess_facts(b)}.get("best_move") for b in boards]
    assert asked == moves and len(engines) == searched  # nothing searched again


def test_real_positions_score_one_against_themselves_less_when_changed():
    """The issue's checks on real files: the gold board scores 1 against itself, one
    piece moved to an empty square strictly between 0 and 1, a truncated FEN 0."""
    language = named("fen")
    changed = 0
    for code in real_fens()[:sized(10, 100)]:
        board = read_fen(code)[0].diagram
        assert language.compare_code(code, code, True).score == 1.0
        moved = _moved(board)
        if moved is not None:
            changed += 1
            score = language.compare_code(code, moved.fen(), True).score
            assert 0.0 < score < 1.0, (code, moved.fen())
        assert language.compare_code(code, code[:len(code) // 3], True).score == 0.0
    assert changed > 0


def _moved(board: Board) -> Board | None:
    """The board with its last non-king piece moved to the first empty square where the
    position stays legal (None: no such move)."""
    squares = list(board.squares)
    origin = max(k for k, p in enumerate(squares) if p is not None and p.type != "king")
    for target in range(8, 56):
        if squares[target] is None:
            trial = squares.copy()
            trial[target], trial[origin] = trial[origin], None
            moved = Board(tuple(trial), board.turn)
            if not read_fen(moved.fen())[0].diagnostics:
                return moved
    return None


def test_the_best_move_is_asked_only_when_the_drawing_decides_it():
    """`7k/8/2pb4/Pp6/K7/7r/8/8 w - b6`: the black pawn on b5 has just come from b7 and
    checks the king on a4; a5xb6 en passant takes it (the only answer to the check, as
    b3, b4 and a3 are covered and b5 is guarded by c6). With `-` that capture is not
    there and White has no move: mate. The drawing shows neither field, so the board's
    variants are two (no target, b6; no king on its square: no castling right) and no
    best move is asked. On the back-rank mate with a queen-side castling right the
    variants are two (Q, -) and both mate by Ra8: a1a8 is asked."""
    passant = "7k/8/2pb4/Pp6/K7/7r/8/8 w - b6 0 1"
    board = read_fen(passant)[0].diagram
    assert [v.en_passant for v in undrawn_variants(board)] == ["b6", None]
    with Stockfish() as engine:
        assert best_move(engine, passant) == "a5b6"
        assert engine.analyse(passant.replace(" b6 ", " - ")) == []
    assert "best_move" not in {f.subject for f in chess_facts(board)}
    rank = read_fen("6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1")[0].diagram
    assert [v.castling for v in undrawn_variants(rank)] == ["Q", "-"]
    facts = {f.subject: f for f in chess_facts(rank)}
    assert facts["best_move"].answer == "a1a8" and "for White" in facts["best_move"].question


def test_every_fact_is_read_off_the_drawing(tmp_path: Path):
    """The drawn-vs-fact check: the board read back from each drawing (its pieces from
    the glyphs where they stand, the side to move from the caption) gives every fact
    the reader's board gives — the best move aside, which is Stockfish's."""
    codes = generated(sized(10, 100), seed=35)
    results = BoardEngine(jobs=2).render([c + "\n" for c in codes], tmp_path, "svg")
    for code, result in zip(codes, results, strict=True):
        assert result.image is not None
        drawn = board_statistics(result.image.read_text(encoding="utf-8"))
        seen = read_fen(f"{drawn['placement']} {drawn['turn'][0]}")[0].diagram
        assert board_facts(seen) == board_facts(read_fen(code)[0].diagram), code
