"""The seeded ABC generator (`baseline:synth`): tunes that music21 reads and abcm2ps
engraves, at three complexity levels.

- "low": 3–4 bars, one voice, quarter and half notes in a major key;
- "medium": 8 bars, eighth notes and dotted values, accidentals, chords and rests, major
  or minor keys, a `Q:` tempo (its note drawn above the staff);
- "high": 8–11 bars in two or three voices (the lower ones in the bass clef, an
  accompaniment of longer notes), with ties, triplets, grace notes and a repeated first
  half; a third voice only in tunes of 8 bars, so that 9 tunes in 10 hold at most
  STRUDEL's 80 notes (26–109, median 58, over 300 seeds; at 16–24 bars all held
  86–224, and `build structure` drew each tune up to 20 times).

The unit note length is an eighth (`L:1/8`); every bar is filled to the meter exactly.
A line holds one bar at low complexity, two at medium and four at high, so that every
level is engraved within the aspect ratios `build structure` keeps ([0.25, 4]: a low
tune on one line was 7.6 times as wide as high, a medium one on two lines 4.3).
"""

from __future__ import annotations

import random

#: Diatonic pitches as ABC writes them, low to high: octave 3 (`C,`) to octave 6 (`c'`).
PITCHES = ([f"{p}," for p in "CDEFGAB"] + list("CDEFGAB") + list("cdefgab")
           + [f"{p}'" for p in "cdefgab"])
TREBLE = (7, 20)  # C4 … a5: indices into PITCHES
BASS = (0, 9)  # C,3 … E4
KEYS = {"low": ("C", "G", "D", "F"), "medium": ("C", "G", "D", "F", "Bb", "Am", "Em", "Dm"),
        "high": ("C", "G", "D", "A", "F", "Bb", "Eb", "Am", "Em", "Dm", "Bm", "Gm")}
METERS = {"2/4": 4, "3/4": 6, "4/4": 8, "6/8": 6}  # eighths per bar
BARS = {"low": (3, 4), "medium": (8, 8), "high": (8, 11)}
BARS_PER_LINE = {"low": 1, "medium": 2, "high": 4}
_DURATIONS = {"low": (2, 4), "medium": (1, 2, 2, 3, 4), "high": (1, 2, 2, 3, 4)}  # eighths
_ACCOMPANIMENT = (2, 4, 4, 6)  # eighths: a high tune's lower voices
_NAMES = ("Reel", "Jig", "Air", "March", "Waltz", "Hornpipe", "Song", "Dance")


def synth_abc(rng: random.Random, complexity: str) -> str:
    """A random tune in ABC at `complexity` (see the module's docstring)."""
    low, high = BARS[complexity]
    bars = rng.randint(low, high)
    meter = rng.choice(("3/4", "4/4") if complexity == "low" else tuple(METERS))
    voices = 1 if complexity != "high" else rng.choice((2, 2, 3) if bars <= 8 else (2,))
    lines = ["X:1", f"T:{rng.choice(_NAMES)} no. {rng.randint(1, 99)}", f"M:{meter}", "L:1/8",
             f"K:{rng.choice(KEYS[complexity])}"]
    if complexity != "low":  # a tempo, whose note abcm2ps draws above the staff
        lines.insert(4, f"Q:1/4={60 + 8 * (bars % 8)}")
    for v in range(voices):
        if voices > 1:
            lines.append(f"V:{v + 1}" + (" clef=bass" if v else ""))
        span = BASS if v else TREBLE
        measures = [_bar(rng, complexity, METERS[meter], span, v > 0) for _ in range(bars)]
        if complexity == "high":
            half = bars // 2
            measures[0] = "|:" + measures[0]
            measures[half - 1] += ":|"
        per = BARS_PER_LINE[complexity]
        for start in range(0, bars, per):
            chunk = measures[start:start + per]
            text = "".join(m if m.endswith(":|") else m + "|" for m in chunk)
            lines.append(text.removesuffix("|") + "|]" if start + per >= bars else text)
    return "\n".join(lines) + "\n"


def _bar(rng: random.Random, complexity: str, length: int, span: tuple[int, int],
         lower: bool = False) -> str:
    """One bar of `length` eighths (of a lower voice: longer notes)."""
    parts: list[str] = []
    left = length
    durations = _ACCOMPANIMENT if lower else _DURATIONS[complexity]
    while left:
        duration = rng.choice([d for d in durations if d <= left] or [left])
        parts.append(_event(rng, complexity, duration, span))
        left -= duration
    return " ".join(parts)


def _pitch(rng: random.Random, complexity: str, span: tuple[int, int]) -> str:
    name = PITCHES[rng.randint(*span)]
    if complexity != "low" and rng.random() < 0.15:
        name = rng.choice("^_=") + name
    return name


def _length(duration: int) -> str:
    return "" if duration == 1 else str(duration)


def _event(rng: random.Random, complexity: str, duration: int, span: tuple[int, int]) -> str:
    """A note, chord, rest, tie, triplet or grace-noted note of `duration` eighths."""
    roll = rng.random()
    if complexity == "low":
        return _pitch(rng, complexity, span) + _length(duration)
    if roll < 0.12:
        return "z" + _length(duration)
    if roll < 0.24:
        base = rng.randint(span[0], span[1] - 4)
        return "[" + "".join(PITCHES[base + k] for k in (0, 2, 4)) + "]" + _length(duration)
    if complexity == "high" and duration == 2 and roll < 0.34:
        return "(3" + "".join(PITCHES[rng.randint(*span)] for _ in range(3))
    if complexity == "high" and duration == 4 and roll < 0.44:
        name = PITCHES[rng.randint(*span)]
        return f"{name}2-{name}2"
    if complexity == "high" and roll < 0.52:
        return "{" + PITCHES[rng.randint(*span)] + "}" + _pitch(rng, complexity, span) + \
            _length(duration)
    return _pitch(rng, complexity, span) + _length(duration)
