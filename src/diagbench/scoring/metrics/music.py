"""Image-to-code similarity of music notation (paper 004_34f8485b6a3a0424.txt, Table 1:
musical notation in ABC; §5.1 scores an image-to-code answer against its gold code;
the issue's table: "edit distance over (pitch, duration) sequences, key/meter match"):
the normalised edit distance of two note sequences (Levenshtein 1966, over notes rather
than characters, as melodic similarity is commonly measured, e.g. Mongeau & Sankoff
1990, "Comparison of musical sequences", Computers and the Humanities 24), and the
tune's score with its key signature and meter.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from diagbench.scoring.metrics.judge import edit_distance

#: Weights of the tune's score: the notes, the key signature, the meter.
MELODY_WEIGHT, KEY_WEIGHT, METER_WEIGHT = 0.8, 0.1, 0.1


def sequence_similarity(gold: Sequence[Hashable], pred: Sequence[Hashable]) -> float:
    """1 − d / max(|g|, |p|), d the Levenshtein distance between the two sequences of
    events (an event is one item: a (pitch, duration) pair, compared whole), so one
    wrong, missing or extra event of n costs 1/n (the note-sequence half of a tune's
    image-to-code score, 004_34f8485b6a3a0424.txt §5.1).

    Edge cases: both empty → 1.0; one empty → 0.0.

    >>> sequence_similarity([("C4", 1), ("D4", 1), ("E4", 2)], [("C4", 1), ("F4", 1), ("E4", 2)])
    0.6666666666666667
    """
    if not gold and not pred:
        return 1.0
    return 1.0 - edit_distance(gold, pred) / max(len(gold), len(pred))


def music_score(valid: bool, melody: float, key_match: bool, meter_match: bool) -> float:
    """diagbench's tune image-to-code score (004_34f8485b6a3a0424.txt §5.1 gates on
    validity): S = 𝟙[valid] · (0.8 · melody + 0.1 · 𝟙[key] + 0.1 · 𝟙[meter]) — the notes
    (`sequence_similarity` of the (pitch, duration) sequences) weigh most, as they are
    most of what the engraving shows; the key signature (the sharps or flats drawn, not
    the key's name: E minor and G major draw one sharp) and the time signature, one
    sign each, a tenth each. A tune that does not parse or render scores 0.

    Edge cases: a melody similarity outside [0, 1] is a ValueError.

    >>> music_score(True, 0.5, True, False)
    0.5
    >>> music_score(False, 1.0, True, True)
    0.0
    """
    if not 0.0 <= melody <= 1.0:
        raise ValueError(f"a similarity of {melody}")
    if not valid:
        return 0.0
    return MELODY_WEIGHT * melody + KEY_WEIGHT * key_match + METER_WEIGHT * meter_match
