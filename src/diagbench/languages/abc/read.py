"""ABC music notation, read by music21 (`music21.abcFormat`: its tokenizer and its
translation to streams) into the music model (`diagbench.diagram.music`): one `Parsed`
per tune, a tune being an `X:` field line and the lines after it up to a blank line
(ABC 2.1 §2.2; text before the first `X:` is the file header, not read; a text
without any `X:` is one tune).

What music21 does differently from ABC 2.1 (and from abcm2ps, the engine), and what
the reader does about it:
- music21 reads ABC 1.3 unless the file starts with `%abc-2.x` (and the reader reads a
  tune without its file header): an accidental then holds for its one note. In ABC 2.x
  (§4.2, §11.4) and in common notation an accidental holds to the end of the bar;
  abcm2ps draws it once (`^G A G|` shows one sharp, read G#4 A4 G#4) and ignores
  `%%propagate-accidentals`, drawing `^G g|` without a sign on `g`, which a musician
  reads G5: an accidental holds for notes of its octave (ABC's `octave`
  propagation), whatever the file says, as the engraving shows it. music21 carries
  none in ABC 1.3 and, in 2.x, none from a chord's notes; the reader carries them
  itself (`carry_accidentals`), from notes, chords and grace notes alike; a note tied
  across the bar line keeps its accidental (abcm2ps draws no sign on it);
- music21 refuses notes when neither `L:` nor `M:` sets the unit note length; ABC's
  default is an eighth (§3.1.7), which the reader gives music21 as an `L:1/8` line
  after the `X:` line;
- music21 reads a decoration in ABC 2.0's form (`+fermata+`) as notes; the reader
  gives it ABC 2.1's form (`!fermata!`, §4.14);
- music21's tokenizer skips what it does not know without a word: multi-measure rests
  (`Z4`), invisible rests (`x`), voice overlays (`&`), stray characters; and it reads
  an inline field (`[K:G]`) as a chord and then drops it. The reader gives music21 an
  inline key, unit, meter or voice field (`K`, `L`, `M`, `V`) as a field line of its
  own (the same length of text: `\nK:G\n`), which it reads. The reader finds music21's
  tokens in the text in order (`skipped`): text between them that is not spacing, a
  comment, a decoration (`!trill!`, `+f+`, `.~HLMOPSTuv`) or an annotation (`"Am"`)
  is a warning at its line ("music21 skips 'Z4'"), and so is an inline field;
- music21 divides a voice into measures only when it has two plain bar lines (`|`) or
  more: `G A|B c|]` is one measure to it, two to ABC and abcm2ps; the reader's handler
  divides at any bar line;
- music21 splits a measure longer than its meter into two (`translate.reBar`), the
  note across the cut into two tied ones; ABC and abcm2ps keep the measure as written
  (a 9/8 bar under `M:6/8` is one bar), and so does the reader: it translates with
  that step left out (a lock keeps other threads' music21 from seeing it; music21 is
  pinned to its major, and a test checks the contract this relies on);
- music21's own warnings (written on stderr: "could not get pitch information …,
  assuming C") are warnings at the tune's first line;
- music21 starts a part at each `V:` section whose id starts with a digit: a voice
  written in sections (`V:1 … V:2 … V:1 …`) is two parts to it, a voice `V:T1` none;
  abcm2ps draws one staff per voice id. The reader's handler splits at every `V:`
  after `K:` and joins a voice's sections (`voice_sections`);
- music21 is lenient where ABC is not: it drops what is not a note inside a chord
  (`[CyE]`), reads a grace group `{` left open, and reads any length (`C5`, a half
  tied to an eighth to it); abcm2ps rejects them, and the reader reports each as
  an error (`rejected`, `undrawable`), the model read as music21 read it;
- music21's exceptions (a chord not closed, a tuplet it cannot handle, anything its
  translation raises) are an error at the line of the token it names, else of the
  last token it read; nothing is raised.
"""

from __future__ import annotations

import contextlib
import io
import re
import threading
from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import pairwise
from typing import Any

from diagbench.diagram.music import Event, Measure, Score, Voice
from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.parsed import Parsed

_LOCK = threading.Lock()
#: The tunes whose reading a process keeps (`_tune`).
KEPT_TUNES = 1024
_TOKEN_IN_MESSAGE = re.compile(r"token: <music21\.abcFormat\.\w+ '(.*?)'>")
#: What may lie between music21's tokens: spacing, line continuations, comments,
#: decorations and annotations (ABC 2.1 §4.14, §4.19), and the numbers of variant
#: endings right after a bar (`|1`, `:|2`, `[1,3`: §4.9).
_QUIET = re.compile(r'\s+|\\|`|%[^\n]*|![^!\n]*!|\+[^+\n]*\+|"[^"\n]*"|[.~HLMOPSTuv]'
                    r'|(?<=[|\[])\d+(?:[,-]\d+)*')
_ANNOTATION = re.compile(r'"[^"\n]*"')
_LATE_OCTAVE = re.compile(r"[0-9/][,']")
_INLINE_FIELD = re.compile(r"\[[A-Za-z]:")
#: Inline fields music21 reads when they stand on a line of their own.
_MOVABLE_FIELD = re.compile(r"\[([KLMV]:[^\]\n]*)\]")
#: A decoration in ABC 2.0's form, `+trill+`: ABC 2.1's `!trill!` (§4.14), which
#: music21 knows; it reads `+fermata+` as notes.
_OLD_DECORATION = re.compile(r"\+([^+\s\"|]{1,30})\+")


def read_abc(text: str) -> list[Parsed[Score]]:
    """Every tune of an ABC source; never raises."""
    text = text.removeprefix("\ufeff")
    if not text.strip():
        return [_empty(1, Diagnostic(1, "", "empty source: no tune"))]
    lines = text.split("\n")
    return [_tune(k, first, tuple(lines[first - 1:last])) for k, (first, last)
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


def tune_texts(text: str) -> list[tuple[int, str]]:
    """(first line, text) of each tune of an ABC source (`tune_spans`), as an engine
    draws it."""
    lines = text.removeprefix("\ufeff").split("\n")
    return [(first, "\n".join(lines[first - 1:last]) + "\n")
            for first, last in tune_spans(lines)
            if any(line.strip() for line in lines[first - 1:last])]


def _empty(line: int, *diagnostics: Diagnostic, index: int = 0) -> Parsed[Score]:
    return Parsed(index, line, "abc", "tune", Score(line=line), diagnostics)


@lru_cache(maxsize=KEPT_TUNES)
def _tune(index: int, first: int, lines: tuple[str, ...]) -> Parsed[Score]:
    """One tune (its lines, the first at line `first`) read by music21, kept for the
    next reading of the same tune at the same place (a build reads each tune, then
    its models read it again to ask and judge)."""
    from music21.abcFormat import translate

    tune = "\n".join(lines)
    header = lines[:next((k for k, line in enumerate(lines) if line.startswith("K:")), len(lines))]
    body = normalised(tune)
    given = body
    if not any(line.startswith(("L:", "M:")) for line in header):
        given = given.replace("\n", "\nL:1/8\n", 1)  # ABC's default unit length
    handler = _handler_class()()
    said = io.StringIO()
    try:
        with _LOCK, contextlib.redirect_stderr(said):  # music21 warns on stderr
            handler.process(given)
            rebar, translate.reBar = translate.reBar, _written_bars  # see the docstring
            try:
                stream = translate.abcToStreamScore(handler)
            finally:
                translate.reBar = rebar
        voices, _ = voice_sections(handler.tokens)
        score = _score(stream, first, list(voices) if len(voices) > 1 else [])
    except Exception as exc:  # music21 raises many kinds on bad input: each is data here
        return _empty(first, _error(exc, body, handler.tokens, lines, first), index=index)
    found = [Diagnostic(first + line - 1, lines[line - 1], reason)
             for line, reason in rejected(body, handler.tokens, tune)]
    found += [Diagnostic(first, lines[0], reason) for reason in undrawable(stream)]
    found += [Diagnostic(first + line - 1, lines[line - 1], reason, "warning")
              for line, reason in skipped(body, handler.tokens, tune)]
    found += [Diagnostic(first, lines[0], f"music21: {' '.join(w.split())[:200]}", "warning")
              for w in said.getvalue().split("WARNING:")[1:] if w.strip()]
    return Parsed(index, first, "abc", "tune", score, tuple(found))


def _written_bars(part: Any, *, inPlace: bool = False) -> Any:
    """music21's `translate.reBar` while the reader translates: measures as written."""
    return part


@cache
def _handler_class() -> Any:
    """music21's ABC handler, dividing a voice into measures at any bar line (see the
    module's docstring)."""
    from music21 import abcFormat

    class Handler(abcFormat.ABCHandler):
        def _accidentalPropagation(self) -> str:
            """Each note as written: `carry_accidentals` carries them, chords included."""
            return "not"

        def definesMeasures(self) -> bool:
            return any(isinstance(t, abcFormat.ABCBar) for t in self.tokens)

        def splitByVoice(self) -> list[Any]:
            """[the header, then one handler per voice id, its sections joined]."""
            voices, header = voice_sections(self.tokens)
            if len(voices) <= 1:
                return [self._of(self.tokens)]
            return [self._of(header), *(self._of(t) for t in voices.values())]

        def _of(self, tokens: list[Any]) -> Any:
            handler = self.__class__()
            handler.tokens = tokens
            return handler

    return Handler


def voice_sections(tokens: list[Any]) -> tuple[dict[str, list[Any]], list[Any]]:
    """The tokens of each voice by its id (`V:1`, `V:T1`: the first word), its sections
    in order, a voice declared in the header (before `K:`) starting with that
    declaration; and the header's other tokens."""
    from music21.abcFormat import ABCMetadata

    def voice(token: Any) -> str | None:
        is_voice = isinstance(token, ABCMetadata) and token.isVoice() and token.data
        return str(token.data).split()[0] if is_voice else None

    body = next((k + 1 for k, t in enumerate(tokens)
                 if isinstance(t, ABCMetadata) and t.isKey()), 0)
    voices: dict[str, list[Any]] = {}
    for token in tokens[:body]:
        name = voice(token)
        if name is not None:
            voices.setdefault(name, []).append(token)
    starts = [k for k in range(body, len(tokens)) if voice(tokens[k]) is not None]
    header = [t for t in tokens[:starts[0] if starts else len(tokens)] if voice(t) is None]
    for start, end in pairwise([*starts, len(tokens)]):
        voices.setdefault(str(voice(tokens[start])), []).extend(tokens[start:end])
    return voices, header


def normalised(tune: str) -> str:
    """The tune as the reader gives it to music21, every offset kept (see the module's
    docstring): `+trill+` as `!trill!`, an inline `[K:G]` (`K`, `L`, `M`, `V`) as a
    field line of its own."""
    tune = _OLD_DECORATION.sub(r"!\1!", tune)
    return _MOVABLE_FIELD.sub(lambda m: f"\n{m.group(1)}\n", tune)


def _line(tune: str, offset: int) -> int:
    """The 1-based line of `tune` an offset is on (the normalised text has more line
    breaks, at the same offsets)."""
    return tune[:offset].count("\n") + 1


def _error(exc: Exception, body: str, tokens: list[Any], lines: Sequence[str],
           first: int) -> Diagnostic:
    """music21's exception as an error at the token it names, else after the last token
    it read."""
    named = _TOKEN_IN_MESSAGE.search(str(exc))
    offset = body.find(named.group(1)) if named else -1
    if offset < 0:
        ends = [end for _, end in _token_spans(body, tokens)]
        offset = ends[-1] if ends else 0
    line = _line("\n".join(lines), offset)
    message = " ".join(str(exc).split())[:200]
    return Diagnostic(first + line - 1, lines[min(line, len(lines)) - 1],
                      f"music21: {type(exc).__name__}: {message}")


def _token_spans(tune: str, tokens: list[Any]) -> list[tuple[int, int]]:
    """Where each of music21's tokens is in the tune, in order (a token whose text is
    not found as written — music21 rewrites a few — is left out)."""
    return [(start, end) for _, start, end in _located(tune, tokens)]


def _located(tune: str, tokens: list[Any]) -> list[tuple[Any, int, int]]:
    """(token, start, end) of each of music21's tokens found in the tune, in order."""
    found, position = [], 0
    blank = _ANNOTATION.sub(lambda m: " " * len(m.group()), tune)  # offsets hold
    for token in tokens:
        src = _ANNOTATION.sub("", str(getattr(token, "src", ""))).strip()
        at = blank.find(src, position) if src else -1
        if at >= 0:
            found.append((token, at, at + len(src)))
            position = at + len(src)
    return found


def rejected(body: str, tokens: list[Any], tune: str) -> list[tuple[int, str]]:
    """(line of `tune`, reason) of what music21 reads but ABC (and abcm2ps) does not
    allow: a chord holding something that is not a note (`[CyE]`, `[CE:]`: music21
    drops it), a grace-note group `{` not closed before the next bar line or a `}`
    closing none, an octave mark after a note's length (`c4,`)."""
    from music21.abcFormat import ABCBar, ABCChord, ABCGraceStart, ABCGraceStop, ABCNote

    found, grace = [], -1
    for token, start, end in _located(body, tokens):
        if isinstance(token, ABCChord) and not _INLINE_FIELD.match(body, start):
            inner = _QUIET.sub("", body[start + 1:body.find("]", start, end + 1)])
            stray = "".join(c for c in inner if c not in "ABCDEFGabcdefgz^_=,'0123456789/")
            if stray:
                found.append((_line(tune, start), f"{stray[0]!r} in a chord is not a note"))
        elif isinstance(token, ABCNote) and _LATE_OCTAVE.search(body, start, end):
            found.append((_line(tune, start), "an octave mark after the length "
                          f"({body[start:end]!r}: ABC writes c,4)"))
        elif isinstance(token, ABCGraceStart):
            grace = start
        elif isinstance(token, ABCGraceStop):
            if grace < 0:
                found.append((_line(tune, start), "'}' closes no grace notes '{'"))
            grace = -1
        elif isinstance(token, ABCBar) and grace >= 0:
            found.append((_line(tune, grace), "grace notes '{' not closed by '}'"))
            grace = -1
    if grace >= 0:
        found.append((_line(tune, grace), "grace notes '{' not closed by '}'"))
    return found


#: Note values abcm2ps draws (a head with dots; music21's "complex" needs a tie).
_DRAWABLE = {"longa", "breve", "whole", "half", "quarter", "eighth", "16th", "32nd", "64th",
             "128th"}


def undrawable(stream: Any) -> list[str]:
    """Notes and rests whose length is no note value with dots (`C5` at `L:1/8`: a half
    tied to an eighth to music21; abcm2ps: "Note too much dotted", "Bad length")."""
    found = []
    for k, part in enumerate(stream.parts):
        for element in part.recurse().notesAndRests:
            duration = element.duration
            if not duration.isGrace and "Harmony" not in element.classes \
                    and duration.type not in _DRAWABLE:
                measure = element.getContextByClass("Measure")
                where = f"voice {k + 1}" + (f", measure {measure.number}" if measure else "")
                found.append(f"{where}: a length of {float(element.quarterLength):g} quarter "
                             "notes is no note value")
    return found


def skipped(body: str, tokens: list[Any], tune: str) -> list[tuple[int, str]]:
    """(line of `tune`, reason) of what music21 read without a word of warning and left
    out of `body` (the tune `normalised`): text between its tokens that is more than
    spacing, comments, decorations and annotations, and inline fields (see the
    module's docstring)."""
    found, position = [], 0
    for start, end in [*_token_spans(body, tokens), (len(body), len(body))]:
        noise = _noise(body, position, start)
        if noise >= 0:
            text = " ".join(_QUIET.sub(" ", body[noise:start]).split())
            found.append((_line(tune, noise), f"music21 skips {text[:40]!r}: not in the counts"))
        if _INLINE_FIELD.match(body, start):
            found.append((_line(tune, start),
                          f"music21 ignores the inline field {body[start:end]!r}"))
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


def _key(part: Any) -> tuple[str, int]:
    """(key name or "", sharps of its signature: flats negative) of a part's first key."""
    from music21 import key

    found = part.recurse().getElementsByClass(key.KeySignature).first()
    if found is None:
        return "", 0
    if not isinstance(found, key.Key):
        return "", int(found.sharps)
    return f"{found.tonic.name.replace('-', 'b')} {found.mode}", int(found.sharps)


def carry_accidentals(part: Any) -> None:
    """Give each note without an accidental of its own the one written before it in its
    bar on the same letter and octave, and a note tied from the bar before its first
    note's pitch (see the module's docstring); in place."""
    from music21 import pitch

    bars = list(part.getElementsByClass("Measure")) or [part]
    before: Any = None
    for bar in bars:
        written: dict[tuple[str, int | None], float] = {}
        for element in bar.recurse().notes:
            tie = getattr(element, "tie", None)
            tied = tie is not None and tie.type in ("stop", "continue") and before is not None
            for p in element.pitches:
                place = (p.step, p.octave)
                if p.accidental is not None and p.accidental.displayStatus:
                    written[place] = p.accidental.alter
                    continue
                source = next((q for q in before.pitches if (q.step, q.octave) == place),
                              None) if tied else None
                alter = source.alter if source is not None else written.get(place)
                if alter is not None and alter != p.alter:
                    p.accidental = pitch.Accidental(alter)
                    p.accidental.displayStatus = False
            before = element


def _score(stream: Any, line: int, ids: list[str]) -> Score:
    """The tune of a music21 score (parts → voices, named by `ids` when there are as
    many, else 1, 2, …)."""
    from music21 import clef, meter

    voices = []
    for k, part in enumerate(stream.parts):
        carry_accidentals(part)
        first_clef = part.recurse().getElementsByClass(clef.Clef).first()
        found = list(part.getElementsByClass("Measure"))
        measures = tuple(Measure(int(m.number), _events(m)) for m in found) if found else (
            (Measure(1, _events(part)),) if part.recurse().notesAndRests else ())
        voices.append(Voice(ids[k] if len(ids) == len(stream.parts) else str(k + 1),
                            first_clef.name if first_clef is not None
                            and first_clef.name else "treble", measures))
    parts = list(stream.parts)
    signature = (parts[0].recurse().getElementsByClass(meter.TimeSignature).first()
                 if parts else None)
    title = stream.metadata.title if stream.metadata is not None else ""
    name, sharps = _key(parts[0]) if parts else ("", 0)
    return Score(title or "", name, signature.ratioString if signature is not None else "",
                 tuple(voices), line, sharps)
