"""ABC, differentially: generated tunes (the seeded generator at its three complexity
levels, and mutated copies: ties, chords, tuplets, grace notes, rests, dotted and
broken rhythms, key and meter changes, repeats and endings, accidentals, ledger-line
octaves, unisons, voices in sections) and the colomon/ABC tunes are read by the
music21 reader and engraved by abcm2ps; the reader's note heads, grace notes, rests,
voices, measures, time signature and key signature (sharps or flats) must be what
abcm2ps's SVG shows. Each disagreement found on the
way is a case below (`FOUND`), fixed in the reader. No second ABC reader is installed
(abcjs is JavaScript, not in the project's node tools; abc2midi/abc2abc are not on the
machine): abcm2ps's engraving is the independent check."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from diagbench.languages import named
from diagbench.languages.abc.engine import Abcm2psEngine, score_statistics
from diagbench.languages.abc.read import read_abc
from diagbench.languages.abc.synth import synth_abc
from tests.sizes import sized

pytestmark = pytest.mark.differential
REALWORLD = Path(__file__).resolve().parents[2] / "shared" / "data" / "realworld" / "colomon-abc"
COMPARED = ("notes", "grace_notes", "rests", "voices", "measures", "meter", "key_sharps")

#: Whole bars (at the unit length `L:1/8`), each a structure the generator does not write.
SNIPPETS = {
    "tie": "c2-c2 d4|", "chord": "[CEG]2 [DFA]2 z4|", "tuplet": "(3ABc (3def g2|",
    "grace": "{g}A2 {fg}B2 {a}c4|", "rest": "z2 A2 z4|", "dotted": "A3/2B/2 c>d e2|",
    "key": "[K:Eb] E2 B2 e4|", "meter": "[M:3/4] A2 B2 c2|", "repeat": "|: A2 B2 :|",
    "ending": "[1 A4 :|[2 B4|", "accidentals": "^c2 _B2 =F4|",
    "sixteenths": "A/B/c/d/ e2 f4|", "octaves": "C,2 c'2 A,,2 a'2|",
    "chord-tie": "[CE]2-[CE]2 G4|", "whole": "c8|", "unison": "[CC]4 [Ec]4|",
    "slur": "(AB) (cd) e4|", "decoration": "!trill!A2 +fermata+B2 .c4|",
    "annotation": '"Am" A2 "^text" B2 c4|',
}

#: Each disagreement found between music21 and abcm2ps, as (tune, what both count).
FOUND = {
    # music21 makes measures only from two plain bar lines on: this was one measure
    "final bar": ("X:1\nL:1/4\nK:G\nG A|B c|]\n", {"measures": 2, "notes": 4}),
    "double bar": ("X:1\nL:1/4\nK:G\nG A||B c|d e|]\n", {"measures": 3, "notes": 6}),
    # music21 reads ABC 2.0's +fermata+ as the notes f, e, a (and skips the rest)
    "old decoration": ("X:1\nL:1/4\nK:C\n+fermata+C D|E F|\n", {"notes": 4}),
    # music21 re-bars a bar longer than the meter into two (9/8 written under 6/8)
    "long bar": ("X:1\nM:6/8\nL:1/8\nK:G\nG2 B d2 B|A2 B d3 d3|e2 g e2 d|\n",
                 {"measures": 3, "notes": 12}),
    # music21 starts a part at each V: section, and none at a V: id without a digit
    "voice sections": ("X:1\nM:2/4\nL:1/4\nK:C\nV:1\nc d|e f|\nV:2 clef=bass\nC, D,|E, F,|\n"
                       "V:1\ng a|\nV:2\nG, A,|\n", {"voices": 2, "measures": 3, "notes": 12}),
    "named voices": ("X:1\nM:2/4\nL:1/4\nK:C\n[V:T1] c d|e f|\n[V:B] C, D,|E, F,|\n",
                     {"voices": 2, "measures": 2, "notes": 8}),
    # no L: and no M:: ABC's unit is an eighth; music21 refused the notes
    "default unit": ("X:1\nK:C\nC D E F|G A B c|\n", {"measures": 2, "notes": 8}),
    # the tempo's note (Q:) is drawn as a head, smaller: the SVG counted it as a note
    "tempo": ("X:1\nM:4/4\nL:1/4\nQ:1/4=100\nK:C\nCDEF|G4|]\n", {"notes": 5}),
    # %%scale draws the whole tune scaled, its tempo's note smaller still
    "scaled": ("X:1\n%%scale 0.9\nM:4/4\nL:1/4\nQ:1/2=60\nK:C\nCDEF|G4|]\n",
               {"notes": 5, "measures": 2}),
    # endings after a bar (|1, :|2): music21 passes over their numbers, which was warned
    "endings": ("X:1\nM:4/4\nL:1/4\nK:C\n|:CDEF|1 GABc:|2 GAB2|]\n|:CD EF|1,3 G4:|2 A4|]\n",
                {"notes": 17, "measures": 6}),
}


def mutate(rng: random.Random, text: str, name: str) -> str:
    """`SNIPPETS[name]` after one bar line, the same one in every voice (voices stay
    in time)."""
    head, *voices = text.split("\nV:")
    chosen: int | None = None
    out = []
    for part in [head, *voices]:
        lines = part.split("\n")
        bars = [(k, i) for k, line in enumerate(lines) if line[1:2] != ":"
                for i, c in enumerate(line) if c == "|"]
        if bars:
            chosen = rng.randrange(len(bars)) if chosen is None else min(chosen, len(bars) - 1)
            k, i = bars[chosen]
            lines[k] = lines[k][:i + 1] + SNIPPETS[name] + lines[k][i + 1:]
        out.append("\n".join(lines))
    return "\nV:".join(out)


def disagreements(texts: list[str], folder: Path) -> list[tuple[str, object]]:
    """(tune, why) of every tune whose reader counts and abcm2ps drawing differ, or that
    one of them rejects."""
    found: list[tuple[str, object]] = []
    for text, result in zip(texts, Abcm2psEngine().render(texts, folder, "svg"), strict=True):
        [parsed] = read_abc(text)
        if not result.ok or result.image is None or parsed.errors:
            found.append((text, (result.error, parsed.errors)))
            continue
        drawn = score_statistics(result.image.read_text(encoding="utf-8"))
        score = parsed.diagram
        read: dict[str, object] = {**parsed.counts(), "meter": score.meter,
                                   "key_sharps": score.sharps}
        differ = {k: (read[k], drawn[k]) for k in COMPARED if read[k] != drawn[k]}
        if differ:
            found.append((text, differ))
    return found


@pytest.mark.parametrize("case", sorted(FOUND))
def test_each_disagreement_found_is_fixed(case: str, tmp_path: Path):
    text, expected = FOUND[case]
    [parsed] = read_abc(text)
    assert parsed.diagnostics == ()
    assert {k: parsed.counts()[k] for k in expected} == expected
    assert disagreements([text], tmp_path) == []


def test_generated_tunes_agree_with_abcm2ps(tmp_path: Path):
    rng = random.Random(31)
    texts = [synth_abc(rng, level) for level in ("low", "medium", "high")
             for _ in range(sized(4, 100))]
    assert disagreements(texts, tmp_path) == []


def test_mutated_tunes_agree_with_abcm2ps(tmp_path: Path):
    rng = random.Random(17)
    texts = []
    for level in ("low", "medium", "high"):
        for name in sorted(SNIPPETS)[:sized(6, len(SNIPPETS))]:
            for _ in range(sized(1, 8)):
                texts.append(mutate(rng, synth_abc(rng, level), name))
    assert disagreements(texts, tmp_path) == []


def test_what_music21_skips_is_warned_not_counted(tmp_path: Path):
    """Multi-measure rests (`Z`), invisible rests (`x`) and voice overlays (`&`): music21
    leaves them out without a word, so the reader's counts differ from the drawing —
    and the reader says so, at the line."""
    text = "X:1\nL:1/8\nK:C\nC8|Z2|\nC4 x4|\nC4 & E4|\n"
    [parsed] = read_abc(text)
    assert [d.line for d in parsed.diagnostics if d.severity == "warning"] == [4, 5, 6]
    assert disagreements([text], tmp_path) != []


@pytest.mark.skipif(not REALWORLD.is_dir(), reason="needs ../shared/data/realworld")
def test_colomon_tunes_parse_render_and_agree(tmp_path: Path):
    tunes = [tune for path in sorted(REALWORLD.glob("*.abc"))
             for _, tune in named("abc").split(path.read_text(encoding="utf-8"))]
    assert len(tunes) >= 7
    assert disagreements(tunes, tmp_path) == []


@pytest.mark.skipif(not REALWORLD.is_dir(), reason="needs ../shared/data/realworld")
def test_colomon_tunes_score_1_against_themselves_and_less_when_changed():
    from diagbench.languages import named

    abc = named("abc")
    for path in sorted(REALWORLD.glob("*.abc")):
        for _, tune in named("abc").split(path.read_text(encoding="utf-8")):
            assert abc.compare_code(tune, tune, True).score == 1.0
            head, body = tune.split("\nK:", 1)
            key, music = body.split("\n", 1)
            changed = head + "\nK:" + key + "\n" + _first_note_up(music)
            assert 0.0 < abc.compare_code(tune, changed, True).score < 1.0, path.name
            assert abc.compare_code(tune, "X:1\nL:1/4\nK:C\n[CE|D\n", True).score == 0.0


def _first_note_up(music: str) -> str:
    """The music with its first note letter (outside annotations and decorations) a
    step higher (C → D … B → C)."""
    closing = {'"': '"', "!": "!", "+": "+", "{": "}"}
    inside = ""
    for k, char in enumerate(music):
        if inside:
            inside = "" if char == inside else inside
        elif char in closing:
            inside = closing[char]
        elif char in "CDEFGABcdefgab":
            steps = "CDEFGABC" if char.isupper() else "cdefgabc"
            return music[:k] + steps[steps.index(char) + 1] + music[k + 1:]
    return music
