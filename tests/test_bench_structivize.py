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
    assert len(lines) == 7
    assert lines[1].split() == ["class", "model_plantuml", "12", "0.50", "20.0", "40.0x",
                                "11/12", "12/12", "met"]
    # 11 valid in 24 s, 12 in 0.6 s.
    assert lines[2] == "    valid drawings/s: structivize 0.46, diagbench 20.00"
    # 4 diagrams: 2/s against 4/s, a 2x ratio, and one valid drawing fewer.
    assert lines[3].split() == ["music", "music_abc", "4", "2.00", "4.0", "2.0x", "4/4",
                                "3/4", "NOT", "met"]
    assert lines[4] == "    valid drawings/s: structivize 2.00, diagbench 3.00"
    assert lines[5].split()[:2] == ["deep-learning", "nn_onnx"]
    assert lines[5].endswith("not run: no netron-export")
    assert lines[6].startswith("load average 3.50 2.25 1.00; goal: ratio >= 10x")


def test_a_category_drawn_by_another_tool_says_so_under_its_row():
    [bpmn] = bench.shared_named(["business-process"])
    assert "bpmn-js" in bpmn.drawn_otherwise
    assert all(not s.drawn_otherwise for s in bench.SHARED if s is not bpmn)
    row = bench.Row("business-process", "biz_bpmn", 2, bench.Side(1.0, 2), bench.Side(2.0, 2),
                    drawn_otherwise="theirs, ours")
    assert bench.table([row], (1.0, 1.0, 1.0)).splitlines()[2] == (
        "    not the same drawing: theirs, ours")


def test_the_floor_bounds_the_ratio_by_structivize_s_time_per_diagram_and_process():
    # 24 diagrams on 2 jobs a side: structivize 12 s = 1.0 s a diagram and process,
    # diagbench 6 s = 0.5 s; the library call alone 0.25 s: structivize 4x the call,
    # diagbench 2x; a drawing costing just the call would reach 4x; 10x asks for 100 ms.
    row = bench.Row("quantum-circuit", "quantum_qasm2", 24, bench.Side(12.0, 24),
                    bench.Side(6.0, 24), jobs=2, floor=0.25)
    assert row.per_process(row.structivize) == pytest.approx(1.0)
    assert row.per_process(row.diagbench) == pytest.approx(0.5)
    assert row.ratio_bound == pytest.approx(4.0) and row.ratio == pytest.approx(2.0)
    lines = bench.table([row], (1.0, 1.0, 1.0)).splitlines()
    assert lines[2] == ("    floor: the library call alone (as structivize makes it, one "
                        "process) 250 ms a diagram; per diagram and process structivize "
                        "1000 ms (4.0x the call), diagbench 500 ms (2.00x); 10x asks for "
                        "100 ms")
    assert len(lines) == 4  # every drawing valid: no valid-rate line
    assert bench.Row("class", "model_plantuml", 24, bench.Side(12.0, 24),
                     bench.Side(6.0, 24), jobs=2).ratio_bound is None


def test_floor_calls_are_structivize_renderers_of_shared_categories():
    renderers = {s.renderer for s in bench.SHARED}
    assert set(bench.FLOOR_CALLS) == {"quantum_qasm2", "bio_fasta", "bio_newick",
                                      "charts_geojson", "chem_smarts_reaction", "kg_xml"}
    assert set(bench.FLOOR_CALLS) <= renderers


def test_cpu_a_diagram_of_each_side_and_their_ratio():
    # 8 diagrams: structivize's processes spent 4.0 s of CPU (500 ms a diagram),
    # diagbench's 0.5 s (62.5 ms, printed rounded to 62): 8x.
    row = bench.Row("logic", "logic", 8, bench.Side(2.0, 8, 4.0), bench.Side(0.25, 8, 0.5))
    lines = bench.table([row], (1.0, 1.0, 1.0)).splitlines()
    assert lines[2] == ("    CPU a diagram (every process of a side): structivize 500 ms, "
                        "diagbench 62 ms: 8.0x")
    unmeasured = bench.Row("logic", "logic", 8, bench.Side(2.0, 8), bench.Side(0.25, 8, 0.5))
    assert len(bench.table([unmeasured], (1.0, 1.0, 1.0)).splitlines()) == 3


def test_cpu_since_counts_what_each_process_added_and_an_ended_one_once():
    # Process 1 (ours) 2.0 -> 2.5 s; 2 (a warm engine) 1.0 -> 1.75 s; 3 ended in between
    # after 0.25 s before and 0.5 s more, its 0.75 s now in its parent 1's own count
    # (2.5 s includes it); 4 started in between, 0.125 s.
    before = {1: 2.0, 2: 1.0, 3: 0.25}
    after = {1: 2.5 + 0.75, 2: 1.75, 4: 0.125}
    assert bench.cpu_since(before, after) == pytest.approx(0.5 + 0.75 + 0.75 - 0.25 + 0.125)


def test_a_crashed_worker_is_named_by_its_last_words_and_signal():
    glibc = ("Warning: a font\nfree(): invalid next size (fast)\n"
             "Fatal Python error: Aborted\n\nCurrent thread 0x7f (most recent call first):\n")
    assert bench.crash_reason(["", glibc]) == ("free(): invalid next size (fast) / "
                                               "Fatal Python error: Aborted")
    assert bench.crash_reason(["Fatal Python error: Segmentation fault\n"]) == (
        "Fatal Python error: Segmentation fault")
    assert bench.crash_reason(["a warning only\n", ""]) == ""


def test_the_driver_s_batches_survive_a_program_that_makes_its_stdin_non_blocking():
    """The driver reads its batches apart from the stdin its programs inherit: a program
    leaving its stdin non-blocking (as one of structivize's did) no longer ends them."""
    import subprocess

    script = (
        "import importlib.util, subprocess, sys\n"
        f"spec = importlib.util.spec_from_file_location('b', {str(_PATH)!r})\n"
        "b = importlib.util.module_from_spec(spec); sys.modules['b'] = b\n"
        "spec.loader.exec_module(b)\n"
        "for line in b.batch_lines():\n"
        "    subprocess.run([sys.executable, '-c', 'import os; os.set_blocking(0, False)'])\n"
        "    print('got', line.strip(), flush=True)\n"
        "print('end', flush=True)\n")
    reader = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert reader.stdin is not None and reader.stdout is not None
    try:
        said = []
        for batch in ("one", "two", "three"):
            reader.stdin.write(batch + "\n")
            reader.stdin.flush()
            said.append(reader.stdout.readline().strip())
        reader.stdin.close()
        said.append(reader.stdout.readline().strip())
    finally:
        reader.kill()
        reader.wait()
    assert said == ["got one", "got two", "got three", "end"]
