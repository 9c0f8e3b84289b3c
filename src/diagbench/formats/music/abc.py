"""ABC music notation, read by music21 (`music21.abcFormat`: its tokenizer and its
translation to streams) into the music model (`diagbench.diagram.music`): one `Parsed`
per tune, a tune being an `X:` field line and the lines after it up to a blank line
(ABC 2.1 §2.2; text before the first `X:` is the file header, not read; a text
without any `X:` is one tune).

What music21 does differently from ABC 2.1 (and from abcm2ps, the engine), and what
the reader does about it:
- music21 refuses notes when neither `L:` nor `M:` sets the unit note length; ABC's
  default is an eighth (§3.1.7), which the reader gives music21 as an `L:1/8` line
  after the `X:` line;
- music21 reads a decoration in ABC 2.0's form (`+fermata+`) as notes; the reader
  gives it ABC 2.1's form (`!fermata!`, §4.14);
- music21's tokenizer skips what it does not know without a word: multi-measure rests
  (`Z4`), invisible rests (`x`), voice overlays (`&`), stray characters; and it reads
  an inline field (`[K:G]`) as a chord and then drops it. The reader finds music21's
  tokens in the text in order (`skipped`): text between them that is not spacing, a
  comment, a decoration (`!trill!`, `+f+`, `.~HLMOPSTuv`) or an annotation (`"Am"`)
  is a warning at its line ("music21 skips 'Z4'"), and so is an inline field;
- music21 divides a voice into measures only when it has two plain bar lines (`|`) or
  more: `G A|B c|]` is one measure to it, two to ABC and abcm2ps; the reader's handler
  divides at any bar line;
- music21's exceptions (a chord not closed, a tuplet it cannot handle, anything its
  translation raises) are an error at the line of the token it names, else of the
  last token it read; nothing is raised.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from diagbench.diagram.music import Event, Measure, Score, Voice
from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.parsed import Parsed

_TOKEN_IN_MESSAGE = re.compile(r"token: <music21\.abcFormat\.\w+ '(.*?)'>")
#: What may lie between music21's tokens: spacing, line continuations, comments,
#: decorations and annotations (ABC 2.1 §4.14, §4.19).
_QUIET = re.compile(r'\s+|\\|`|%[^\n]*|![^!\n]*!|\+[^+\n]*\+|"[^"\n]*"|[.~HLMOPSTuv]')
_ANNOTATION = re.compile(r'"[^"\n]*"')
_INLINE_FIELD = re.compile(r"\[[A-Za-z]:")
#: A decoration in ABC 2.0's form, `+trill+`: ABC 2.1's `!trill!` (§4.14), which
#: music21 knows; it reads `+fermata+` as notes.
_OLD_DECORATION = re.compile(r"\+([^+\s\"|]{1,30})\+")


def read_abc(text: str) -> list[Parsed[Score]]:
    """Every tune of an ABC source; never raises."""
    text = text.removeprefix("\ufeff")
    if not text.strip():
        return [_empty(1, Diagnostic(1, "", "empty source: no tune"))]
    lines = text.split("\n")
    return [_tune(k, first, lines[first - 1:last]) for k, (first, last)
            in enumerate(tune_spans(lines))] or [_empty(1, Diagnostic(1, "", "no tune"))]


def tune_spans(lines: list[str]) -> list[tuple[int, int]]:
    """The (first, last) 1-based lines of each tune: an `X:` line up to the line before a
    blank line (or the end); the whole text when no line is an `X:` field."""
    starts = [k for k, line in enumerate(lines) if line.startswith("X:")]
    if not starts:
        return [(1, len(lines))]
    spans = []
    for start in starts:
        end = start
        while (end + 1 < len(lines) and lines[end + 1].strip()
               and not lines[end + 1].startswith("X:")):
            end += 1
        spans.append((start + 1, end + 1))
    return spans


def tune_texts(text: str) -> list[str]:
    """The text of each tune of an ABC source (`tune_spans`), as an engine draws it."""
    lines = text.removeprefix("\ufeff").split("\n")
    return ["\n".join(lines[first - 1:last]) + "\n" for first, last in tune_spans(lines)
            if any(line.strip() for line in lines[first - 1:last])]


def _empty(line: int, *diagnostics: Diagnostic, index: int = 0) -> Parsed[Score]:
    return Parsed(index, line, "abc", "tune", Score(line=line), diagnostics)


def _tune(index: int, first: int, lines: list[str]) -> Parsed[Score]:
    """One tune (its lines, the first at line `first`) read by music21."""
    from music21.abcFormat import translate

    tune = "\n".join(lines)
    header = lines[:next((k for k, line in enumerate(lines) if line.startswith("K:")), len(lines))]
    given = _OLD_DECORATION.sub(r"!\1!", tune)  # same length: offsets hold
    if not any(line.startswith(("L:", "M:")) for line in header):
        given = given.replace("\n", "\nL:1/8\n", 1)  # ABC's default unit length
    handler = _handler_class()()
    try:
        handler.process(given)
        stream = translate.abcToStreamScore(handler)
        score = _score(stream, first)
    except Exception as exc:  # music21 raises many kinds on bad input: each is data here
        return _empty(first, _error(exc, tune, handler.tokens, lines, first), index=index)
    warnings = [Diagnostic(first + line - 1, lines[line - 1], reason, "warning")
                for line, reason in skipped(tune, handler.tokens)]
    return Parsed(index, first, "abc", "tune", score, tuple(warnings))


@cache
def _handler_class() -> Any:
    """music21's ABC handler, dividing a voice into measures at any bar line (see the
    module's docstring)."""
    from music21 import abcFormat

    class Handler(abcFormat.ABCHandler):
        def definesMeasures(self) -> bool:
            return any(isinstance(t, abcFormat.ABCBar) for t in self.tokens)

    return Handler


def _error(exc: Exception, tune: str, tokens: list[Any], lines: list[str],
           first: int) -> Diagnostic:
    """music21's exception as an error at the token it names, else after the last token
    it read."""
    named = _TOKEN_IN_MESSAGE.search(str(exc))
    offset = tune.find(named.group(1)) if named else -1
    if offset < 0:
        ends = [end for _, end in _token_spans(tune, tokens)]
        offset = ends[-1] if ends else 0
    line = tune[:offset].count("\n") + 1
    message = " ".join(str(exc).split())[:200]
    return Diagnostic(first + line - 1, lines[min(line, len(lines)) - 1],
                      f"music21: {type(exc).__name__}: {message}")


def _token_spans(tune: str, tokens: list[Any]) -> list[tuple[int, int]]:
    """Where each of music21's tokens is in the tune, in order (a token whose text is
    not found as written — music21 rewrites a few — is left out)."""
    spans, position = [], 0
    blank = _ANNOTATION.sub(lambda m: " " * len(m.group()), tune)  # offsets hold
    for token in tokens:
        src = _ANNOTATION.sub("", str(getattr(token, "src", ""))).strip()
        at = blank.find(src, position) if src else -1
        if at >= 0:
            spans.append((at, at + len(src)))
            position = at + len(src)
    return spans


def skipped(tune: str, tokens: list[Any]) -> list[tuple[int, str]]:
    """(line, reason) of what music21 read without a word of warning and left out: text
    between its tokens that is more than spacing, comments, decorations and
    annotations, and inline fields (see the module's docstring)."""
    found, position = [], 0
    for start, end in [*_token_spans(tune, tokens), (len(tune), len(tune))]:
        noise = _noise(tune, position, start)
        if noise >= 0:
            text = " ".join(_QUIET.sub(" ", tune[noise:start]).split())
            found.append((tune[:noise].count("\n") + 1,
                          f"music21 skips {text[:40]!r}: not in the counts"))
        if _INLINE_FIELD.match(tune, start):
            found.append((tune[:start].count("\n") + 1,
                          f"music21 ignores the inline field {tune[start:end]!r}"))
        position = max(position, end)
    return found


def _noise(tune: str, start: int, end: int) -> int:
    """The offset of the first character between `start` and `end` that is not quiet
    (`_QUIET`), or -1."""
    while start < end:
        quiet = _QUIET.match(tune, start, end)
        if quiet is None or not quiet.group():
            return start
        start = quiet.end()
    return -1


def _name(pitch: Any) -> str:
    """A pitch in scientific notation with ASCII accidentals: `Bb4`, `C#5`."""
    return str(pitch.nameWithOctave).replace("-", "b")


def _event(element: Any) -> Event | None:
    """The event of a music21 note, chord or rest (None for a chord symbol)."""
    if "Harmony" in element.classes:  # a chord symbol ("Am") is text above the staff
        return None
    duration = float(element.quarterLength)
    grace = bool(element.duration.isGrace)
    if element.isRest:
        return Event("rest", duration, grace=grace)
    pitches = list(element.pitches)
    tie = getattr(element, "tie", None)
    return Event("chord" if len(pitches) > 1 else "note", duration,
                 tuple(_name(p) for p in pitches), tuple(int(p.midi) for p in pitches),
                 grace, tie is not None and tie.type in ("stop", "continue"))


def _events(container: Any) -> tuple[Event, ...]:
    """The events of a measure (or of a part music21 did not divide into measures)."""
    return tuple(e for e in map(_event, container.recurse().notesAndRests) if e is not None)


def _key(part: Any) -> str:
    from music21 import key

    found = part.recurse().getElementsByClass(key.KeySignature).first()
    if not isinstance(found, key.Key):
        return ""
    return f"{found.tonic.name.replace('-', 'b')} {found.mode}"


def _score(stream: Any, line: int) -> Score:
    """The tune of a music21 score (parts → voices)."""
    from music21 import clef, meter

    voices = []
    for k, part in enumerate(stream.parts):
        first_clef = part.recurse().getElementsByClass(clef.Clef).first()
        found = list(part.getElementsByClass("Measure"))
        measures = tuple(Measure(int(m.number), _events(m)) for m in found) if found else (
            (Measure(1, _events(part)),) if part.recurse().notesAndRests else ())
        voices.append(Voice(str(k + 1), first_clef.name if first_clef is not None
                            and first_clef.name else "treble", measures))
    parts = list(stream.parts)
    signature = (parts[0].recurse().getElementsByClass(meter.TimeSignature).first()
                 if parts else None)
    title = stream.metadata.title if stream.metadata is not None else ""
    return Score(title or "", _key(parts[0]) if parts else "",
                 signature.ratioString if signature is not None else "", tuple(voices), line)
