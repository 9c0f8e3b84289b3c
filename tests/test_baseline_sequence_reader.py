"""The offline OCR baseline reads real PlantUML renders of sequence diagrams back."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image

from diagbench.compare.counts import empty_components
from diagbench.compare.pair import compare_scripts
from diagbench.diagram.sequence import SequenceDiagram
from diagbench.formats.plantuml import parse_sequence
from diagbench.models.baselines.sequence_reader import UnreadableImage, read_sequence_diagram
from diagbench.render.plantuml_pipe import PlantUMLEngine
from diagbench.scoring.name_keys import participant_key

CALLFLOWS = Path(__file__).resolve().parents[1] / "examples" / "callflows" / "gold"

MESSAGES = """@startuml
autonumber
participant Alice
participant "Web Server" as WS
participant Store
Alice -> WS : login request
WS --> Alice : login page
WS ->> Store : save session
Store -> Store : check quota
Store --> WS : session saved
Store -> Alice : welcome mail
Store ->> WS : audit event
@enduml
"""
#: (sender, receiver, line style, head, label) of each message above, by display name.
EXPECTED = [
    ("Alice", "Web Server", "solid", "normal", "login request"),
    ("Web Server", "Alice", "dotted", "normal", "login page"),
    ("Web Server", "Store", "solid", "async", "save session"),
    ("Store", "Store", "solid", "normal", "check quota"),
    ("Store", "Web Server", "dotted", "normal", "session saved"),
    ("Store", "Alice", "solid", "normal", "welcome mail"),
    ("Store", "Web Server", "solid", "async", "audit event"),
]
NOTES = """@startuml
participant Alice
participant Bob
Alice -> Bob : hello
note right of Bob : remember this
Bob --> Alice : goodbye
@enduml
"""
#: A note with no text to read, between two messages.
EMPTY_NOTE = NOTES.replace("remember this", "\\n")
_GROUP_LINE = re.compile(r"\s*(opt|alt|else|loop|par|group|break|critical|end)\b")


def strip_notes_and_groups(source: str) -> str:
    """A call flow without its notes, groups and boxes (their contents are kept)."""
    kept, in_note = [], False
    for line in source.splitlines():
        text = line.strip()
        if in_note:
            in_note = text != "end note"
        elif text.startswith("note "):
            in_note = ":" not in text
        elif not (text.startswith(("box ", "end box")) or _GROUP_LINE.match(text)):
            kept.append(line)
    return "\n".join(kept) + "\n"


@pytest.fixture(scope="module")
def renders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, bytes]]:
    """Every diagram of this module rendered at once: name -> (source, PNG bytes)."""
    sources = {"messages": MESSAGES, "notes": NOTES, "empty note": EMPTY_NOTE}
    for path in sorted(CALLFLOWS.glob("*.puml")):
        sources[path.stem] = strip_notes_and_groups(path.read_text(encoding="utf-8"))
    results = PlantUMLEngine(jobs=2, timeout=30).render(
        list(sources.values()), tmp_path_factory.mktemp("renders"), "png")
    assert all(r.ok for r in results), [r.error for r in results if not r.ok]
    return {name: (source, r.image.read_bytes())
            for (name, source), r in zip(sources.items(), results, strict=True)}


def read_back(png: bytes) -> SequenceDiagram:
    """The reader's script for an image, parsed (it must parse without errors)."""
    [parsed] = parse_sequence(read_sequence_diagram(png))
    assert parsed.kind == "sequence" and not parsed.errors
    return parsed.diagram


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def test_messages_read_with_endpoints_styles_and_labels(renders) -> None:
    script = read_sequence_diagram(renders["messages"][1])
    assert "autonumber" in script.splitlines()
    [parsed] = parse_sequence(script)
    diagram = parsed.diagram
    assert [participant_key(p.name) for p in diagram.participants] == ["alice", "webserver",
                                                                       "store"]
    names = {p.id: participant_key(p.name) for p in diagram.participants}
    read = [(names[m.sender], names[m.receiver], m.line_style, m.head, participant_key(m.label))
            for m in diagram.messages]  # labels without spaces: OCR may miss a word gap
    assert read == [(participant_key(s), participant_key(r), style, head, participant_key(label))
                    for s, r, style, head, label in EXPECTED]
    assert sum(m.label in [e[4] for e in EXPECTED] for m in diagram.messages) >= 5


def test_note_read_as_note_beside_its_lifeline(renders) -> None:
    diagram = read_back(renders["notes"][1])
    assert [p.name for p in diagram.participants] == ["Alice", "Bob"]
    [note] = diagram.notes
    assert (note.position, note.targets) == ("right", ("Bob",))
    assert participant_key(note.text) == "rememberthis"  # OCR may miss a narrow word gap
    assert [m.label for m in diagram.messages] == ["hello", "goodbye"]


def test_empty_note_keeps_the_messages_after_it(renders) -> None:
    diagram = read_back(renders["empty note"][1])
    assert [(n.position, n.targets, n.text) for n in diagram.notes] == [("right", ("Bob",), "")]
    assert [m.label for m in diagram.messages] == ["hello", "goodbye"]


@pytest.mark.parametrize(("data", "reason"), [
    (b"plain text, not a picture", "not an image"),
    (_png(Image.new("RGB", (1, 1), "white")), "1×1 px, too small"),
    (_png(Image.new("RGB", (400, 300), "white")), "blank"),
    (_png(Image.new("RGB", (400, 300), (20, 120, 200))), "blank"),
])
def test_unreadable_images_say_why(data: bytes, reason: str) -> None:
    with pytest.raises(UnreadableImage, match=reason):
        read_sequence_diagram(data)


def test_picture_without_participants_is_refused() -> None:
    image = Image.new("RGB", (400, 300), "white")
    image.paste((0, 0, 0), (50, 50, 350, 60))
    with pytest.raises(UnreadableImage, match="no participant boxes"):
        read_sequence_diagram(_png(image))


def test_callflows_without_notes_and_groups(renders) -> None:
    """Pooled over the 12 call flows: few deleted messages or participants."""
    total = empty_components()
    for path in sorted(CALLFLOWS.glob("*.puml")):
        source, png = renders[path.stem]
        comparison = compare_scripts(source, read_sequence_diagram(png), "semantic")
        for name, counts in comparison.components.items():
            total[name].add(counts)
    assert total["message"].gold > 100
    assert total["message"].rate("deletion") <= 0.25
    assert total["participant"].rate("deletion") <= 0.10
    assert total["edge_direction"].rate("substitution") <= 0.10
