"""Image-to-code similarity of chess boards (paper 004_34f8485b6a3a0424.txt, Table 1:
chess boards written in FEN; §5.1 scores an image-to-code answer against its gold
code; issue 31's table names the measures): the square-level accuracy over the 64
squares (a piece of the right type in the wrong colour half right) and the exact-board
match (placement and side to move).
"""

from __future__ import annotations

from collections.abc import Sequence

#: A square's credit when both hold a piece of the same type in different colours.
COLOUR_CREDIT = 0.5


def square_credit(gold: str, pred: str) -> float:
    """One square's credit: 1 when both boards hold the same piece there or both leave it
    empty; `COLOUR_CREDIT` (½) when both hold a piece of the same type but of different
    colours (the shape drawn right, its fill wrong); 0 otherwise (a wrong type, or a
    piece on one board only). A square is its FEN letter (KQRBNP white, kqrbnp black),
    or "" when empty.

    >>> square_credit("N", "N"), square_credit("N", "n"), square_credit("N", "B")
    (1.0, 0.5, 0.0)
    """
    if gold == pred:
        return 1.0
    return COLOUR_CREDIT if gold and gold.lower() == pred.lower() else 0.0


def square_accuracy(gold: Sequence[str], pred: Sequence[str]) -> float:
    """Square-level accuracy with partial credit for a piece's colour: the mean of the 64
    squares' `square_credit`, acc = Σₛ credit(gₛ, pₛ) / 64 (the image-to-code task of
    004_34f8485b6a3a0424.txt §5.1, scored square by square as issue 31's table asks;
    one piece drawn in the wrong colour costs ½/64, not the board). Squares a1 … h8.

    Edge cases: a board of other than 64 squares is a ValueError.

    >>> start = list("RNBQKBNR") + ["P"] * 8 + [""] * 32 + ["p"] * 8 + list("rnbqkbnr")
    >>> moved = start.copy(); moved[12], moved[28] = "", "P"  # 1. e4
    >>> square_accuracy(start, moved)
    0.96875
    >>> recoloured = start.copy(); recoloured[1] = "n"  # the b1 knight drawn black
    >>> square_accuracy(start, recoloured)
    0.9921875
    """
    if len(gold) != 64 or len(pred) != 64:
        raise ValueError(f"boards of {len(gold)} and {len(pred)} squares, not 64")
    return sum(square_credit(g, p) for g, p in zip(gold, pred, strict=True)) / 64


def board_score(valid: bool, accuracy: float, exact: bool) -> float:
    """diagbench's image-to-code score of a chess board (004_34f8485b6a3a0424.txt §5.1
    gates on validity; the field's measures as for molecules, `molecule_score`):
    S = 𝟙[valid] · (acc + 𝟙[exact]) / 2, acc the square accuracy and `exact` the match
    of placement and side to move. The same board scores 1; one piece moved scores
    62/64 / 2 ≈ 0.48; the right squares with the wrong side to move 0.5.

    Edge cases: a prediction that does not read or render scores 0; an accuracy outside
    [0, 1] is a ValueError.

    >>> board_score(True, 0.96875, False)
    0.484375
    >>> board_score(False, 1.0, True)
    0.0
    """
    if not 0.0 <= accuracy <= 1.0:
        raise ValueError(f"a square accuracy of {accuracy}")
    return (accuracy + float(exact)) / 2 if valid else 0.0
