"""Image-to-code similarity of tunes (ABC): how much of the gold tune's notes, key and
meter a predicted tune reproduces.

Both codes are read by the language's reader; of each, the first tune. Its melody is
the sequence of its events — notes, chords and rests, not grace notes — voice after
voice (the flattened score, as the staves are read top to bottom), each event a
(pitch, duration) pair: pitches by name with octave (`Bb4`: the drawing tells `A#4`
from `Bb4`), a chord's pitches joined low to high, "rest" for a rest, durations in
quarter notes. The score is `metrics.music_score` of the `sequence_similarity` of the
two melodies and whether the key and the meter match; a prediction that does not read
(an error, or no event) scores 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from diagbench.compare.graph import model_of
from diagbench.diagram.music import Event, Score
from diagbench.formats.parsed import Diagram, Parsed
from diagbench.scoring import metrics

Item = tuple[str, Fraction]


def melody_items(score: Score) -> list[Item]:
    """The (pitch, duration) items of a tune (see the module's docstring)."""
    return [(_pitch(e), Fraction(e.duration).limit_denominator(192))
            for e in score.events() if not e.grace]


def _pitch(event: Event) -> str:
    if event.kind == "rest":
        return "rest"
    return "+".join(p for _, p in sorted(zip(event.midi, event.pitches, strict=True)))


@dataclass(frozen=True, slots=True)
class MusicComparison:
    """The comparison of a predicted tune with the gold one."""

    valid: bool
    gold_items: tuple[Item, ...]
    pred_items: tuple[Item, ...]
    key_match: bool
    meter_match: bool
    gold_counts: dict[str, int] = field(default_factory=dict)
    pred_counts: dict[str, int] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    kind = "tune"

    @property
    def melody(self) -> float:
        return metrics.sequence_similarity(self.gold_items, self.pred_items)

    @property
    def score(self) -> float:
        return metrics.music_score(self.valid, self.melody, self.key_match, self.meter_match)

    @property
    def counts_score(self) -> float:
        return metrics.strudel_count_score(self.valid, self.gold_counts, self.pred_counts)

    def as_dict(self) -> dict[str, Any]:
        return {"status": "ok", "kind": self.kind, "valid": self.valid,
                "gold_events": len(self.gold_items), "pred_events": len(self.pred_items),
                "melody": round(self.melody, 6), "key_match": self.key_match,
                "meter_match": self.meter_match, "score": round(self.score, 6),
                "counts_score": round(self.counts_score, 6), "warnings": list(self.warnings)}


def _tune(parsed: Parsed[Diagram] | None) -> tuple[Score | None, tuple[str, ...]]:
    """The first tune of `text`, or None (with why) when it has an error or no event."""
    model, _, warnings = model_of(parsed)
    if warnings or not isinstance(model, Score) or not model.events():
        return None, warnings or ("no tune",)
    return model, ()


def compare_scores(gold_read: Parsed[Diagram], pred_read: Parsed[Diagram] | None,
                   valid: bool) -> MusicComparison:
    """Compare a predicted ABC tune with its gold one (both read by its
    language's reader)."""
    gold, _ = _tune(gold_read)
    pred, warnings = _tune(pred_read)
    if gold is None or pred is None:
        return MusicComparison(False, tuple(melody_items(gold)) if gold else (), (),
                               False, False, gold.counts() if gold else {}, {}, warnings)
    return MusicComparison(valid, tuple(melody_items(gold)), tuple(melody_items(pred)),
                           gold.key == pred.key, gold.meter == pred.meter, gold.counts(),
                           pred.counts(), warnings)
