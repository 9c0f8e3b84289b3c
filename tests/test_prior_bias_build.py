"""`diagbench build prior-bias`: every instance valid by the four constraints (checked
again from the written PlantUML), matched pairs differing only in the arrow, gold
labels as PlantUML draws them (its SVG), and byte-identical builds for one seed."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from diagbench.benchmarks.prior_bias.generate import CONDITIONS, Instance, check_instance
from diagbench.benchmarks.prior_bias.vocabulary import RELATIONS, load_vocabulary
from diagbench.render.plantuml_pipe import PlantUMLEngine
from tests.class_view import parse_class_diagram

PER_CELL = 6


def _build(out: Path, seed: int = 0, per_cell: int = PER_CELL) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "diagbench", "build", "prior-bias", "--out",
                           str(out), "--per-cell", str(per_cell), "--seed", str(seed)],
                          capture_output=True, text=True, timeout=300, check=True)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("pb") / "data"
    _build(out)
    return out


def _manifest(root: Path) -> list[dict]:
    return [json.loads(line) for line in (root / "manifest.jsonl").read_text().splitlines()]


def _instance(row: dict) -> Instance:
    return Instance(row["id"], row["diagram"], row["relation"], row["condition"],
                    tuple(row["classes"]), tuple(row["query"]), row["gold"], row["matched"])


def test_cells_and_labels(built):
    rows = _manifest(built)
    cells = Counter((r["condition"], r["relation"]) for r in rows)
    for condition in CONDITIONS:
        for relation in RELATIONS:
            assert 0 < cells[condition, relation] <= PER_CELL
            labels = Counter(r["gold"] for r in rows
                             if (r["condition"], r["relation"]) == (condition, relation))
            assert abs(labels[True] - labels[False]) <= 1
    info = json.loads((built / "build.json").read_text())
    assert info["instances"] == len(rows) and info["rendered_inputs"] == 3 * len(rows)
    for row in rows:
        one = row["images"]["1x"]
        for scale, factor in (("1x", 1), ("1.5x", 1.5), ("2x", 2)):
            image = row["images"][scale]
            assert (built / image["path"]).is_file()
            assert image["width"] == round(factor * one["width"])


def test_every_instance_passes_the_constraints_from_its_written_plantuml(built):
    vocabulary = load_vocabulary()
    rows = {r["id"]: r for r in _manifest(built)}
    parsed = {}
    for row in rows.values():
        parsed.setdefault(row["diagram"], parse_class_diagram((built / row["source"]).read_text()))
    for row in rows.values():
        diagram = parsed[row["diagram"]]
        assert diagram.names == row["classes"]
        matched = parsed[rows[row["matched"]]["diagram"]] if row["matched"] else None
        assert check_instance(_instance(row), diagram, vocabulary, matched) == [], row["id"]
        if row["condition"] == "prior-free":
            assert all(re.fullmatch(r"[A-Z]+", n) for n in diagram.names)
            assert len(set(diagram.names)) == len(diagram.names)
        else:  # the prior says the opposite of the gold label exactly in conflict conditions
            prior = vocabulary.prior(row["relation"], *row["query"])
            conflict = row["condition"] in ("2-reverse", "3-reverse", "3-mixed")
            assert prior == (row["gold"] != conflict), row["id"]


def test_constraint_check_catches_broken_instances(built):
    vocabulary = load_vocabulary()
    row = next(r for r in _manifest(built) if r["condition"] == "prior-conform")
    diagram = parse_class_diagram((built / row["source"]).read_text())
    flipped = _instance(row | {"gold": not row["gold"]})
    assert check_instance(flipped, diagram, vocabulary, None) == [
        "(i) gold label disagrees with the diagram"]
    stranger = _instance(row | {"query": [row["query"][0], "Zebra"]})
    assert "(i) queried pair not linked by the relation" in check_instance(
        stranger, diagram, vocabulary, None)
    diagram.relations.append(diagram.relations[0].reversed())
    assert "(iii) another relation of the same type links the classes" in check_instance(
        _instance(row), diagram, vocabulary, None)


def test_matched_instances_differ_only_in_the_arrow(built):
    rows = {r["id"]: r for r in _manifest(built)}
    pairs = [(r, rows[r["matched"]]) for r in rows.values()
             if r["matched"] and r["condition"] in ("2-reverse", "3-mixed")]
    assert pairs
    for row, other in pairs:
        assert row["query"] == other["query"] and row["classes"] == other["classes"]
        assert row["gold"] != other["gold"] or row["condition"] == "3-mixed"
        a = (built / row["source"]).read_text().splitlines()
        b = (built / other["source"]).read_text().splitlines()
        changed = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
        assert changed, row["id"]
        for x, y in changed:  # same classes in the same places, another arrow
            assert x.split()[0::2] == y.split()[0::2]


def _svg_relations(svg: str) -> set[tuple[str, str, str]]:
    """(kind, source, target) of every link PlantUML drew: the decorated end is the end
    nearest the link's polygon."""
    boxes = {}
    for m in re.finditer(r'<g class="entity" data-qualified-name="([^"]+)"[^>]*id="([^"]+)">'
                         r'<rect [^>]*?height="([\d.]+)"[^>]*?width="([\d.]+)" x="([\d.]+)" '
                         r'y="([\d.]+)"', svg):
        name, ident, h, w, x, y = m.groups()
        boxes[ident] = (name, float(x) + float(w) / 2, float(y) + float(h) / 2)
    found = set()
    for m in re.finditer(r'<g class="link" data-entity-1="([^"]+)" data-entity-2="([^"]+)" '
                         r'data-link-type="([^"]+)".*?points="([^"]+)"', svg, re.S):
        e1, e2, kind, points = m.groups()
        xs = [float(v) for v in points.split(",")]
        cx, cy = sum(xs[0::2]) / len(xs[0::2]), sum(xs[1::2]) / len(xs[1::2])
        ends = sorted((e1, e2), key=lambda e: (boxes[e][1] - cx) ** 2 + (boxes[e][2] - cy) ** 2)
        decorated, other = boxes[ends[0]][0], boxes[ends[1]][0]
        if kind in ("composition", "aggregation"):
            found.add((kind, decorated, other))
        else:
            found.add(({"extension": "inheritance"}.get(kind, kind), other, decorated))
    return found


def test_gold_labels_agree_with_the_svg_plantuml_draws(built, tmp_path):
    rows = _manifest(built)
    diagrams = sorted({r["diagram"]: r["source"] for r in rows}.items())
    sources = [(built / source).read_text() for _, source in diagrams]
    results = PlantUMLEngine(jobs=2).render(sources, tmp_path, "svg")
    drawn = {d: _svg_relations(r.image.read_text()) for (d, _), r in
             zip(diagrams, results, strict=True)}
    for row in rows:
        relations = drawn[row["diagram"]]
        assert relations, row["diagram"]
        a, b = row["query"]
        assert ((row["relation"], a, b) in relations) == row["gold"], row["id"]


def test_same_seed_gives_byte_identical_files(tmp_path):
    _build(tmp_path / "a", seed=7, per_cell=3)
    _build(tmp_path / "b", seed=7, per_cell=3)
    _build(tmp_path / "c", seed=8, per_cell=3)
    for name in ("manifest.jsonl", "build.json"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    assert (tmp_path / "a" / "manifest.jsonl").read_bytes() != \
        (tmp_path / "c" / "manifest.jsonl").read_bytes()


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def test_drawing_in_chunks_while_scaling_writes_the_same_files(tmp_path, monkeypatch):
    """The engine draws a chunk, then threads scale it; chunks of 7 (the last one
    shorter) give the files one chunk gives, every image at every scale."""
    from diagbench.benchmarks.prior_bias import build
    from diagbench.benchmarks.prior_bias.generate import uniform

    vocabulary = load_vocabulary()
    engine = PlantUMLEngine(jobs=2)  # one warm engine for both builds
    try:
        whole = build.build_benchmark(tmp_path / "a", vocabulary, uniform(2), 5, engine)
        monkeypatch.setattr(build, "CHUNK", 7)
        chunked = build.build_benchmark(tmp_path / "b", vocabulary, uniform(2), 5, engine)
    finally:
        engine.close()
    assert whole["diagrams"] % 7 and whole["diagrams"] > 14
    assert whole == chunked
    files = _files(tmp_path / "a")
    assert len([f for f in files if f.endswith(".png")]) == 3 * whole["diagrams"]
    assert files == _files(tmp_path / "b")


def test_ambiguous_vocabulary_pairs_are_dropped_and_counted():
    text = json.dumps({"inheritance": [["Dog", "Animal"], ["Animal", "Dog"], ["Cat", "Animal"]],
                       "composition": [], "aggregation": [], "dependency": []})
    vocabulary = load_vocabulary(text)
    assert vocabulary.pairs["inheritance"] == [("Cat", "Animal")]
    assert vocabulary.rejected["vocabulary: pair listed both ways (ambiguous prior)"] == 2
