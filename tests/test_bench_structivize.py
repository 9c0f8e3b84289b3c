"""The pure parts of bench/structivize.py (diagbench against STRUDEL's toolkit): which
structivize renderer each shared category maps to, the input conversion, and the table
printed from given figures. Nothing here installs or runs structivize."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from diagbench.languages import category_names, named

_PATH = Path(__file__).resolve().parents[1] / "bench" / "structivize.py"
_SPEC = importlib.util.spec_from_file_location("bench_structivize", _PATH)
assert _SPEC is not None and _SPEC.loader is not None
bench = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = bench  # dataclasses look their module up there
_SPEC.loader.exec_module(bench)


def test_every_row_is_a_diagbench_category_drawn_by_its_language():
    categories = [s.category for s in bench.SHARED]
    assert len(categories) == len(set(categories))
    for shared in bench.SHARED:
        assert shared.category in category_names()
        assert shared.category in named(shared.language).categories


def test_the_rows_map_to_structivize_s_renderers_of_their_language():
    by_category = {s.category: s for s in bench.SHARED}
    assert by_category["class"].renderer == "model_plantuml"
    assert by_category["class"].strudel_category == "class"
    assert by_category["sequence"].strudel_category == "sequence"
    assert by_category["er"].renderer == "db_dbml"
    assert by_category["reaction"].renderer == "chem_smarts_reaction"
    assert by_category["rna-structure"].renderer == "bio_vienna"
    assert by_category["quantum-circuit"].renderer == "quantum_qasm2"
    assert by_category["chart"].renderer == by_category["table"].renderer == "charts_plotly"
    assert [s.category for s in bench.SHARED if s.unavailable] == ["deep-learning"]


def test_shared_named_keeps_the_table_order_and_names_an_unknown_category():
    rows = bench.shared_named(["music", "class"])
    assert [r.category for r in rows] == ["class", "music"]
    with pytest.raises(ValueError, match="not a shared category: sonnet"):
        bench.shared_named(["class", "sonnet"])


def test_missing_programs_are_those_the_lookup_does_not_find():
    music = bench.shared_named(["music"])[0]
    assert music.programs == ("abc2ly", "lilypond", "inkscape")
    found = {"abc2ly": "/usr/bin/abc2ly", "inkscape": "/usr/bin/inkscape"}
    assert bench.missing_programs(music, found.get) == ["lilypond"]
    assert bench.missing_programs(music, lambda p: "/bin/" + p) == []


def test_fasta_records_are_joined_onto_one_line_each_for_structivize():
    fasta = bench.shared_named(["dna-sequence"])[0]
    wrapped = ">seq1\nACGT\nTTGA\n\n>seq2\nAC\nGT\nCA\n"
    assert bench.for_structivize(fasta, wrapped) == ">seq1\nACGTTTGA\n>seq2\nACGTCA\n"
    newick = bench.shared_named(["phylogenetic-tree"])[0]
    assert bench.for_structivize(newick, "(A,B);\n") == "(A,B);\n"


def test_ratio_and_goal_from_seconds_and_valid_counts():
    # 12 diagrams: structivize 24 s (0.5/s), diagbench 0.6 s (20/s): 40x.
    row = bench.Row("class", "model_plantuml", 12, bench.Side(24.0, 11), bench.Side(0.6, 12))
    assert row.ratio == pytest.approx(40.0)
    assert row.meets_goal
    fewer_valid = bench.Row("class", "r", 12, bench.Side(24.0, 12), bench.Side(0.6, 11))
    assert fewer_valid.ratio == pytest.approx(40.0) and not fewer_valid.meets_goal
    slow = bench.Row("class", "r", 12, bench.Side(9.9, 12), bench.Side(1.0, 12))
    assert slow.ratio == pytest.approx(9.9) and not slow.meets_goal
    skipped = bench.Row("deep-learning", "nn_onnx", skipped="why")
    assert skipped.ratio is None and not skipped.meets_goal


def test_table_prints_rates_ratio_validity_goal_and_load():
    rows = [bench.Row("class", "model_plantuml", 12, bench.Side(24.0, 11), bench.Side(0.6, 12)),
            bench.Row("music", "music_abc", 4, bench.Side(2.0, 4), bench.Side(1.0, 3)),
            bench.Row("deep-learning", "nn_onnx", skipped="no netron-export")]
    lines = bench.table(rows, (3.5, 2.25, 1.0)).splitlines()
    assert len(lines) == 5
    assert lines[1].split() == ["class", "model_plantuml", "12", "0.50", "20.0", "40.0x",
                                "11/12", "12/12", "met"]
    # 4 diagrams: 2/s against 4/s, a 2x ratio, and one valid drawing fewer.
    assert lines[2].split() == ["music", "music_abc", "4", "2.00", "4.0", "2.0x", "4/4",
                                "3/4", "NOT", "met"]
    assert lines[3].split()[:2] == ["deep-learning", "nn_onnx"]
    assert lines[3].endswith("not run: no netron-export")
    assert lines[4].startswith("load average 3.50 2.25 1.00; goal: ratio >= 10x")
