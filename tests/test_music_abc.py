"""ABC (music notation): the music21 reader and its diagnostics, the tune model, its
facts, the abcm2ps engine and what its SVG shows, the similarity, and the generator.
Expected values are worked out by hand from the tunes below."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from diagbench.diagram.music import music_facts
from diagbench.languages import detect, named
from diagbench.languages.abc.engine import Abcm2psEngine, drawn_pitches, score_statistics
from diagbench.languages.abc.read import read_abc
from diagbench.languages.abc.synth import synth_abc

ABC = named("abc")

#: 3/4 in D major (C and F sharp): 3 measures; 9 note heads (A B c#, a 3-note chord,
#: f# e e — the last e tied), one rest, one grace note (g), one chord.
TUNE = """X:1
T:Hand
M:3/4
L:1/8
K:D
A2 B2 c2|[DFA]4 z2|{g}f2 e2-e2|]
"""
TWO_VOICES = """X:7
T:Duet
M:2/4
L:1/4
K:C
V:1
c d|e f|
V:2 clef=bass
C, D,|E, F,|
"""


def _read(text: str):
    [parsed] = read_abc(text)
    return parsed


def test_reader_reads_a_tune_into_voices_measures_and_events():
    parsed = _read(TUNE)
    score = parsed.diagram
    assert parsed.diagnostics == () and parsed.kind == "tune" and parsed.language == "abc"
    assert (score.title, score.key, score.meter) == ("Hand", "D major", "3/4")
    [voice] = score.voices
    assert voice.clef == "treble" and len(voice.measures) == 3
    first, second, third = voice.measures
    assert [(e.kind, e.pitches, e.duration) for e in first.events] == [
        ("note", ("A4",), 1.0), ("note", ("B4",), 1.0), ("note", ("C#5",), 1.0)]
    assert [(e.kind, e.pitches, e.midi, e.duration) for e in second.events] == [
        ("chord", ("D4", "F#4", "A4"), (62, 66, 69), 2.0), ("rest", (), (), 1.0)]
    grace, f, e1, e2 = third.events
    assert grace.grace and grace.pitches == ("G5",)
    assert (f.pitches, e1.pitches, e2.pitches) == (("F#5",), ("E5",), ("E5",))
    assert not e1.tied and e2.tied
    assert parsed.counts() == {"voices": 1, "measures": 3, "notes": 9, "chords": 1,
                               "rests": 1, "grace_notes": 1}


def test_reader_reads_voices_with_their_clefs():
    score = _read(TWO_VOICES).diagram
    assert [(v.id, v.clef, len(v.measures)) for v in score.voices] == [
        ("1", "treble", 2), ("2", "bass", 2)]
    assert [e.pitches[0] for e in score.voices[1].events()] == ["C3", "D3", "E3", "F3"]
    assert score.counts()["notes"] == 8


def test_every_tune_of_a_file_is_one_diagram_with_its_line():
    parsed = read_abc(TUNE + "\n" + TWO_VOICES)
    assert [(p.index, p.first_line, p.diagram.title) for p in parsed] == [
        (0, 1, "Hand"), (1, 8, "Duet")]
    assert [line for line, _ in ABC.split(TUNE + "\n" + TWO_VOICES)] == [1, 8]


def test_a_tune_read_again_at_the_same_line_is_not_translated_again(monkeypatch):
    """A build reads each tune, then its models read it again (a trailing line break
    dropped): music21 translates it once; the same tune a line lower is read anew,
    with its diagnostics at their own lines."""
    from music21.abcFormat import translate

    from diagbench.languages.abc import read as read_module

    translated: list[object] = []
    real = translate.abcToStreamScore

    def counted(handler, *args, **kwargs):
        translated.append(handler)
        return real(handler, *args, **kwargs)

    monkeypatch.setattr(translate, "abcToStreamScore", counted)
    read_module._tune.cache_clear()
    tune = TUNE.replace("B2 c2", "B2 Z4 c2")  # music21 skips Z4: a warning at line 6
    first = read_abc(tune)
    assert [(d.line, d.severity) for d in first[0].diagnostics] == [(6, "warning")]
    assert read_abc(tune.rstrip("\n")) == first and read_abc(tune + "\n") == first
    assert len(translated) == 1
    [lower] = read_abc("\n" + tune)
    assert len(translated) == 2
    assert lower.first_line == 2 and [d.line for d in lower.diagnostics] == [7]
    assert lower.diagram == first[0].diagram


def test_reader_fills_in_what_music21_misses():
    # no L: and no M:: ABC's unit is an eighth
    assert [e.duration for e in _read("X:1\nK:C\nC D2|\n").diagram.events()] == [0.5, 1.0]
    # two measures although only one plain bar line
    assert _read("X:1\nL:1/4\nK:G\nG A|B c|]\n").counts()["measures"] == 2
    # +fermata+ (ABC 2.0's decoration) is no notes f, e, a
    assert _read("X:1\nL:1/4\nK:C\n+fermata+C D|\n").counts()["notes"] == 2


@pytest.mark.parametrize(("text", "line", "words"), [
    ("X:1\nT:x\nL:1/4\nK:C\nC D [CE|D\n", 5, "closing bracket"),
    ("X:1\nT:x\nK:C\nC D|\n\nX:2\nT:y\nL:1/4\nK:C\nE F [G|\n", 10, "closing bracket"),
    ("", 1, "empty source"),
    ("hello world\n", 1, "no active default note length"),
])
def test_reader_reports_errors_with_their_line(text, line, words):
    parsed = read_abc(text)
    [error] = [d for p in parsed for d in p.errors]
    assert error.line == line and words in error.reason, error


@pytest.mark.parametrize(("music", "words"), [
    ("[CyE]2 C6|", "in a chord is not a note"),
    ("C2 {DE F2|G8|", "not closed"),
    ("C2 D2 E2 F2}|", "closes no grace notes"),
    ("c4, C4|", "octave mark after the length"),
    ("C5 D3|", "no note value"),
])
def test_reader_rejects_what_music21_allows_and_abcm2ps_does_not(music: str, words: str,
                                                                 tmp_path: Path):
    text = f"X:1\nM:4/4\nL:1/8\nK:C\nC8|{music}\n"
    [error] = _read(text).errors
    assert words in error.reason and error.line in (1, 5), error
    [result] = Abcm2psEngine().render([text], tmp_path, "svg")
    assert not result.ok and result.error_line == 5


def test_reader_warns_about_what_music21_skips():
    text = "X:1\nL:1/8\nK:C\nC2 Z2 C4|\nx2 C6|\n[P:A] F8|\n"
    warnings = [(d.line, d.severity) for d in _read(text).diagnostics]
    reasons = " ".join(d.reason for d in _read(text).diagnostics)
    assert warnings == [(4, "warning"), (5, "warning"), (6, "warning")]
    assert "'Z2'" in reasons and "'x2'" in reasons and "'[P:A]'" in reasons
    # music21's own warning (an unknown note letter), at the tune's first line
    [said] = _read("X:1\nL:1/4\nK:C\nC D p E|\n").diagnostics
    assert said.line == 1 and "assuming C" in said.reason


def test_reader_reads_inline_key_and_meter_changes():
    score = _read("X:1\nM:2/4\nL:1/4\nK:C\nF G|[K:G] F G|\n[M:3/4] F G A|\n").diagram
    assert [e.pitches[0] for e in score.events()] == ["F4", "G4", "F#4", "G4", "F#4", "G4", "A4"]
    assert [len(m.events) for m in score.voices[0].measures] == [2, 2, 3]


def test_reader_never_raises_on_broken_text():
    for text in ("X:1\nK:C\n(7:9CDE\n", "X:\n", "X:1\nL:1/0\nK:C\nC|\n", "[[[[", "X:1\nK:Z\n|]|]"):
        assert isinstance(read_abc(text), list)


def test_language_entry_recognises_abc():
    assert detect(None, TUNE) is named("abc")
    assert detect(Path("x.abc"), TUNE) is named("abc")
    assert detect(None, "% a comment\n" + TUNE) is named("abc")


def test_facts_of_the_hand_read_tune():
    facts = {f.subject: (f.task, f.answer) for f in music_facts(_read(TUNE).diagram)}
    assert facts == {
        "title": ("identification", "Hand"), "key-signature": ("identification", 2),
        "meter": ("identification", "3/4"),
        "clef": ("identification", "treble"), "first-note": ("identification", "A4"),
        "notes": ("quantification", 9), "measures": ("quantification", 3),
        "rests": ("quantification", 1),
        "highest-note": ("structural", "F#5"), "lowest-note": ("structural", "D4"),
        "has-chord": ("structural", True)}


def test_the_key_signature_is_asked_and_scored_not_the_key(tmp_path: Path):
    """E minor and G major draw the same score (one sharp, on F): the fact asks how many
    sharps the signature shows (1), and the similarity's key part matches; B flat
    major draws two flats: 2 flats asked, the key part lost (0.8 + 0.1 meter = 0.9,
    the notes G A B c d unchanged — none is a B or an E)."""
    minor, major = (f"X:1\nM:2/4\nL:1/4\nK:{key}\nG A|G A|\n" for key in ("Em", "G"))
    drawn = Abcm2psEngine().render([minor, major], tmp_path, "png")
    assert [r.image.read_bytes() for r in drawn if r.image] == \
        [r.image.read_bytes() for r in reversed(drawn) if r.image]
    facts = {f.subject: f for f in music_facts(_read(minor).diagram)}
    assert (facts["key-signature"].question, facts["key-signature"].answer) == (
        "How many sharps does the key signature at the start of the first staff show?", 1)
    assert "key" not in facts
    same = ABC.compare_code(minor, major, True)
    assert same.key_match and same.score == 1.0
    flats = minor.replace("K:Em", "K:Bb")
    [fact] = [f for f in music_facts(_read(flats).diagram) if f.subject == "key-signature"]
    assert ("flats" in fact.question, fact.answer) == (True, 2)
    assert ABC.compare_code(minor, flats, True).score == pytest.approx(0.9)


def test_facts_skip_a_highest_note_with_two_names():
    # C#5 and Db5 are one key of the piano, two notes on the staff: no one answer
    facts = {f.subject: f.answer
             for f in music_facts(_read("X:1\nL:1/4\nK:C\n^c _d C c|\n").diagram)}
    assert "highest-note" not in facts and facts["lowest-note"] == "C4"


def test_engine_draws_png_and_svg_and_the_svg_shows_the_tune(tmp_path: Path):
    engine = Abcm2psEngine()
    assert engine.version().startswith("abcm2ps 8.") and "+ rsvg-convert 2." in engine.version()
    [png] = engine.render([TUNE], tmp_path, "png")
    assert png.ok and png.image is not None
    assert png.image.read_bytes().startswith(b"\x89PNG")
    [svg, duet] = engine.render([TUNE, TWO_VOICES], tmp_path, "svg")
    assert svg.ok and duet.ok and svg.image is not None and duet.image is not None
    assert score_statistics(svg.image.read_text(encoding="utf-8")) == {
        "notes": 9, "grace_notes": 1, "rests": 1, "clefs": 1, "voices": 1, "measures": 3,
        "meter": "3/4", "key_sharps": 2}
    assert score_statistics(duet.image.read_text(encoding="utf-8")) == {
        "notes": 8, "grace_notes": 0, "rests": 0, "clefs": 2, "voices": 2, "measures": 2,
        "meter": "2/4", "key_sharps": 0}


@pytest.mark.parametrize(("meter", "key", "drawn"), [
    ("C", "Eb", ("4/4", -3)), ("C|", "A", ("2/2", 3)), ("6/8", "F#m", ("6/8", 3)),
    ("none", "C", ("", 0)), ("3/4", "Bb", ("3/4", -2)),
])
def test_statistics_read_the_time_and_key_signatures(meter, key, drawn, tmp_path: Path):
    # the first note's own sharp (^G) is not part of the key signature
    text = f"X:1\nM:{meter}\nL:1/8\nK:{key}\n^G2 A2|B4|\n"
    [result] = Abcm2psEngine().render([text], tmp_path, "svg")
    assert result.image is not None
    stats = score_statistics(result.image.read_text(encoding="utf-8"))
    assert (stats["meter"], stats["key_sharps"]) == drawn
    score = _read(text).diagram
    assert (score.meter, score.sharps) == drawn


def test_engine_reports_abcm2ps_errors_with_their_line(tmp_path: Path):
    bad, empty, none = Abcm2psEngine().render(
        ["X:1\nL:1/8\nK:C\nC D\nC [CE|D\n", "", "hello\n"], tmp_path, "svg")
    assert not bad.ok and bad.error_line == 5 and "Not a note" in (bad.error or "")
    assert not empty.ok and empty.error == "empty source"
    assert not none.ok and "no tune" in (none.error or "")


def test_similarity_by_hand():
    # 8 events (A B c chord rest f e e; the grace note is not one): one changed -> 7/8;
    # S = 0.8 * 7/8 + 0.1 (key) + 0.1 (meter) = 0.9
    one = ABC.compare_code(TUNE, TUNE.replace("B2", "G2"), True)
    assert one.melody == pytest.approx(7 / 8) and one.score == pytest.approx(0.9)
    # K:G: c is C natural (one event changed), the key signature differs (2 sharps vs
    # 1): 0.8 * 7/8 + 0.1 = 0.8
    key = ABC.compare_code(TUNE, TUNE.replace("K:D", "K:G"), True)
    assert (key.key_match, key.meter_match) == (False, True)
    assert key.score == pytest.approx(0.8)
    assert ABC.compare_code(TUNE, TUNE, True).score == 1.0
    assert ABC.compare_code(TUNE, TUNE, False).score == 0.0
    assert ABC.compare_code(TUNE, "X:1\nL:1/4\nK:C\n[CE|D\n", True).score == 0.0


@pytest.mark.parametrize("complexity", ["low", "medium", "high"])
def test_synth_writes_valid_seeded_tunes(complexity: str, tmp_path: Path):
    texts = [synth_abc(random.Random(seed), complexity) for seed in range(4)]
    assert texts == [synth_abc(random.Random(seed), complexity) for seed in range(4)]
    bars = {"low": (3, 4), "medium": (8, 8), "high": (8, 11)}[complexity]
    for text, result in zip(texts, Abcm2psEngine().render(texts, tmp_path, "svg"),
                            strict=True):
        parsed = _read(text)
        assert parsed.diagnostics == () and result.ok, (text, result.error)
        counts = parsed.counts()
        assert bars[0] <= counts["measures"] <= bars[1], text
        assert (counts["voices"] >= 2) == (complexity == "high")


def test_reading_writes_nothing(tmp_path: Path):
    """music21 keeps user settings and a scratch folder in HOME and TMPDIR: the reader
    (its ABC handler on the text, no file, no URL, no corpus) writes in neither."""
    import os
    import subprocess
    import sys

    home, temp = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    temp.mkdir()
    code = ("from diagbench.languages.abc.read import read_abc; import sys; "
            "print(read_abc(sys.stdin.read())[0].counts()['notes'])")
    env = {**os.environ, "HOME": str(home), "TMPDIR": str(temp),
           "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}
    done = subprocess.run([sys.executable, "-c", code], input=TUNE, capture_output=True,
                          text=True, env=env, timeout=120, check=True)
    assert done.stdout.strip() == "9"
    assert list(home.iterdir()) == [] and list(temp.iterdir()) == []


def test_compare_command_scores_two_tune_files(tmp_path: Path):
    from click.testing import CliRunner

    from diagbench.cli import cli

    (tmp_path / "gold.abc").write_text(TUNE, encoding="utf-8")
    (tmp_path / "pred.abc").write_text(TUNE.replace("B2", "G2"), encoding="utf-8")
    done = CliRunner().invoke(cli, ["compare", str(tmp_path / "gold.abc"),
                                    str(tmp_path / "pred.abc")])
    assert done.exit_code == 0, done.output
    # 8 events, one changed: 0.8 * 7/8 + 0.1 + 0.1 = 0.9
    assert "gold.abc: tune, valid, score 0.900" in done.output


def test_the_music21_contract_the_reader_relies_on(monkeypatch):
    """music21 is pinned to its major; within it, what the reader's measures-as-written
    step relies on: `translate.reBar(part, *, inPlace)` is looked up as a module global
    by `translate.abcToStreamScore`, called once per part, in place, and left in place
    it splits a 9/8 bar under `M:6/8` into two measures, which the reader keeps as one."""
    import inspect

    from music21.abcFormat import ABCHandler, translate

    tune = "X:1\nM:6/8\nL:1/8\nK:C\nCDE FGA Bcd|CDE FGA|\n"
    parameter = inspect.signature(translate.reBar).parameters["inPlace"]
    assert parameter.kind is inspect.Parameter.KEYWORD_ONLY
    calls: list[bool] = []
    real = translate.reBar

    def spy(part, *, inPlace=False):  # music21's keyword
        calls.append(inPlace)
        return real(part, inPlace=inPlace)

    monkeypatch.setattr(translate, "reBar", spy)
    handler = ABCHandler()
    handler.process(tune)
    split = translate.abcToStreamScore(handler)
    assert calls == [True]
    [part] = split.parts
    assert len(part.getElementsByClass("Measure")) == 3  # 6/8 + 3/8 + 6/8
    [voice] = _read(tune).diagram.voices
    assert [len(m.events) for m in voice.measures] == [9, 6]  # as written


def test_rewrite_halves_the_unit_and_doubles_every_length():
    """By hand, at L:1/16: A (1/8) is A2; B3/2 (3/16) is B3; c/ (1/16) is c; d// (1/32)
    is d/2; a chord's length after `]` doubles, its notes as written; tuplet numbers,
    bar counts (Z2), endings, annotations, decorations, inline fields, lyrics stay."""
    from diagbench.languages.abc.rewrite import halve_unit

    tune = ('X:1\nL:1/8\nK:C\nA B3/2 c/ d// [CEG]2 [C2E2] (3ABc z4 Z2 |1 A :|2 B|\n'
            '"Am" !trill!A2 [K:G] {g}A>B|\nw: la la\n')
    assert halve_unit(tune) == (
        'X:1\nL:1/16\nK:C\nA2 B3 c d/2 [CEG]4 [C2E2]2 (3A2B2c2 z8 Z2 |1 A2 :|2 B2|\n'
        '"Am" !trill!A4 [K:G] {g2}A2>B2|\nw: la la\n')
    assert halve_unit("X:1\nM:4/4\nK:C\nABc|\n") is None  # the default unit: no L:
    assert halve_unit("X:1\nL:1/8\nK:C\nAB [L:1/4] c|\n") is None


def test_a_rewritten_tune_scores_1_and_draws_the_same(tmp_path: Path):
    texts = [synth_abc(random.Random(seed), level) for seed in range(3)
             for level in ("low", "medium", "high")]
    rewritten = [ABC.rewrite(t, random.Random(seed)) for seed, t in enumerate(texts)]
    assert all(r is not None and r != t for r, t in zip(rewritten, texts, strict=True))
    assert [ABC.compare_code(t, r or "", True).score
            for t, r in zip(texts, rewritten, strict=True)] == [1.0] * len(texts)
    engine = Abcm2psEngine()
    again = [r or "" for r in rewritten]
    for before, after in zip(engine.render(texts, _folder(tmp_path / "a"), "svg"),
                             engine.render(again, _folder(tmp_path / "b"), "svg"), strict=True):
        assert before.image is not None and after.image is not None
        one, other = (r.image.read_text(encoding="utf-8") for r in (before, after))
        assert score_statistics(one) == score_statistics(other)
        assert drawn_pitches(one) == drawn_pitches(other)


def _folder(path: Path) -> Path:
    path.mkdir()
    return path
