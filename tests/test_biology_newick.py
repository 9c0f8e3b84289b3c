"""Newick (STRUDEL's phylogenetic trees): the reader (Biopython + the grammar check), the
facts, the `phylo` engine and what its SVG shows, the worker processes it draws in,
and the tree similarity on hand-worked trees."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from diagbench.diagram.phylogeny import Phylogeny, tree_facts
from diagbench.languages import detect, named
from diagbench.languages.newick.engine import PhyloEngine, tree_statistics
from diagbench.languages.newick.read import read_newick, synth_newick

NEWICK = named("newick")


def _read(text: str):
    [parsed] = read_newick(text)
    return parsed


# --- the reader -------------------------------------------------------------------------

def test_reader_maps_nodes_and_branches_onto_the_graph_model():
    p = _read("((A:1,B:2.5)x:1,(C,D,E)90,F):0.5;")
    assert p.errors == () and p.kind == "tree" and p.language == "newick"
    kinds = [(e.name, e.kind) for e in p.diagram.entities]
    assert kinds == [("", "internal"), ("x", "internal"), ("A", "leaf"), ("B", "leaf"),
                     ("", "internal"), ("C", "leaf"), ("D", "leaf"), ("E", "leaf"),
                     ("F", "leaf")]
    assert p.counts()["entities"] == 9 and p.counts()["relations"] == 8
    assert all(r.type == "branch" for r in p.diagram.relations)
    props = {e.name or e.id: dict(e.properties) for e in p.diagram.entities}
    assert props["B"] == {"length": "2.5"} and props["x"] == {"length": "1"}
    assert props["n4"] == {"support": "90"}  # Biopython reads a numeric label as support
    tree = Phylogeny(p.diagram)
    assert tree.depth() == 2
    assert sorted(map(sorted, tree.clades())) == [["A", "B"], ["C", "D", "E"]]


def test_reader_keeps_quoted_labels_and_reads_every_tree_with_its_line():
    parsed = read_newick("('taxon one',B_b);\n\n[a comment]\n(C,\n 'd;e');\n")
    assert [p.first_line for p in parsed] == [1, 3]
    assert [e.name for e in parsed[0].diagram.entities][1:] == ["taxon one", "B_b"]
    assert [e.name for e in parsed[1].diagram.entities][1:] == ["C", "d;e"]
    assert _read("\ufeff(A,B);").errors == ()


@pytest.mark.parametrize(("text", "line", "where"), [
    ("((A,B),\n(C", 2, "column 3: the tree does not end with ';'"),
    ("(A,B));", 1, "column 6: ')' closes no '('"),
    ("((A:1,\n B:x),C);", 2, "column 3: unexpected ':'"),   # Biopython alone reads leaf 'x'
    ("(A,B)C(D);", 1, "column 7: '(' cannot follow 'label'"),  # ... and this as 3 leaves
    ("(A,witches'-broom);", 1, "column 11: unexpected \"'\""),  # a quote in a bare label
    ("(A,B);;", 1, "column 7: ';' cannot follow the start of a tree"),
    ("A,B;", 1, "column 2: ',' outside parentheses"),
    ("   ", 1, "empty source"),
])
def test_reader_reports_bad_input_with_line_and_column(text, line, where):
    p = _read(text)
    [error] = p.errors
    assert error.line == line and where in error.reason, error
    assert p.counts()["entities"] == 0


# --- the facts --------------------------------------------------------------------------

def test_facts_of_a_hand_read_tree():
    facts = {f.subject + (f.question if f.subject == "sisters" else ""): f.answer
             for f in tree_facts(_read("((A:1,B:2):1,((C:1,D:5):1,E:1):1);").diagram)}
    assert facts["leaves"] == 5 and facts["depth"] == 3
    assert facts["longest-branch"] == "D"
    assert facts["clade"] == ("B",)
    sisters = {k: v for k, v in facts.items() if k.startswith("sisters")}
    assert sisters == {"sistersAre A and B sister taxa (the only two leaves of a clade)?": True,
                       "sistersAre A and E sister taxa (the only two leaves of a clade)?": False}


def test_facts_skip_name_questions_when_names_repeat_or_lack():
    subjects = {f.subject for f in tree_facts(_read("((A,A),(B,C));").diagram)}
    assert subjects == {"leaves", "depth"}
    # a tie for the longest branch asks nothing about it
    subjects = {f.subject for f in tree_facts(_read("((A:2,B:2),C:1);").diagram)}
    assert "longest-branch" not in subjects and "clade" in subjects


@pytest.mark.parametrize("complexity", ["low", "medium", "high"])
def test_synth_writes_valid_seeded_trees(complexity):
    texts = [synth_newick(random.Random(seed), complexity) for seed in range(20)]
    assert texts == [synth_newick(random.Random(seed), complexity) for seed in range(20)]
    low, high = {"low": (4, 6), "medium": (7, 12), "high": (13, 24)}[complexity]
    for text in texts:
        p = _read(text)
        assert p.errors == () and detect(None, text) is NEWICK
        leaves = Phylogeny(p.diagram).leaves
        assert low <= len(leaves) <= high
        assert all(("length" in dict(e.properties)) == (complexity != "low") for e in leaves)


# --- the engine and what it drew ---------------------------------------------------------

HAND_DRAWN = [  # (tree, nodes, internal, labels)
    ("((A:1,B:2)x:1,(C,D,E)90,F):0.5;", 9, 3, 6),
    ("((A:0,B:0):0,(C,(D)u)v);", 8, 4, 4),   # zero-length branches, a unary node
    ("((A,B));", 4, 2, 2),                   # a unary root
    ("((A,B),C:0);", 5, 2, 3),               # a zero-length last leaf
    ("(,(,));", 5, 2, 0),                    # unnamed leaves: drawn, not labelled
    ("A;", 1, 0, 1),
]


def test_engine_draws_png_and_svg_and_the_svg_shows_the_tree(tmp_path: Path):
    engine = PhyloEngine(jobs=2, timeout=60.0)
    texts = [t for t, *_ in HAND_DRAWN] + ["(A,B));"]
    (tmp_path / "png").mkdir()
    (tmp_path / "svg").mkdir()
    pngs = engine.render(texts, tmp_path / "png", "png")
    svgs = engine.render(texts, tmp_path / "svg", "svg")
    for (text, nodes, internal, labels), png, svg in zip(HAND_DRAWN, pngs, svgs, strict=False):
        assert png.ok and png.image is not None and png.image.read_bytes()[:4] == b"\x89PNG"
        assert svg.ok and svg.image is not None, svg.error
        drawn = tree_statistics(svg.image.read_text(encoding="utf-8"))
        assert (drawn["entities"], drawn["internal"], drawn["leaf_labels"]) == (
            nodes, internal, labels), text
        assert drawn["relations"] == _read(text).counts()["relations"]
    bad = svgs[-1]
    assert not bad.ok and bad.error_line == 1 and "')' closes no '('" in (bad.error or "")
    assert engine.version().startswith("biopython ")


def test_engine_refuses_a_tree_over_the_leaf_limit(tmp_path: Path):
    huge = "(" + ",".join(f"L{k}" for k in range(1001)) + ");"
    [result] = PhyloEngine().render([huge], tmp_path, "svg")
    assert not result.ok and "1,001 leaves" in (result.error or "")


# --- the similarity -----------------------------------------------------------------------

T1 = "((A,B),(C,(D,E)));"
T2 = "((A,C),(B,(D,E)));"


def test_similarity_of_two_five_leaf_trees_by_hand():
    # clusters T1: {A,B} {C,D,E} {D,E}; T2: {A,C} {B,D,E} {D,E}
    # RF = |{AB, CDE, AC, BDE}| = 4, max = 3 + 3 = 6 → 1 − 4/6 = 1/3; leaves all shared
    c = NEWICK.compare_code(T1, T2, True)
    assert c.rf_similarity == pytest.approx(1 / 3) and c.leaf_f1 == 1.0
    assert c.score == pytest.approx(2 / 3)
    assert c.clades.matched == 1 and c.relations.f1 == pytest.approx(1 / 3)


def test_similarity_counts_leaves_and_normalises_names():
    # gold leaves A B C D E; predicted a, B, C, X (Newick '_' is a space; case ignored)
    c = NEWICK.compare_code("((Homo_sapiens,B),(C,(D,E)));", "(('homo sapiens',B),(C,X));",
                            True)
    assert (c.leaves.gold, c.leaves.pred, c.leaves.matched) == (5, 4, 3)
    assert c.leaf_f1 == pytest.approx(2 * 3 / 9)
    # clusters: gold {hs,b} {c,d,e} {d,e}; predicted {hs,b} {c,x}: one shared of 3 + 2
    assert c.rf_similarity == pytest.approx(1 - 3 / 5)


def test_similarity_validity_gate_and_broken_code():
    assert NEWICK.compare_code(T1, T1, True).score == 1.0
    assert NEWICK.compare_code(T1, T1, False).score == 0.0
    broken = NEWICK.compare_code(T1, "((A,B),(C", False)
    assert broken.score == 0.0 and broken.warnings
    swapped = NEWICK.compare_code(T1, "((A,C),(B,(D,E)));", True).score
    assert 0.0 < swapped < 1.0


def test_compare_command_scores_two_tree_files(tmp_path: Path):
    from click.testing import CliRunner

    from diagbench.cli import cli

    (tmp_path / "gold.nwk").write_text(T1, encoding="utf-8")
    (tmp_path / "pred.nwk").write_text(T2, encoding="utf-8")
    done = CliRunner().invoke(cli, ["compare", str(tmp_path / "gold.nwk"),
                                    str(tmp_path / "pred.nwk")])
    assert done.exit_code == 0, done.output
    assert "gold.nwk: tree, valid, entity F1 1.000, relation F1 0.333, score 0.667" in done.output
