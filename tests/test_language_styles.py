"""Drawing styles: the envelope a style travels in to a language's own drawer, where each
style reaches a source-level engine, the style part of the common check shown to catch a
style that draws nothing new or changes what is drawn, and the flipped chess board read
back square by square."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import fields

import pytest

from diagbench.languages import LANGUAGES, named
from diagbench.languages.checks import check_drawn_as_read
from diagbench.languages.record import Language
from diagbench.languages.styled import enveloped, known, opened, with_style_sheet

FEN = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"  # white king e1, white rook a1, black king e8


def test_every_language_declares_distinct_styles_and_refuses_an_unknown_one():
    for language in LANGUAGES:
        styles = language.styles()
        assert 2 <= len(styles) <= 4 and len(set(styles)) == len(styles), language.name
        assert all(s and s == s.strip() for s in styles), language.name
        with pytest.raises(ValueError, match=r"no drawing style 'nope': the styles are"):
            language.prepare("x", "", False, "nope")


def test_the_envelope_round_trips_and_refuses_a_style_it_does_not_know():
    assert enveloped("", "A -> B", ("a",)) == "A -> B"
    assert opened(enveloped("a", "A\n-> B", ("a",)), ("a",)) == ("a", "A\n-> B")
    assert opened("A -> B", ("a",)) == ("", "A -> B")
    with pytest.raises(ValueError, match=r"no drawing style 'b': the styles are a, c"):
        opened("%diagbench-style b\nA", ("a", "c"))
    with pytest.raises(ValueError, match=r"no drawing style '\?'"):
        opened("%diagbench-style \nA", ("a",))
    assert known("", ("a",)) == "" and known("a", ("a",)) == "a"


def test_a_style_sheet_goes_last_in_the_outermost_svg():
    svg = '<svg><style>a{}</style><svg><g/></svg></svg>'
    assert with_style_sheet(svg, "b{}") == \
        '<svg><style>a{}</style><svg><g/></svg><style>b{}</style></svg>'
    assert with_style_sheet("not svg", "b{}") == "not svg"


def test_source_level_styles_put_their_statements_where_the_engine_reads_them():
    dot = named("dot").prepare("digraph g {\n  a -> b;\n}\n", "graph", False, "left-to-right")
    assert dot == "digraph g {\n  a -> b;\n  rankdir=LR;\n}\n"
    mermaid = named("mermaid").prepare("---\ntitle: T\n---\nflowchart LR\n  A --> B\n",
                                       "flowchart", False, "theme-forest")
    assert mermaid.split("\n")[:5] == ["---", "title: T", "---",
                                       '%%{init: {"theme": "forest"}}%%', "flowchart LR"]
    abc = named("abc").prepare("% tune\nX:1\nT:t\nK:C\nCDEF|\n", "tune", False, "large")
    assert abc.split("\n")[:3] == ["% tune", "X:1", "%%scale 0.95"]
    plantuml = named("plantuml").prepare("@startuml\nA -> B\n@enduml\n", "sequence", True,
                                         "handwritten")
    lines = plantuml.split("\n")  # the style first, the markers after it (they win)
    assert lines[0] == "@startuml" and lines[1] == "skinparam handwritten true"
    assert len(lines) > 5 and lines[-3:] == ["A -> B", "@enduml", ""]
    figure = {"data": [{"type": "bar", "y": [1, 2]}], "layout": {"title": {"text": "t"}}}
    plotly = json.loads(named("plotly").prepare(json.dumps(figure), "chart", False, "ggplot2"))
    assert plotly == {**figure, "layout": {"title": {"text": "t"}, "template": "ggplot2"}}


def _as(cls: type[Language], language: Language) -> Language:
    return cls(**{f.name: getattr(language, f.name) for f in fields(language)})


class _StyleDrawsNothingNew(type(named("fen"))):  # type: ignore[misc]
    """FEN whose style reaches no drawing: the default image again."""

    def styles(self) -> tuple[str, ...]:
        return ("same",)

    def prepare(self, source: str, kind: str, marked: bool, style: str = "") -> str:
        return source


class _StyleChangesTheBoard(type(named("fen"))):  # type: ignore[misc]
    """FEN whose style draws another position: a piece left out."""

    def styles(self) -> tuple[str, ...]:
        return ("fewer-pieces",)

    def prepare(self, source: str, kind: str, marked: bool, style: str = "") -> str:
        return source.replace("R3K3", "4K3") if style else source


def test_a_style_that_draws_the_default_image_is_caught(monkeypatch):
    monkeypatch.setattr("diagbench.languages.checks.codes",
                        lambda language, generated=3: [("rook", FEN + "\n")])
    with pytest.raises(AssertionError, match=r"rook: style 'same' draws the default image"):
        check_drawn_as_read(_as(_StyleDrawsNothingNew, named("fen")))


def test_a_style_that_changes_what_is_drawn_is_caught(monkeypatch):
    monkeypatch.setattr("diagbench.languages.checks.codes",
                        lambda language, generated=3: [("rook", FEN + "\n")])
    with pytest.raises(AssertionError, match=r"rook: style 'fewer-pieces' drew \{'pieces': 2, "
                                             r".*the default drawing \{'pieces': 3, "):
        check_drawn_as_read(_as(_StyleChangesTheBoard, named("fen")))


def test_the_board_seen_from_blacks_side_is_drawn_and_read_square_by_square():
    from diagbench.languages.fen.engine import MARGIN, SQUARE, board_statistics, board_svg

    [parsed] = named("fen").read(FEN)
    svg = board_svg(parsed.diagram, "black-at-bottom")
    root = ET.fromstring(svg)
    pieces = {t.get("data-square"): (float(t.get("x")), float(t.get("y")))
              for t in root.iter("{http://www.w3.org/2000/svg}text")
              if (t.get("class") or "").startswith("piece")}
    # seen from Black: rank 1 is the top row, file e the fourth column from the left
    x, y = pieces["e1"]
    assert MARGIN + 3 * SQUARE < x < MARGIN + 4 * SQUARE and MARGIN < y < MARGIN + SQUARE
    x, y = pieces["a1"]  # file a is the right-most column
    assert MARGIN + 7 * SQUARE < x < MARGIN + 8 * SQUARE and MARGIN < y < MARGIN + SQUARE
    x, y = pieces["e8"]  # rank 8 the bottom row
    assert MARGIN + 7 * SQUARE < y < MARGIN + 8 * SQUARE
    labels = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")
              if t.get("class") == "file"]
    xs = [float(t.get("x")) for t in root.iter("{http://www.w3.org/2000/svg}text")
          if t.get("class") == "file"]
    assert [label for _, label in sorted(zip(xs, labels, strict=True))] == list("hgfedcba")
    read = board_statistics(svg)
    assert read["placement"] == "4k3/8/8/8/8/8/8/R3K3" and read["mismatches"] == 0
    assert board_statistics(board_svg(parsed.diagram))["placement"] == read["placement"]


def test_an_unknown_style_in_an_envelope_is_the_drawings_error(tmp_path):
    [result] = named("fen").make_engine(1, 30.0).render(
        [f"%diagbench-style upside-down\n{FEN}"], tmp_path, "svg")
    assert not result.ok and "no drawing style 'upside-down'" in (result.error or "")


def test_mermaids_hand_drawn_nodes_are_counted_once():
    """As mermaid-cli draws an ER diagram in the hand-drawn look: each entity a
    `rough-node` over a `node` backing of its own (`…-background`), one edge."""
    from diagbench.render.graph_svg import mermaid_statistics

    svg = ('<svg id="d" aria-roledescription="er"><g class="nodes">'
           '<g class="node default" id="d-entity-A-0-background"></g>'
           '<g class="node default" id="d-entity-B-1-background"></g>'
           '<g class="rough-node default" id="d-entity-A-0" data-look="handDrawn"></g>'
           '<g class="rough-node default" id="d-entity-B-1" data-look="handDrawn"></g></g>'
           '<path data-edge="true" data-id="id_entity-A-0_entity-B-1_0" class="edge"/></svg>')
    stats = mermaid_statistics(svg)
    assert (stats["entities"], stats["relations"]) == (2, 1)
    assert stats["entity_names"] == ["A", "B"] and stats["relation_ends"] == [("A", "B")]
