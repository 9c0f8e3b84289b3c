"""The typed model of one tune of music notation (paper 004 Table 1: musical notation):
its title, key, meter, and its voices, each a clef and a list of measures of events
(notes, chords, rests), as written — repeats are not expanded.

`Score.counts()` are what the engraver draws (`diagbench.languages.abc.engine`):
- `notes`: note heads of sounding notes — a single note is one, a chord one per pitch
  (a tied note's continuation is a note of its own: it has its own head); grace notes
  are not notes (they are `grace_notes`, drawn small);
- `chords`: chords (two pitches or more struck together), `rests`: rests drawn
  (invisible `x` rests are not drawn, and not read);
- `measures`: the measures of the longest voice (a pickup is a measure), `voices`.
The size of a tune (its node limits) is `notes`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from diagbench.diagram.facts import Fact

EventKind = Literal["note", "chord", "rest"]


@dataclass(frozen=True, slots=True)
class Event:
    """A note, chord or rest: its pitches (names with octave, `Bb4`, `C#5`; none for a
    rest), their MIDI numbers, its duration in quarter notes, whether it is a grace
    note (drawn small, no duration of its own) and whether it continues a tie."""

    kind: EventKind
    duration: float
    pitches: tuple[str, ...] = ()
    midi: tuple[int, ...] = ()
    grace: bool = False
    tied: bool = False


@dataclass(frozen=True, slots=True)
class Measure:
    """One measure: its number as the reader counts them (a pickup is 0) and events."""

    number: int
    events: tuple[Event, ...] = ()


@dataclass(frozen=True, slots=True)
class Voice:
    """One voice (one staff as the engraver draws it): its id (the `V:` field's, else
    "1"), clef and measures."""

    id: str
    clef: str = "treble"
    measures: tuple[Measure, ...] = ()

    def events(self) -> list[Event]:
        return [e for m in self.measures for e in m.events]


@dataclass(frozen=True, slots=True)
class Score:
    """One tune: title, key ("D major", "E minor"; "" when none is given), meter
    ("6/8"; "" when none), its voices in order, the line of its `X:` field, and its
    key signature's sharps (flats negative: E♭ major is -3)."""

    title: str = ""
    key: str = ""
    meter: str = ""
    voices: tuple[Voice, ...] = ()
    line: int = field(default=0, compare=False)
    sharps: int = 0

    def events(self) -> list[Event]:
        """Every event of every voice, voice after voice."""
        return [e for v in self.voices for e in v.events()]

    def melody(self) -> list[Event]:
        """The sounding events (notes and chords, not grace notes, not rests), voice
        after voice."""
        return [e for e in self.events() if e.kind != "rest" and not e.grace]

    def counts(self) -> dict[str, int]:
        events = self.events()
        sounding = [e for e in events if not e.grace]
        return {"voices": len(self.voices),
                "measures": max((len(v.measures) for v in self.voices), default=0),
                "notes": sum(len(e.pitches) for e in sounding if e.kind != "rest"),
                "chords": sum(e.kind == "chord" for e in sounding),
                "rests": sum(e.kind == "rest" for e in sounding),
                "grace_notes": sum(len(e.pitches) for e in events if e.grace)}


def music_facts(score: Score) -> list[Fact]:
    """The facts of a tune: its title, key, time signature, first voice's clef and first
    note (identification); how many notes, measures and rests (quantification); its
    highest and lowest note, when one pitch is, and whether it has a chord
    (structural)."""
    counts = score.counts()
    facts = []
    if score.title:
        facts.append(Fact("identification", "title", "What is the title of the tune?",
                          score.title))
    if score.key:
        facts.append(Fact("identification", "key", "What is the key of the tune "
                          "(tonic and mode, e.g. 'G major')?", score.key))
    if score.meter:
        facts.append(Fact("identification", "meter",
                          "What is the time signature (e.g. '3/4')?", score.meter))
    if score.voices:
        facts.append(Fact("identification", "clef",
                          "What clef does the first staff start with?", score.voices[0].clef))
    melody = score.melody()
    if melody and melody[0].kind == "note":
        facts.append(Fact("identification", "first-note", "What is the first note, with "
                          "its octave (scientific pitch notation, e.g. 'C4')?",
                          melody[0].pitches[0]))
    facts += [
        Fact("quantification", "notes", "How many note heads does the score show "
             "(each note of a chord counted, grace notes not)?", counts["notes"]),
        Fact("quantification", "measures", "How many measures does the longest staff "
             "have?", counts["measures"]),
        Fact("quantification", "rests", "How many rests does the score show?",
             counts["rests"]),
    ]
    pitches = sorted({(m, p) for e in melody for m, p in zip(e.midi, e.pitches, strict=True)})
    for subject, end in (("highest", -1), ("lowest", 0)):
        if pitches and [m for m, _ in pitches].count(pitches[end][0]) == 1:
            facts.append(Fact("structural", f"{subject}-note", f"Which is the {subject} "
                              "note, with its octave (e.g. 'C4')?", pitches[end][1]))
    facts.append(Fact("structural", "has-chord", "Does the score contain a chord (notes "
                      "stacked on one stem)?", counts["chords"] > 0))
    return facts
