"""Dot-bracket (STRUDEL's "DNA sequence (RNA structure)"): the stack reader and its
diagnostics, the structure's counts (stems and loops worked by hand), the facts, the
generator, the base-pair similarity, the language's detection, and the real CRW files
of R2DT (a sample)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from diagbench.diagram.rna import RnaStructure, rna_facts
from diagbench.languages import detect, named
from diagbench.languages.dotbracket.read import read_dotbracket, record_texts, synth_dotbracket
from tests.conftest import REALWORLD

DOTBRACKET = named("dotbracket")
CRW = REALWORLD / "r2dt-crw-dotbracket" / "data" / "crw-fasta"
CANONICAL = {"GC", "CG", "AU", "UA", "GU", "UG"}


def _read(text: str):
    [parsed] = read_dotbracket(text)
    return parsed


def _model(text: str) -> RnaStructure:
    model = _read(text).diagram
    assert isinstance(model, RnaStructure)
    return model


# --- the reader ---------------------------------------------------------------------------

def test_reader_reads_header_sequence_structure_and_energy():
    p = _read("# a comment\n>hp1 a hairpin\nGGGAAACCC\n(((...)))  ( -1.20)\n")
    model = p.diagram
    assert p.errors == () and p.kind == "rna" and p.language == "dotbracket"
    assert p.first_line == 2 and model.name == "hp1 a hairpin"
    assert model.sequence == "GGGAAACCC" and model.structure == "(((...)))"
    assert model.pairs == ((1, 9), (2, 8), (3, 7)) and model.energy == -1.2
    # the graph: one entity per base (id its position), one relation per pair
    assert [(e.id, e.name, e.kind) for e in model.entities[:2]] == [("1", "G", "base"),
                                                                    ("2", "G", "base")]
    assert [(r.source, r.target, r.type) for r in model.relations] == [
        ("1", "9", "base_pair"), ("2", "8", "base_pair"), ("3", "7", "base_pair")]


def test_every_bracket_type_pairs_by_its_own_stack():
    # ( [ { < and A/a interleave: each closing bracket takes the nearest of its own kind
    model = _model("NNNNNNNNNNNNNNN\n([{<A.)]}>a.....\n")
    assert model.pairs == ((1, 7), (2, 8), (3, 9), (4, 10), (5, 11))
    assert model.pseudoknots == ((2, 8), (3, 9), (4, 10), (5, 11))


def test_several_records_are_several_diagrams_with_or_without_headers():
    text = ">a\nGGGAAACCC\n(((...)))\n\nACGU\n....\n>c\n# a comment\nGAAAC\n(...)\n"
    parsed = read_dotbracket(text)
    assert [(p.index, p.first_line, p.diagram.name, len(p.diagram.pairs)) for p in parsed] == [
        (0, 1, "a", 3), (1, 5, None, 0), (2, 7, "c", 1)]
    # each record's lines, blank and comment lines inside it kept (engines count from its
    # first line)
    assert record_texts(text) == [(1, ">a\nGGGAAACCC\n(((...)))\n"), (5, "ACGU\n....\n"),
                                  (7, ">c\n# a comment\nGAAAC\n(...)\n")]


def test_lower_case_and_iupac_letters_read():
    p = _read("acgunRYk\n(......)\n")
    assert p.errors == () and p.diagram.sequence == "acgunRYk"


@pytest.mark.parametrize(("text", "line", "column", "reason"), [
    ("GGGAAACCC\n(((...))))\n", 2, 10, "unbalanced ')' at column 10"),
    ("GGGAAACCCC\n((((...)))\n", 2, 1, "unclosed '(' at column 1 (1 never closed)"),
    ("GGGAAACCC\n(((..[)))\n", 2, 6, "unclosed '[' at column 6"),
    ("GGGAAACCC\n((...))\n", 2, 8, "the structure has 7 positions, the sequence 9"),
    ("GGGAXACCC\n(((...)))\n", 1, 5, "'X' is not a nucleotide letter"),
    ("GGGAAACCC\n(((.,.)))\n", 2, 5, "',' at column 5 is not a structure symbol"),
    ("GGGAAACCC\n(((...))) -1.2\n", 2, 11, "'-1.2' after the structure is no energy"),
    (">x\n(((...)))\n", 2, 0, "a structure with no sequence line before it"),
    (">x\nGGGAAACCC\n", 2, 0, "no structure line after the sequence"),
    ("\n\n", 1, 0, "empty source: no structure"),
])
def test_diagnostics_give_line_column_and_reason(text, line, column, reason):
    [problem, *_] = _read(text).errors
    assert (problem.line, problem.column) == (line, column) and reason in problem.reason


def test_a_record_with_errors_keeps_the_pairs_it_could_match():
    p = _read("GGGAAACCCA\n(((...))))\n")
    assert len(p.errors) == 1 and p.diagram.pairs == ((1, 9), (2, 8), (3, 7))


# --- counts, worked by hand ---------------------------------------------------------------

@pytest.mark.parametrize(("structure", "expected"), [
    # one hairpin: 3 stacked pairs, loop of 3
    ("(((...)))", {"bases": 9, "pairs": 3, "unpaired": 3, "stems": 1, "hairpins": 1,
                   "internal_loops": 0, "bulges": 0, "multiloops": 0}),
    # a bulge of one base on the 5' side between stems of 2 and 2
    ("((.((...))))", {"pairs": 4, "stems": 2, "hairpins": 1, "bulges": 1,
                      "internal_loops": 0}),
    # an internal loop (1 base each side), then a hairpin
    ("((.((...)).))", {"pairs": 4, "stems": 2, "hairpins": 1, "internal_loops": 1,
                       "bulges": 0}),
    # a multiloop closed by (1,19) around two hairpins; lonely pairs are stems of one
    ("(.(...).(.....)...)", {"pairs": 3, "stems": 3, "hairpins": 2, "multiloops": 1,
                             "unpaired": 13}),
    # an H-type pseudoknot: [] pairs cross the () stem; loops of the () pairs only
    ("((..[[..))..]]", {"pairs": 4, "pseudoknot_pairs": 2, "stems": 2, "hairpins": 1}),
    ("........", {"pairs": 0, "stems": 0, "hairpins": 0, "unpaired": 8}),
])
def test_counts_of_stems_and_loops(structure: str, expected: dict[str, int]):
    counts = _read(f"{'N' * len(structure)}\n{structure}\n").counts()
    assert {k: counts[k] for k in expected} == expected
    assert counts["entities"] == counts["bases"] and counts["relations"] == counts["pairs"]


# --- facts --------------------------------------------------------------------------------

def test_facts_answer_from_the_structure():
    model = _model(">t\nGCGAAAGCAUUCGUG\n((...))..((..))\n")
    facts = {f.subject: f.answer for f in rna_facts(model)}
    # pairs (1,7) (2,6) (10,15) (11,14): 4 pairs, 2 hairpins, 2 stems, 7 unpaired
    assert facts["bases"] == 15 and facts["pairs"] == 4 and facts["hairpins"] == 2
    assert facts["stems"] == 2 and facts["unpaired"] == 7 and facts["first-base"] == "G"
    assert facts["partner"] == 15  # the middle of the four pairs by 5' end: (10, 15)
    assert facts["longest-stem"] == 2
    assert facts["paired"] is False  # base 8 (the middle of 15) is in the linker
    assert {f.task for f in rna_facts(model)} == {"identification", "quantification",
                                                  "structural"}
    assert rna_facts(_model("ACGU\n....\n"))[-1].answer is False
    assert rna_facts(RnaStructure("dotbracket", "rna")) == []


# --- the generator ------------------------------------------------------------------------

@pytest.mark.parametrize(("complexity", "low", "high"), [
    ("low", 20, 31), ("medium", 45, 100), ("high", 60, 100)])
def test_synth_writes_valid_foldable_structures_of_growing_size(complexity, low, high):
    sizes, knots = [], 0
    for seed in range(30):
        code = synth_dotbracket(random.Random(seed), complexity)
        assert code == synth_dotbracket(random.Random(seed), complexity)  # seeded
        p = _read(code)
        assert p.errors == (), code
        model = p.diagram
        assert all((model.sequence[i - 1] + model.sequence[j - 1]) in CANONICAL
                   for i, j in model.pairs), code
        assert detect(None, code) is DOTBRACKET
        sizes.append(p.counts()["bases"])
        knots += bool(model.pseudoknots)
        counts = p.counts()
        if complexity == "low":
            assert counts["hairpins"] == 1 and counts["stems"] == 1
        elif complexity == "medium":
            assert counts["hairpins"] >= 2 and counts["internal_loops"] + counts["bulges"] >= 1
        else:
            assert counts["multiloops"] >= 1
    assert low <= min(sizes) and max(sizes) <= high
    assert (knots > 0) == (complexity == "high")


# --- similarity ---------------------------------------------------------------------------

GOLD = ">g\nGGGGAAACCCCAGGGAAACCCA\n((((...)))).(((...))).\n"


def test_similarity_one_pair_opened_scores_strictly_between():
    opened = ">g\nGGGGAAACCCCAGGGAAACCCA\n.(((...)))..(((...))).\n"
    comparison = DOTBRACKET.compare_code(GOLD, opened, True)
    # gold 7 pairs, prediction 6 of them: 2·6/13, every letter right: (12/13 + 1) / 2
    assert comparison.score == pytest.approx(25 / 26)
    assert 0 < comparison.score < 1 and comparison.sequence_identity == 1.0
    assert DOTBRACKET.compare_code(GOLD, GOLD, True).score == 1.0


def test_similarity_broken_or_invalid_prediction_scores_zero():
    broken = ">g\nGGGGAAACCCCAGGGAAACCCA\n((((...)))).(((...)))))\n"
    assert DOTBRACKET.compare_code(GOLD, broken, True).score == 0.0
    assert DOTBRACKET.compare_code(GOLD, "not dot-bracket at all", True).score == 0.0
    assert DOTBRACKET.compare_code(GOLD, GOLD, False).score == 0.0


def test_similarity_compares_pairs_by_position_across_sequences():
    other = ">p\nCCCCAAAGGGGAGGGAAACCCA\n((((...)))).(((...))).\n"
    comparison = DOTBRACKET.compare_code(GOLD, other, True)
    # the same pairs on another sequence: F1 1, 14 of 22 letters the same:
    # (1 + 14/22) / 2 = 18/22
    assert comparison.f1 == 1.0 and comparison.sequence_identity == pytest.approx(14 / 22)
    assert comparison.score == pytest.approx(18 / 22)


def test_similarity_scores_the_letters_drawn():
    # the right pairs on an all-N sequence: F1 1, no letter right: (1 + 0) / 2
    unknown = ">g\n" + "N" * 22 + "\n((((...)))).(((...))).\n"
    assert DOTBRACKET.compare_code(GOLD, unknown, True).score == 0.5
    # a gold without pairs against one unpaired A: both without pairs (F1 1), and of
    # the longer length 9 one letter, the first, compared: G ≠ A, identity 0: 1/2
    chain = ">g\nGGGAAACCC\n.........\n"
    assert DOTBRACKET.compare_code(chain, ">p\nA\n.\n", True).score == 0.5
    # the first letter right: identity 1/9, (1 + 1/9) / 2 = 5/9
    assert DOTBRACKET.compare_code(chain, ">p\nG\n.\n", True).score == pytest.approx(5 / 9)


# --- the language -------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "language"), [
    (GOLD, "dotbracket"),
    ("GGGAAACCC\n(((...))) (-1.2)\n", "dotbracket"),
    (">x\nGGAAACC\n((...)))\n", "dotbracket"),   # an error is the reader's to report
    (">s\nACGU\nACGU\n", "fasta"),                 # a sequence over two lines
    (">s\nACGUACGU\nAC..GU..\n", "fasta"),         # gapped with '.': mostly letters
    (">x\nGGAAACC\nAA...aa\n", "fasta"),          # letters first: only by suffix
])
def test_dot_bracket_is_recognised_by_content_before_fasta(text: str, language: str):
    assert detect(None, text).name == language
    assert detect(Path("x.dbn"), text) is DOTBRACKET
    # a .fasta file holding a structure (as R2DT writes them) is dot-bracket too
    assert detect(Path("x.fasta"), text).name == language


# --- the real files (R2DT's CRW structures) -----------------------------------------------

def _crw() -> list[Path]:
    if not CRW.is_dir():
        pytest.skip(f"{CRW} is absent")
    return sorted(CRW.glob("*.fasta"))


def test_real_crw_files_read_and_unbalanced_ones_are_found():
    files = _crw()
    assert len(files) >= 20
    clean = 0
    for path in files[::3]:
        text = path.read_text(encoding="utf-8")
        assert detect(None, text) is DOTBRACKET and detect(path, text) is DOTBRACKET
        p = _read(text)
        lines = text.splitlines()
        opened, closed = lines[2].count("("), lines[2].count(")")
        assert p.diagram.counts()["bases"] == len(lines[1])
        if opened == closed and not p.errors:
            clean += 1
            assert len(p.diagram.pairs) == opened
        else:  # the errors name the structure line
            assert p.errors and {d.line for d in p.errors} == {3}, path.name
    assert clean >= len(files[::3]) - 3


def test_rewrite_renames_pseudoknot_brackets_and_keeps_the_pairs():
    knot = ">k\nGGGGAAAACCCCAAAAGGGGAAAACCCC\n((((....[[[[))))....]]]]....  (-3.10)\n"
    written = DOTBRACKET.rewrite(knot, random.Random(3))
    assert written is not None and "[" not in written and written.startswith("#")
    [before], [after] = DOTBRACKET.read(knot), DOTBRACKET.read(written)
    # pairs (1,16)…(4,13) nested, (9,24)…(12,21) the pseudoknot
    assert after.diagram.pairs == before.diagram.pairs
    assert after.diagram.pseudoknots == ((9, 24), (10, 23), (11, 22), (12, 21))
    assert after.diagram.energy == -3.1
    assert DOTBRACKET.compare_code(knot, written, True).score == 1.0


def test_facts_are_what_varna_drew():
    """Bases, pairs and unpaired bases are the letters and pair lines VARNA drew."""
    from tests.drawn_facts import facts_and_drawings

    checked = 0
    for name, facts, drawn in facts_and_drawings(DOTBRACKET):
        answers = {f.subject: f.answer for f in facts}
        assert answers["bases"] == drawn["bases"], name
        assert answers["pairs"] == drawn["pairs"], name
        assert answers["unpaired"] == drawn["bases"] - 2 * drawn["pairs"], name
        checked += 1
    assert checked == 7
