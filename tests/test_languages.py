"""The common tests of the language table (as scikit-learn's cover every estimator): every
language has every part, and its example files are recognised, parse without errors into
a non-empty model of each kind it lists, render with the real engine (PNG and SVG, one
batch each), and score 1 against themselves by its image-to-code similarity."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest
from click.testing import CliRunner

from diagbench.cli import cli
from diagbench.diagram.graph import GraphDiagram
from diagbench.languages import (
    CATEGORIES,
    LANGUAGES,
    Language,
    category_named,
    category_names,
    detect,
    languages_of,
)
from diagbench.references import load
from diagbench.render.engines import ENGINES, make_engine

ROOT = Path(__file__).resolve().parents[1]
by_name = pytest.mark.parametrize("language", LANGUAGES, ids=lambda x: x.name)


def _examples(language: Language) -> list[tuple[Path, str]]:
    return [(p, p.read_text(encoding="utf-8")) for p in language.example_paths()]


# --- every part -------------------------------------------------------------------------

@by_name
def test_has_every_part(language: Language):
    assert language.name and language.title and language.domain
    assert language.suffixes and all(s.startswith(".") and s == s.lower()
                                      for s in language.suffixes)
    assert language.categories and set(language.categories) <= set(category_names())
    # each category it is generated in is read as one of the kinds it tells apart
    assert all(set(category_named(c).kinds) & set(language.kinds) for c in language.categories)
    assert language.kinds and language.examples
    assert language.engine in ENGINES
    for part in (language.reader, language.statistics, language.similarity):
        assert isinstance(load(part), Callable), part  # type: ignore[arg-type]
    # a language is written from a graph, or by its own generator, or both
    optional = [p for p in (language.writer, language.synth, language.facts) if p is not None]
    assert language.writer or language.synth
    for part in optional:
        assert isinstance(load(part), Callable), part  # type: ignore[arg-type]
    low, high = language.node_limits
    assert 0 < low <= high


def test_the_table_has_one_home_per_name_and_suffix():
    names = [x.name for x in LANGUAGES]
    titles = [x.title for x in LANGUAGES]
    suffixes = [s for x in LANGUAGES for s in x.suffixes]
    assert len(set(names)) == len(names) and len(set(titles)) == len(titles)
    assert len(set(suffixes)) == len(suffixes)
    # exactly one language takes what no other recognises
    assert sum(x.recognises is None for x in LANGUAGES) == 1
    # every category is drawn in some language, and categories are named once
    assert len({c.name for c in CATEGORIES}) == len(CATEGORIES)
    assert all(languages_of(c.name) for c in CATEGORIES)


# --- the examples -----------------------------------------------------------------------

@by_name
def test_examples_are_recognised_by_suffix_and_by_content(language: Language):
    for path, text in _examples(language):
        assert detect(path, text) is language, path.name
        assert detect(None, text) is language, path.name


@by_name
def test_examples_parse_into_each_kind(language: Language):
    kinds = set()
    for path, text in _examples(language):
        parsed = language.read(text)
        assert len(parsed) == 1, path.name
        [p] = parsed
        assert p.errors == (), (path.name, p.errors)
        assert p.language == language.name and p.kind in language.kinds, (path.name, p.kind)
        assert sum(p.counts().values()) > 0, path.name
        # the count that the node limits bound is one the model counts
        assert language.size is None or language.size in p.counts(), path.name
        kinds.add(p.kind)
    assert kinds == set(language.kinds)


@by_name
def test_examples_render_with_the_real_engine(language: Language, tmp_path: Path):
    texts = [text for _, text in _examples(language)]
    engine = make_engine(language.engine, 2, 60.0)
    (tmp_path / "png").mkdir()
    (tmp_path / "svg").mkdir()
    pngs = engine.render(texts, tmp_path / "png", "png")
    svgs = engine.render(texts, tmp_path / "svg", "svg")
    for (path, text), png, svg in zip(_examples(language), pngs, svgs, strict=True):
        assert png.ok and png.image is not None, (path.name, png.error)
        assert png.image.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
        assert (png.width or 0) > 16 and (png.height or 0) > 16
        assert svg.ok and svg.image is not None, (path.name, svg.error)
        drawn = language.drawn(svg.image.read_text(encoding="utf-8"))
        read = language.read(text)[0].counts()
        if language.domain == "software":
            # what the engine drew is what the reader read: nodes, and the edges between them
            assert _drawn_counts(drawn) == _read_counts(read), (path.name, drawn, read)
        else:  # every count the engine's drawing shows that the reader counts too
            shared = {k for k, v in drawn.items() if isinstance(v, int) and k in read}
            assert shared, (path.name, drawn, read)
            assert {k: drawn[k] for k in shared} == {k: read[k] for k in shared}, path.name


def _drawn_counts(drawn: Mapping[str, object]) -> tuple[object, object]:
    """(nodes, edges) an engine's statistics give (PlantUML names edges `links`)."""
    nodes = drawn.get("participants") or drawn.get("entities")
    return nodes, drawn.get("messages") or drawn.get("relations", drawn.get("links"))


def _read_counts(read: Mapping[str, int]) -> tuple[object, object]:
    return read.get("participants", read.get("entities")), read.get("messages",
                                                                    read.get("relations"))


@by_name
def test_similarity_scores_an_example_one_against_itself(language: Language):
    for path, text in _examples(language):
        assert language.compare(text, text, True).score == 1.0, path.name
        assert language.compare(text, text, False).score == 0.0, path.name  # validity gate


@by_name
def test_writer_writes_back_what_the_reader_read(language: Language):
    """The offline writer (`baseline:synth`'s) on each graph example's model: the code it
    writes reads back with the same counts."""
    if language.writer is None:
        pytest.skip(f"{language.title} is not written from a graph")
    written = 0
    for path, text in _examples(language):
        [p] = language.read(text)
        if not isinstance(p.diagram, GraphDiagram) or p.kind == "c4":
            continue
        [again] = language.read(language.write(p.diagram))
        assert again.errors == () and again.counts() == p.counts(), path.name
        written += 1
    assert written


# --- the command ------------------------------------------------------------------------

def test_languages_command_lists_the_table():
    done = CliRunner().invoke(cli, ["languages", "--json"])
    assert done.exit_code == 0, done.output
    rows = json.loads(done.output)
    assert [r["language"] for r in rows] == [x.name for x in LANGUAGES]
    for row, language in zip(rows, LANGUAGES, strict=True):
        assert row["suffixes"] == list(language.suffixes)
        assert row["engine"] == language.engine
        assert row["engine_version"] == make_engine(language.engine, 1, 60.0).version()
    text = CliRunner().invoke(cli, ["languages"]).output.splitlines()
    assert text[0].split()[:2] == ["language", "suffixes"]
    assert [line.split()[0] for line in text[1:]] == [x.name for x in LANGUAGES]


def test_languages_command_says_unavailable_without_the_tools(tmp_path: Path):
    env = {**os.environ, "PATH": str(tmp_path), "DIAGBENCH_CHROMIUM": str(tmp_path / "none"),
           "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-m", "diagbench", "languages", "--json"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    versions = {r["engine"]: r["engine_version"] for r in json.loads(done.stdout)}
    assert versions["graphviz"] == versions["mermaid"] == versions["dbml"] == "unavailable"


def test_the_table_imports_no_parser_engine_or_comparison():
    code = ("import sys, diagbench.languages; print(' '.join(m for m in sys.modules "
            "if m.startswith('diagbench.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "src")}, check=True)
    loaded = done.stdout.split()
    assert "diagbench.languages.table" in loaded
    assert not [m for m in loaded if m.startswith(("diagbench.formats.", "diagbench.render.",
                                                   "diagbench.compare."))]
