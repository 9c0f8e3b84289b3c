"""Against PlantUML itself, on real diagrams nobody here wrote.

For every sequence diagram in ../shared/data/realworld, the parser must count
what PlantUML 1.2026.2 draws (participant heads and messages in its SVG), and
parse → write → parse must give the same model, whose script renders cleanly.
"""

from __future__ import annotations

import pytest

from diagbench.formats.plantuml import parse_one, parse_sequence
from diagbench.formats.plantuml.sequence_writer import write_sequence
from tests.conftest import svg_counts
from tests.plantuml_batch import render_batch


@pytest.fixture(scope="module")
def rendered(realworld_sources, tmp_path_factory):
    """[(path, parsed diagram, PlantUML's (type, heads, messages))] for every drawn diagram."""
    batch = render_batch([text for _, text in realworld_sources],
                         work=tmp_path_factory.mktemp("realworld"))
    rows = []
    for (path, text), images in zip(realworld_sources, batch.images, strict=True):
        parsed = parse_sequence(text)
        for k, image in enumerate(images):
            rows.append((path, parsed[k] if k < len(parsed) else None,
                         svg_counts(image.read_text(encoding="utf-8"))))
    return rows


@pytest.fixture(scope="module")
def sequences(rendered):
    return [(path, parsed) for path, parsed, (kind, _, _) in rendered if kind == "SEQUENCE"]


def test_corpus_has_enough_sequence_diagrams(sequences):
    assert len(sequences) >= 60


def test_counts_equal_what_plantuml_draws(rendered):
    mismatches = []
    for path, parsed, (kind, heads, messages) in rendered:
        if kind != "SEQUENCE":
            continue
        counts = parsed.diagram.counts()
        got = (parsed.kind, counts["participants"], counts["messages"])
        if got != ("sequence", heads, messages):
            mismatches.append((str(path), got, (heads, messages)))
    assert mismatches == []


def test_other_diagram_kinds_are_not_called_sequence(rendered):
    wrong = [str(path) for path, parsed, (kind, _, _) in rendered
             if kind not in ("SEQUENCE", None) and parsed is not None
             and parsed.kind == "sequence"]
    assert wrong == []


def test_sequence_diagrams_parse_without_errors(sequences):
    errors = [(str(path), [str(d) for d in parsed.errors]) for path, parsed in sequences
              if parsed.errors]
    assert errors == []


def test_round_trip_is_identical_and_renders(sequences, tmp_path):
    written = [write_sequence(parsed.diagram) for _, parsed in sequences]
    for (path, parsed), text in zip(sequences, written, strict=True):
        assert parse_one(text) == parsed.diagram, path
    batch = render_batch(written, work=tmp_path)
    assert batch.returncode == 0, batch.stderr[-2000:]
    for (path, parsed), images in zip(sequences, batch.images, strict=True):
        [image] = images
        kind, heads, messages = svg_counts(image.read_text(encoding="utf-8"))
        counts = parsed.diagram.counts()
        assert (kind, heads, messages) == (
            "SEQUENCE", counts["participants"], counts["messages"]), path
