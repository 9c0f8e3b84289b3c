"""PlantUML as the oracle of `parse_sequence`: render, count what was drawn, compare.

Each source is rendered to SVG by the pinned PlantUML in one warm batch
(`PlantUMLEngine`), with the element markers of `svg_stats.SEQUENCE_MARKERS`
so that notes, groups and boxes can be counted beside the participants and
messages PlantUML marks itself. Under `!pragma teoz true` the SVG carries no
element classes, so a teoz diagram is compared through the same diagram
rendered without the pragma (and must also render cleanly with it).
"""

from __future__ import annotations

import html
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from diagbench.formats.plantuml import parse_sequence
from diagbench.render.plantuml_pipe import PlantUMLEngine
from diagbench.render.svg_stats import BOX_MARK, GROUP_MARK, NOTE_MARK, mark_sequence

_DIAGRAM_TYPE = re.compile(r'data-diagram-type="(\w+)"')
#: What is not a rectangle's place and size (a coloured group's frame is drawn filled, then
#: as a border).
_GEOMETRY = re.compile(r'\s(?:fill|style)="[^"]*"')
_ELEMENT = re.compile(r"<(path|polygon|rect)\b([^>]*)/>")
_LIFELINE = re.compile(
    r'<g class="participant-lifeline" data-entity-uid="([^"]*)" data-qualified-name="([^"]*)"')
_MESSAGE = re.compile(r'<g class="message" data-entity-1="([^"]*)" data-entity-2="([^"]*)"')
_BORDERS = frozenset({"[", "]", "?"})
#: The warning on a note the parser read but PlantUML does not draw (a block without a line).
UNDRAWN_NOTE = "note without a line"


@dataclass(frozen=True)
class Verdict:
    """The comparison of one source: what differs (empty when they agree)."""

    differences: tuple[str, ...]
    engine_error: str | None = None
    #: source lines the parser reported as errors
    error_lines: tuple[int, ...] = ()

    @property
    def agrees(self) -> bool:
        return not self.differences and self.engine_error is None


def sequence_drawing(svg: str) -> dict[str, object]:
    """What PlantUML drew in a sequence diagram rendered from `mark_sequence(source)`.

    {"diagram_type", "participants": [ids in drawing order], "messages": [(from id, to id)]
    (a message to or from the border has the participant at both ends), "notes", "groups",
    "boxes"}. A note is one folded body (its corner is a second, shorter path), a hexagon
    (`hnote`) or a rectangle (`rnote`); a group frame may be drawn twice (body, then border,
    in its colour when it has one): frames of the same place and size count once.
    """
    kind = _DIAGRAM_TYPE.search(svg)
    names = {uid: html.unescape(name) for uid, name in _LIFELINE.findall(svg)}
    notes, groups, boxes = 0, set(), 0
    for tag, attrs in _ELEMENT.findall(svg):
        if NOTE_MARK in attrs:
            notes += tag != "path" or attrs.count(" L") == 5
        elif GROUP_MARK in attrs and tag == "rect":
            groups.add(_GEOMETRY.sub("", attrs))
        elif BOX_MARK in attrs and tag == "rect":
            boxes += 1
    return {
        "diagram_type": kind.group(1) if kind else None,
        "participants": list(names.values()),
        "messages": [(names.get(a, a), names.get(b, b)) for a, b in _MESSAGE.findall(svg)],
        "notes": notes,
        "groups": len(groups),
        "boxes": boxes,
    }


def parsed_drawing(text: str) -> dict[str, object]:
    """What the parser says PlantUML will draw, in the shape of `sequence_drawing`."""
    parsed = parse_sequence(text)
    if not parsed:
        return {"diagram_type": None}
    first = parsed[0]
    d = first.diagram
    undrawn = {x.line for x in first.diagnostics if x.reason.startswith(UNDRAWN_NOTE)}
    messages = []
    for m in d.messages:
        if getattr(m, "line_style", "") == "hidden":
            continue
        a, b = m.sender, m.receiver
        a = b if a in _BORDERS else a
        b = a if b in _BORDERS else b
        messages.append((a, b))
    return {
        "diagram_type": "SEQUENCE" if first.kind == "sequence" else first.kind,
        "participants": [p.id for p in d.participants],
        "messages": messages,
        "notes": sum(n.line not in undrawn for n in d.notes),
        "groups": len(d.groups),
        "boxes": box_frames(d),
    }


def box_frames(d) -> int:
    """The frames PlantUML draws for the boxes of `d`: one per run of a box's members that
    stand side by side once participants are ordered (`order` can split a box; a box
    without members draws nothing)."""
    position = {p.id: k for k, p in enumerate(d.participants)}
    frames = 0
    for box in d.boxes:
        places = sorted(position[m] for m in box.members if m in position)
        frames += sum(1 for k, at in enumerate(places) if k == 0 or places[k - 1] != at - 1)
    return frames


_MANGLED = re.compile(r"[^A-Za-z0-9_]")


def _names(drawing: dict[str, object]) -> dict[str, object]:
    """Ids as the SVG spells them: PlantUML writes every character but ASCII letters,
    digits and `_` as `.` in `data-qualified-name` (`x@y` → `x.y`)."""
    def one(name: str) -> str:
        return _MANGLED.sub(".", name)
    out = dict(drawing)
    out["participants"] = [one(p) for p in drawing.get("participants", [])]
    out["messages"] = [(one(a), one(b)) for a, b in drawing.get("messages", [])]
    return out


def compare(expected: dict[str, object], got: dict[str, object]) -> tuple[str, ...]:
    """Names of the statistics that differ between PlantUML's drawing and the parser's."""
    if expected.get("diagram_type") != got.get("diagram_type"):
        return ("diagram_type",)
    expected, got = _names(expected), _names(got)
    out = []
    for key in ("participants", "messages", "notes", "groups", "boxes"):
        if expected.get(key) != got.get(key):
            if key in ("participants", "messages") and len(expected[key]) == len(got[key]):
                out.append(key + ":names")
            else:
                out.append(key)
    return tuple(out)


def render_svgs(sources: list[str], jobs: int = 2) -> list[tuple[str | None, str | None]]:
    """(svg, error) per source, marked for counting; teoz sources rendered both ways."""
    prepared, plain = [], []
    for text in sources:
        if "@end" not in text:  # PlantUML draws it; the engine wants the end marker
            text = text.rstrip("\n") + "\n@enduml\n"
        marked = mark_sequence(text)
        prepared.append(marked)
        plain.append(_without_teoz(marked))
    teoz = [k for k, text in enumerate(sources) if _without_teoz(text) != text]
    batch = prepared + [plain[k] for k in teoz]
    with tempfile.TemporaryDirectory() as tmp:
        results = PlantUMLEngine(jobs=jobs).render(batch, Path(tmp), fmt="svg")
        svgs = [(r.image.read_text(encoding="utf-8") if r.ok else None,
                 None if r.ok else f"{r.error} (line {r.error_line})") for r in results]
    out = svgs[:len(sources)]
    for j, k in enumerate(teoz):
        if out[k][1] is None:  # teoz itself rendered: count on the classic rendering
            out[k] = svgs[len(sources) + j]
    return out


def _without_teoz(text: str) -> str:
    return "\n".join(line for line in text.split("\n")
                     if line.strip().lower().replace(" ", "") != "!pragmateoztrue")


def check(sources: list[str], jobs: int = 2) -> list[Verdict]:
    """One verdict per source."""
    verdicts = []
    for text, (svg, error) in zip(sources, render_svgs(sources, jobs), strict=True):
        if svg is None:
            verdicts.append(Verdict((), error))
            continue
        parsed = parse_sequence(text)
        lines = tuple(d.line for d in parsed[0].errors) if parsed else ()
        verdicts.append(Verdict(compare(sequence_drawing(svg), parsed_drawing(text)), None,
                                lines))
    return verdicts
