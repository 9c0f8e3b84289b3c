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
from tests.conftest import REALWORLD

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
    # two branches below the root, and the root's own (0.5) drawn at the left edge
    assert tree.depth() == 3
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


@pytest.mark.parametrize(("text", "internal"), [
    # BEAST / FigTree: the rooting comment before the tree, an annotation between the
    # colon and the length: the clade (A,B) has support 1 and length 3.82
    ("[&R] ((A:1,B:2)1:[&rate=7.8E-4]3.82,C:1);", {"length": "3.82", "support": "1"}),
    # NHX
    ("((A:1,B:2)90:[&&NHX:S=human:E=1.1]3,C:1);", {"length": "3", "support": "90"}),
    # DendroPy: a comment after the label and after the length
    ("((A:1,B:2)[&x=1]:3.82[&y=2],C:1);", {"length": "3.82"}),
])
def test_comments_where_beast_figtree_and_dendropy_write_them_are_read(text, internal):
    p = _read(text)
    assert p.errors == ()
    leaves = {e.name: dict(e.properties) for e in p.diagram.entities if e.kind == "leaf"}
    assert leaves == {"A": {"length": "1"}, "B": {"length": "2"}, "C": {"length": "1"}}
    assert dict(p.diagram.entities[1].properties) == internal


def test_a_label_broken_across_two_lines_is_read_as_biopython_reads_it():
    import io

    from Bio import Phylo

    text = "((Homo_sap\niens:1,Pan:2):3,\nGorilla:1);\n"
    p = _read(text)
    assert p.errors == ()
    assert [e.name for e in p.diagram.entities if e.kind == "leaf"] == [
        "Homo_sapiens", "Pan", "Gorilla"]
    # Biopython's own reading of the file is the oracle
    tree = Phylo.read(io.StringIO(text), "newick")
    assert [c.name for c in tree.get_terminals()] == ["Homo_sapiens", "Pan", "Gorilla"]
    # a line that starts with spaces is another word: out of place, named where it is
    [error] = _read("((Homo_sap\n  iens:1,Pan:2):3,Gorilla:1);").errors
    assert (error.line, error.reason) == (2, "column 3: 'iens' cannot follow 'label'")
    # a comment never closed is named where it opens
    [error] = _read("(A,B);\n(C,[x\nD);").errors
    assert (error.line, error.reason) == (2, "column 4: unexpected '['")


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


@pytest.mark.parametrize(("text", "longest"), [
    ("((A:10,B:9.5):1,C:1);", None),   # 10 / 9.5 = 1.053: under a 10 % lead
    ("((A:12,B:10):1,C:1);", "A"),     # 12 / 10 = 1.2
])
def test_the_longest_branch_is_asked_only_with_a_clear_lead(text, longest):
    facts = {f.subject: f.answer for f in tree_facts(_read(text).diagram)}
    assert facts.get("longest-branch") == longest


def test_the_longest_branch_of_a_real_tree_too_close_to_call():
    path = (REALWORLD / "dendropy-newick/tests/unittests/data/trees/"
            "dendropy-test-trees-n33-unrooted-x10b.newick")
    if not path.is_file():
        pytest.skip("the real-world trees are not here")
    first = read_newick(path.read_text(encoding="utf-8"))[0].diagram
    tree = Phylogeny(first)
    top = sorted((tree.length(e), e.name) for e in tree.leaves)[-2:]
    # t25 885.311 against t21 879.529: 0.7 % longer, not asked
    assert [name for _, name in top] == ["t21", "t25"]
    assert "longest-branch" not in {f.subject for f in tree_facts(first)}


@pytest.mark.parametrize(("text", "depth"), [
    # every branch at least 2 % of the width (A: 1 + 2 = 3): 2 branches to A
    ("((A:2,B:2):1,C:3);", 2),
    # the root's own branch (1 of a width 1 + 3 = 4) is drawn: counted, 3
    ("((A:2,B:2):1,C:3):1;", 3),
    # no lengths: every branch one unit, 2
    ("((A,B),C);", 2),
    # a branch of 0.007 beside 900: invisible, no depth question
    ("((A:900,B:900):0.007,C:900);", None),
    # a leaf without a length draws none: no depth question
    ("((A:2,B),C:3);", None),
])
def test_depth_is_asked_only_where_every_branch_is_seen(text, depth):
    facts = {f.subject: f for f in tree_facts(_read(text).diagram)}
    assert (facts["depth"].answer if "depth" in facts else None) == depth
    if text.endswith(":1;"):
        assert "root's own branch" in facts["depth"].question


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
    # comments where BEAST writes them, a label broken across lines: drawn as read
    ("[&R] ((A:1,B:2)1:[&rate=7.8E-4]3.82,Homo_sap\niens:1);", 5, 2, 3),
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


def test_rewrite_reorders_children_and_keeps_the_tree():
    code = "[&R] ((A:1,'B c':2)90:[&rate=1]3.5,(D,E)0.5:1,F:0.25);\n"
    written = {NEWICK.rewrite(code, random.Random(seed)) for seed in range(6)}
    assert len(written) > 1
    for w in written:
        assert w is not None and "[" not in w and "'B c'" in w
        [before], [after] = NEWICK.read(code), NEWICK.read(w)
        tree, other = Phylogeny(before.diagram), Phylogeny(after.diagram)
        assert sorted(map(sorted, other.clades())) == sorted(map(sorted, tree.clades()))
        assert sorted(map(tuple, (e.properties for e in after.diagram.entities))) == sorted(
            map(tuple, (e.properties for e in before.diagram.entities)))
        assert NEWICK.compare_code(code, w, True).score == 1.0


def test_facts_are_what_phylo_drew():
    """The leaves are the leaves drawn; a leaf a question names is a label drawn."""
    from tests.drawn_facts import facts_and_drawings

    checked = 0
    for name, facts, drawn in facts_and_drawings(NEWICK):
        answers = {f.subject: f.answer for f in facts}
        assert answers["leaves"] == drawn["leaves"], name
        named_leaves = [a for f in facts if f.subject in ("longest-branch", "clade")
                        for a in ((f.answer,) if isinstance(f.answer, str) else f.answer)]
        assert set(named_leaves) <= set(drawn["leaf_names"]), name
        checked += 1
    assert checked == 7
