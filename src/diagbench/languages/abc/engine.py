"""ABC tunes engraved by abcm2ps (GPL: a separate program, one process per tune, no
shell), SVG from `abcm2ps -g` (one tune, one SVG), PNG from that SVG by rsvg-convert
(another separate program, on a white background).

Sandbox: abcm2ps runs with `-S` (secure mode: no PostScript or file inclusion from the
tune), in an empty temporary directory that is also its HOME (no user format file is
read), the tune on its standard input, under a time-out; sources over
`result.MAX_SOURCE_BYTES` are refused. Valid means abcm2ps exits cleanly, reports no
"error" and writes an SVG; its first error (`stdin:LINE:COLUMN: error: …`) is the
result's error, with its line. Its warnings (a line underfull) do not make a tune
invalid. A source is one tune (`render.engines.diagrams` splits a file at its `X:`
fields); of a source with several, the first is drawn.

What the SVG shows (`score_statistics`), measured on abcm2ps 8.14 output: every symbol
is a `<use xlink:href="#id" x=… y=…>` of a definition — note heads `hd` (filled), `Hd`
(half), `HD` (whole), `HDD` (breve); grace-note heads `ghd`; rests `r0`…`r128` and
`mrest` (a multi-measure rest); clefs `tclef`, `bclef`, `cclef`, `pclef` (and their
small forms, `s…`, at a change). A staff is a path of five horizontal lines; a bar
line a vertical stroke path with a `stroke-width` whose lower end is a staff's lowest
line (across a system it reaches up to the staff above). A measure is a stretch of a
staff between two bar lines (or a staff's start or end) with a note or rest in it;
`measures` is the most any staff has, summed over the systems of that staff. The time
signature (`meter`) is a group of two texts scaled (1.2, 1), or `csig`/`ctsig` for C
and C|; the key signature (`key_sharps`, flats negative) the `sh…`/`ft…` signs on the
first staff between its clef and its time signature.
"""

from __future__ import annotations

import re
import tempfile
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from itertools import pairwise
from pathlib import Path
from typing import Any

from diagbench.render.drawing import DrawingEngine
from diagbench.render.programs import (
    program,
    program_version,
    rsvg_version,
    run_program,
    svg_to_png,
)

_MESSAGE = re.compile(r"^stdin:(\d+):(\d+): error: (.*)$", re.M)
_SVG = "{http://www.w3.org/2000/svg}"
_HREF = "{http://www.w3.org/1999/xlink}href"
_HEADS = {"hd", "Hd", "HD", "HDD"}
_RESTS = {"r0", "r1", "r2", "r4", "r8", "r16", "r32", "r64", "r128", "mrest"}
_CLEFS = {"tclef", "bclef", "cclef", "pclef", "stclef", "sbclef", "scclef", "spclef"}
_TRANSLATE = re.compile(r"translate\(([-\d.]+),")
_SCALE = re.compile(r"scale\(([\d.]+)")
_BAR = re.compile(r"^M([\d.]+) ([\d.]+)v-([\d.]+)$")
_STAFF = re.compile(r"^m([\d.]+) ([\d.]+)\s+h([\d.]+)((?:\s+M[\d.]+ [\d.]+\s+h[\d.]+){4})\s*$")


def draw_tune(source: str, timeout: float) -> dict[str, Any]:
    """{"svg": bytes, "png": bytes} of the source's first tune, or {"error": abcm2ps's
    first error, "line": its line}."""
    with tempfile.TemporaryDirectory(prefix="diagbench-abcm2ps-") as jail:
        done = run_program([program("abcm2ps"), "-S", "-q", "-g", "-O", "tune.svg", "-"],
                           timeout, stdin=source.encode("utf-8"), jail=jail)
        messages = (done.stderr + done.stdout).decode("utf-8", "replace")
        error = _MESSAGE.search(messages)
        written = sorted(Path(jail).glob("tune*.svg"))
        if error is not None:
            return {"error": f"abcm2ps: column {error.group(2)}: {error.group(3).strip()}",
                    "line": int(error.group(1))}
        if done.returncode:
            return {"error": (messages.strip().splitlines() or [f"exit {done.returncode}"])[0],
                    "line": None}
        if not written:
            return {"error": "abcm2ps drew no tune (no X: field or no music)", "line": None}
        svg = written[0].read_bytes()
    return {"svg": svg, "png": svg_to_png(svg, timeout)}


class Abcm2psEngine(DrawingEngine):
    """Engrave ABC tunes with abcm2ps, `jobs` at a time (see the module's docstring)."""

    name = "abcm2ps"
    drawer = "diagbench.languages.abc.engine:draw_tune"
    programs = True

    def version(self) -> str:
        """"abcm2ps 8.14.14 + rsvg-convert 2.54.7", as the programs say."""
        abcm2ps = program_version("abcm2ps", "-V", r"abcm2ps-(\S+)")
        return f"abcm2ps {abcm2ps} + rsvg-convert {rsvg_version()}"


def score_statistics(svg: str) -> dict[str, Any]:
    """What abcm2ps drew (see the module's docstring): note heads, grace-note heads,
    rests, clefs, staves (of one system, the most) and measures."""
    root = ET.fromstring(svg)
    scales = _scales(root)
    music = Counter(scales[id(p)] for p in root.iter(f"{_SVG}path")
                    if _STAFF.match(" ".join(p.get("d", "").split()))).most_common(1)
    symbols: list[tuple[str, float, float]] = []
    for use in root.iter(f"{_SVG}use"):
        # a symbol drawn at another scale than the staves is text's: a tempo's note
        if use.get("x") is not None and (not music or scales[id(use)] == music[0][0]):
            symbols.append((use.get(_HREF, "").lstrip("#"), float(use.get("x", 0)),
                            float(use.get("y", 0))))
    staves: list[tuple[float, float, float]] = []  # (bottom y, left x, right x)
    bars: list[tuple[float, float, float]] = []  # (x, bottom y, height)
    for path in root.iter(f"{_SVG}path"):
        d = " ".join(path.get("d", "").split())
        staff = _STAFF.match(d)
        if staff is not None:
            left = float(staff.group(1))
            staves.append((float(staff.group(2)), left, left + float(staff.group(3))))
        bar = _BAR.match(d)
        if bar is not None and path.get("stroke-width") is not None:
            bars.append((float(bar.group(1)), float(bar.group(2)), float(bar.group(3))))
    kinds = [name for name, _, _ in symbols]
    systems = _systems(sorted(staves), bars)
    marks: dict[tuple[float, float, float], list[float]] = defaultdict(list)
    for name, x, y in symbols:
        if name in _HEADS | _RESTS and staves:
            marks[_nearest(staves, y)].append(x)
    per_voice: dict[int, int] = defaultdict(int)
    for system in systems:
        for k, row in enumerate(system):
            per_voice[k] += _filled(row, bars, marks[row])
    meters = _meters(root)
    first = systems[0][0] if systems else None
    return {"notes": sum(k in _HEADS for k in kinds), "grace_notes": kinds.count("ghd"),
            "rests": sum(k in _RESTS for k in kinds), "clefs": sum(k in _CLEFS for k in kinds),
            "voices": max(map(len, systems), default=0),
            "measures": max(per_voice.values(), default=0),
            "meter": meters[0][1] if meters else "",
            "key_sharps": _signature(first, staves, symbols, meters) if first else 0}


def _scales(root: ET.Element) -> dict[int, float]:
    """The scale each element is drawn at (by `id`): the product of the `scale(…)` of
    the groups around it (abcm2ps scales the music by `%%scale`, and a tempo's note in
    `Q:` smaller still)."""
    out: dict[int, float] = {}

    def walk(element: ET.Element, scale: float) -> None:
        for child in element:
            found = _SCALE.search(child.get("transform", "")) if child.tag == f"{_SVG}g" \
                else None
            inner = scale * float(found.group(1)) if found else scale
            out[id(child)] = inner
            walk(child, inner)

    walk(root, 1.0)
    return out


def _meters(root: ET.Element) -> list[tuple[float, str]]:
    """(x, "6/8") of each time signature drawn, in drawing order: a group scaled
    (1.2, 1) of two texts, the numerator 12 units up; `csig` is C (4/4), `ctsig` C|
    (2/2)."""
    found = []
    for element in root.iter():
        if element.tag == f"{_SVG}g" and "scale(1.2,1)" in element.get("transform", ""):
            texts = {t.get("y", "0"): (t.text or "").strip() for t in element.iter(f"{_SVG}text")}
            shift = _TRANSLATE.search(element.get("transform", ""))
            if shift is not None and "-12" in texts and "0" in texts:
                found.append((float(shift.group(1)), f"{texts['-12']}/{texts['0']}"))
        elif element.tag == f"{_SVG}use" and element.get("x") is not None:
            common = {"#csig": "4/4", "#ctsig": "2/2"}.get(element.get(_HREF, ""))
            if common is not None:
                found.append((float(element.get("x", 0)), common))
    return found


def _signature(staff: tuple[float, float, float], staves: list[tuple[float, float, float]],
               symbols: list[tuple[str, float, float]], meters: list[tuple[float, str]]) -> int:
    """The key signature at the start of a staff: the sharps (or flats, negative) drawn
    after its clef, before its time signature (else 12 units before its first note or
    rest, where the first note's own accidental would be)."""
    mine = [(name, x) for name, x, y in symbols if _nearest(staves, y) == staff]
    clef = min((x for name, x in mine if name in _CLEFS), default=staff[1])
    first = min((x for name, x in mine if name in _HEADS | _RESTS), default=staff[2])
    end = min((x for x, _ in meters if clef < x < first), default=first - 12)
    signs = [name[:2] for name, x in mine if clef < x < end and name[:2] in ("sh", "ft")]
    return signs.count("sh") - signs.count("ft")


#: A staff's height (five lines six units apart, at abcm2ps's default scale).
STAFF_HEIGHT = 24.0


def _systems(staves: list[tuple[float, float, float]],
             bars: list[tuple[float, float, float]]) -> list[list[tuple[float, float, float]]]:
    """The staves (top to bottom) grouped into systems: a staff belongs to the system
    of the staff above when a bar line drawn from its bottom reaches past its top."""
    systems: list[list[tuple[float, float, float]]] = []
    for staff in staves:
        joined = any(abs(y - staff[0]) < 0.5 and h > STAFF_HEIGHT + 1 for _, y, h in bars)
        if joined and systems:
            systems[-1].append(staff)
        else:
            systems.append([staff])
    return systems


def _filled(staff: tuple[float, float, float], bars: list[tuple[float, float, float]],
            xs: list[float]) -> int:
    """The measures of one staff of one system: stretches between its bar lines (and its
    ends) with one of its note heads or rests (at `xs`) in them."""
    bottom, left, right = staff
    edges = _merged(sorted({round(x) for x, y, _ in bars if abs(y - bottom) < 0.5}))
    cuts = [left, *edges, right + 1]
    return sum(any(a < x < b for x in xs) for a, b in pairwise(cuts))


def _merged(edges: list[int]) -> list[int]:
    """Bar lines drawn as two strokes a few points apart (`||`, `|]`, `:|`) as one."""
    merged: list[int] = []
    for x in edges:
        if merged and x - merged[-1] <= 8:
            continue
        merged.append(x)
    return merged


def _nearest(staves: list[tuple[float, float, float]], y: float) -> tuple[float, float, float]:
    """The staff whose middle line is nearest to `y`."""
    return min(staves, key=lambda s: abs(s[0] - STAFF_HEIGHT / 2 - y))
