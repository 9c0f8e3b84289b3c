"""SPICE netlists: the strict reader (against ngspice's own listing, on generated
netlists and on ngspice's example files), the netlistsvg schematic and what it draws,
the node-name-free graph F1 (numbers worked out by hand), the facts, the edit and
rewrite, and the refusal of what reads or runs on the machine (canary file, canary
HTTP server, canary command)."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest

from diagbench.languages import detect, named
from diagbench.languages.spice.engine import SchematicEngine, schematic_statistics
from diagbench.languages.spice.facts import circuit_facts
from diagbench.languages.spice.model import canonical_number, spice_number
from diagbench.languages.spice.ngspice import (
    CONTROL,
    disagreements,
    ngspice_listing,
    oracle_deck,
)
from diagbench.languages.spice.read import MAX_CHARS, MAX_NODES, read_spice
from diagbench.languages.spice.synth import edit_spice, rewrite_spice, synth_spice
from diagbench.render.programs import program, run_program
from tests.canary import canary_server
from tests.sizes import sized

SPICE = named("spice")
REAL = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "realworld" / \
    "ngspice-examples" / "examples"
REAL_FILES = sorted(p for p in REAL.rglob("*") if p.suffix in (".cir", ".sp", ".net"))

DIVIDER = """divider
V1 1 0 dc 5
R1 1 2 1k
R2 2 0 2k
.end
"""


def _circuit(text: str):
    [parsed] = read_spice(text)
    assert parsed.errors == (), parsed.errors
    return parsed.diagram


def _score(gold: str, pred: str, valid: bool = True) -> float:
    return SPICE.compare_code(gold, pred, valid).score


# --- the reader ----------------------------------------------------------------------

def test_reader_reads_components_nodes_subcircuits_and_models():
    circuit = _circuit("""Amplifier
* a comment
VCC vcc GND dc 12 ; the supply
R1 vcc b
+ 47k
.param rc = 4.7k
RC vcc c {rc}
Q1 c b e qn
Q2 c b e sub qn
M1 d g 0 0 nm w=1u
M2 d g 0 vd
X1 c e sect
.subckt sect a z
R1 a z 1meg
.ends sect
.model qn npn(bf=100)
.model nm nmos
.model vd vdmos
.tran 1u 1m
.end
this line comes after the end
""")
    names = {c.name: (c.letter, c.nodes, c.value) for c in circuit.components}
    assert names == {"vcc": ("v", ("vcc", "0"), "12"), "r1": ("r", ("vcc", "b"), "47k"),
                     "rc": ("r", ("vcc", "c"), "4.7k"), "q1": ("q", ("c", "b", "e"), "qn"),
                     "q2": ("q", ("c", "b", "e", "sub"), "qn"),
                     "m1": ("m", ("d", "g", "0", "0"), "nm"),
                     "m2": ("m", ("d", "g", "0"), "vd"), "x1": ("x", ("c", "e"), "sect")}
    assert [(s.name, s.ports, [c.name for c in s.components]) for s in circuit.subcircuits] \
        == [("sect", ("a", "z"), ["r1"])]
    counts = circuit.counts()
    assert (counts["components"], counts["resistors"], counts["bjts"], counts["mosfets"],
            counts["subcircuit_instances"], counts["subcircuits"]) == (8, 2, 2, 2, 1, 1)
    # vcc, ground (gnd), b, c, e, sub, d, g
    assert counts["nodes"] == 8 and circuit.nodes()[0] == "0"


def test_spice_numbers_and_their_canonical_writing():
    assert spice_number("4.7k") == 4700 and spice_number("1MEG") == 1e6
    assert spice_number("10uF") == pytest.approx(1e-5) and spice_number("2m") == 2e-3
    assert spice_number("abc") is None
    assert canonical_number(1000) == canonical_number(spice_number("1e3") or 0) == "1k"
    assert canonical_number(4.7e-6) == "4.7u" and canonical_number(1e6) == "1meg"


@pytest.mark.parametrize(("line", "reason"), [
    ("R9 1 2", "two nodes and a value expected"),
    ("Z1 1 2 3", "type 'Z' is not one this reader knows"),
    ("D9 1 0 nomodel", "no .model defines 'nomodel'"),
    ("X9 1 2 3 sect", "3 nodes for 'sect', which has 2 ports"),
    ("X9 1 2 nosuch", "no .subckt defines 'nosuch'"),
    (".ends", ".ends without .subckt"),
    (".frobnicate", "unknown control line .frobnicate"),
    ("R1 1 0 5k", "a second element named r1"),
    ("R9 1 0 {undefined_name}", "parameter 'undefined_name' is not defined"),
    ('.model src filesource(file="/etc/passwd")', "refused: a quoted word (a file name)"),
    ('V9 1 0 pwl file="/etc/passwd"', "refused: a quoted word (a file name)"),
    (".model src filesource(file=/etc/passwd)", "refused: a filesource model reads a file"),
])
def test_a_malformed_line_is_an_error_on_its_line(line: str, reason: str):
    text = f"t\nR1 1 0 1k\n.subckt sect a b\nR1 a b 1\n.ends\n{line}\n.end\n"
    [parsed] = read_spice(text)
    assert [(e.line, reason in e.reason) for e in parsed.errors] == [(6, True)], parsed.errors


def test_a_netlist_without_end_or_with_an_open_subckt_is_an_error():
    [parsed] = read_spice("t\nR1 1 0 1k\n.subckt s a\n")
    assert {e.reason for e in parsed.errors} == {"no .end line", ".subckt without .ends"}


def test_a_million_nodes_is_refused_with_a_clear_error(tmp_path):
    huge = "big\n" + "".join(f"R{k} n{k} n{k + 1} 1k\n" for k in range(1_000_000)) + ".end\n"
    [parsed] = read_spice(huge)
    assert len(parsed.errors) == 1 and f"over the {MAX_CHARS:,}-character limit" in \
        parsed.errors[0].reason
    within = "big\n" + "".join(f"R{k} {k} {k + 1} 1\n" for k in range(MAX_NODES + 5)) + ".end\n"
    assert len(within) < MAX_CHARS
    [parsed] = read_spice(within)
    assert parsed.errors[-1].reason == f"netlist refused: more than {MAX_NODES:,} nodes"
    result = SchematicEngine().render([within], tmp_path, "svg")[0]
    assert not result.ok and "more than" in (result.error or "")


#: A circuit diagbench's generator wrote on which ELK's layout fails (an exception in
#: its compaction): netlistsvg answers nothing and writes the exception to stderr.
ELK_FAILS = """* generated circuit (high)
V1 1 0 dc 5
R1 1 2 680
L1 2 0 6.8u
L2 1 3 22u
R2 2 1 15k
R3 1 2 3.3k
R4 3 4 47k
C1 2 5 680n
R5 1 0 22k
D1 3 6 dmod
Q1 1 7 2 qmod
M1 4 1 0 0 mmod w=10u l=1u
X1 2 3 rcsection
X2 5 8 rcsection
R6 6 0 47k
R7 7 0 150
R8 8 0 68k
.model dmod d(is=1e-14)
.model qmod npn(bf=100)
.model mmod nmos(level=1 vto=0.7)
.subckt rcsection in out
R1 in out 100
C1 out 0 150n
.ends rcsection
.end
"""


def test_a_failed_layout_is_the_error_with_elk_s_own_reason(tmp_path):
    failed, drawn = SchematicEngine().render([ELK_FAILS, ELK_FAILS.replace("R2 2 1 15k\n", "")],
                                             tmp_path, "svg")
    assert not failed.ok and failed.error == (
        "netlistsvg: ELK's layout failed: java.lang.IllegalStateException: Invalid hitboxes "
        "for scanline constraint calculation.")
    assert drawn.ok


# --- refusals: nothing reads the machine ----------------------------------------------

@pytest.fixture
def listener():
    """A real HTTP server on 127.0.0.1 that records every request."""
    with canary_server(b"rleak 1 0 1\n") as (port, hits):
        yield port, hits



def _attack(tmp_path: Path, port: int) -> tuple[str, Path, Path]:
    canary = tmp_path / "canary.inc"
    canary.write_text("rcanary 1 0 123\n", encoding="utf-8")
    touched = tmp_path / "pwned"
    text = (f"attack\n.include {canary}\n.lib {canary} tt\nV1 1 0 1\nR1 1 0 1k\n"
            f".control\nshell touch {touched}\nshell curl -s http://127.0.0.1:{port}/shell\n"
            f".endc\n.include http://127.0.0.1:{port}/include\n.end\n")
    return text, canary, touched


def test_control_include_and_lib_are_refused_and_never_reach_ngspice(tmp_path, listener):
    port, hits = listener
    text, _, touched = _attack(tmp_path, port)
    [parsed] = read_spice(text)
    assert [(e.line, e.reason) for e in parsed.errors] == [
        (2, "refused: it reads a file"), (3, "refused: it reads a file"),
        (10, "refused: it reads a file")]
    assert [(w.line, w.reason) for w in parsed.diagnostics if w.severity == "warning"] == [
        (6, "left out: a .control block runs commands (shell among them)")]
    deck = oracle_deck(text)
    assert ".include" not in deck and ".lib" not in deck and "shell" not in deck
    answer = ngspice_listing(text)
    assert answer.ok and [e.name for e in answer.elements] == ["v1", "r1"]
    rendered = SchematicEngine().render([text], tmp_path / "out", "svg")[0]
    assert not rendered.ok and rendered.error_line == 2
    assert not touched.exists() and hits == []


def test_the_canaries_are_live_ngspice_given_the_raw_text_reads_and_runs_them(tmp_path, listener):
    """The attack works on ngspice itself (so the test above could fail)."""
    port, _ = listener
    text, canary, touched = _attack(tmp_path, port)
    raw = text.replace(".endc", "listing e\n.endc").replace(
        f".include http://127.0.0.1:{port}/include\n", "").replace(f".lib {canary} tt\n", "")
    done = run_program([program("ngspice"), "-n", "-b"], 30, stdin=raw.encode("utf-8"))
    assert "rcanary 1 0 123" in done.stdout.decode("utf-8", "replace")
    assert touched.exists()


# --- ngspice, the oracle --------------------------------------------------------------

def test_ngspice_agrees_with_the_reader_on_generated_netlists():
    for seed in range(sized(6, 60)):
        code = synth_spice(random.Random(seed), ("low", "medium", "high")[seed % 3])
        circuit = _circuit(code)
        pins = Counter(n for c in circuit.components for n in c.nodes)
        assert all(count > 1 for node, count in pins.items() if node != "0"), code
        assert disagreements(code) == [], (seed, code)


def test_ngspice_agrees_with_the_reader_on_its_example_files():
    assert len(REAL_FILES) == 60
    accepted = 0
    for path in REAL_FILES:
        text = path.read_text(encoding="utf-8", errors="replace")
        assert disagreements(text) == [], path.name
        accepted += not read_spice(text)[0].errors
    assert accepted == 21


@pytest.mark.parametrize(("netlist", "expected"), [
    # ngspice picks a binned model pch.1 / pch.2 for `pch`
    (".model pch.1 pmos level=54 lmin=0.1u lmax=20u wmin=0.1u wmax=10u\n"
     ".model pch.2 pmos level=54 lmin=0.1u lmax=20u wmin=10u wmax=100u\n"
     "mp 2 1 0 0 pch w=1u l=1u\nv1 1 0 1\nr1 2 0 1k\n",
     {"mp": ("2", "1", "0", "0")}),
    # a title that is a comment and says "error": not ngspice's error
    ("r1 1 0 1k\nv1 1 0 1\n", {"r1": ("1", "0")}),
])
def test_disagreements_once_found_now_agree(netlist: str, expected: dict):
    text = "* error handling title\n" + netlist + ".end\n"
    assert read_spice(text)[0].errors == ()
    assert disagreements(text) == []
    listed = {e.name: e.words for e in ngspice_listing(text).elements}
    assert all(listed[name][:len(nodes)] == nodes for name, nodes in expected.items())


def test_what_ngspice_reads_differently_is_refused_by_the_reader():
    # a resistor whose value depends on a voltage is a behavioural source in ngspice;
    # a .param over an undefined name fails in ngspice
    [parsed] = read_spice("t\nR1 3 0 R = 'res + 0.03 * V(r1)'\n.param a = 'b + 1'\n.end\n")
    assert [e.line for e in parsed.errors] == [2, 3]
    # an arithmetic parameter is evaluated as ngspice evaluates it (3.0e+00 listed)
    text = "t\n.param tau = 1.5 * 2k\nR1 1 0 {tau/2}\nV1 1 0 1\n.end\n"
    [parsed] = read_spice(text)
    assert parsed.errors == () and parsed.diagram.components[0].value == "1.5k"
    assert disagreements(text) == []


def test_global_nodes_stay_global_inside_subcircuits():
    text = ("t\n.global vdd\n.subckt inv a z\nR1 a vdd 1k\nR2 z 0 1k\n.ends\n"
            "X1 1 2 inv\nV1 vdd 0 1\n.end\n")
    flat = {c.name: c.nodes for c in _circuit(text).flat()}
    assert flat == {"r.x1.r1": ("1", "vdd"), "r.x1.r2": ("2", "0"), "v1": ("vdd", "0")}
    assert disagreements(text) == []


# --- real files: scores and counts ------------------------------------------------------

def _accepted_real() -> list[tuple[str, str]]:
    """Each example file that reads without error (its .control block left out)."""
    out = []
    for path in REAL_FILES:
        text = path.read_text(encoding="utf-8", errors="replace")
        [parsed] = read_spice(text)
        if parsed.diagram.components and not parsed.errors:
            out.append((path.name, text))
    return out


def test_real_files_score_one_against_themselves_and_less_after_one_change():
    real = _accepted_real()
    assert len(real) == 19
    edited = 0
    for name, code in real:
        assert _score(code, code) == 1.0, name
        assert _score(code, rewrite_spice(code, random.Random(1)) or "") == 1.0, name
        changed = edit_spice(code, random.Random(2))
        if changed is not None:
            assert 0.0 < _score(code, changed) < 1.0, name
            edited += 1
    assert edited >= 10


def test_a_broken_real_file_scores_zero_with_the_readers_and_ngspices_own_error():
    name, code = next(r for r in _accepted_real() if r[0] == "bjtnoise.cir")
    broken = "\n".join(line for line in code.splitlines() if not line.startswith(".model"))
    [parsed] = read_spice(broken)
    assert [e.reason for e in parsed.errors] == ["element q1: no .model defines '0' or 'test'"]
    assert _score(code, broken) == 0.0
    # ngspice given the same text, its own control block for ours
    body = re.sub(r"(?ims)^\.control$.*?^\.endc$", "", broken)
    deck = re.sub(r"(?im)^\.end$", CONTROL.rstrip("\n"), body)
    done = run_program([program("ngspice"), "-n", "-b"], 30, stdin=deck.encode("utf-8"))
    said = (done.stdout + done.stderr).decode("utf-8", "replace")
    assert "could not find a valid modelname" in said, name


def test_real_counts_agree_with_ngspice_and_with_the_drawing(tmp_path):
    real = _accepted_real()
    for name, code in real:
        circuit = _circuit(code)
        listed = ngspice_listing(code).elements
        for letter in "rclvidqm":
            assert sum(e.name.startswith(letter) for e in listed) == \
                sum(c.letter == letter for c in circuit.flat()), (name, letter)
    # the drawing: the smallest circuits (ELK's layout of the larger ones takes seconds)
    drawn_here = sorted(real, key=lambda r: len(r[1]))[:sized(5, len(real))]
    results = SchematicEngine().render([code for _, code in drawn_here], tmp_path, "svg")
    for (name, code), result in zip(drawn_here, results, strict=True):
        assert result.ok and result.image is not None, (name, result.error)
        drawn = schematic_statistics(result.image.read_text(encoding="utf-8"))
        assert drawn == {k: _circuit(code).counts()[k] for k in drawn}, name


# --- similarity, numbers worked by hand ------------------------------------------------

def test_a_changed_value_keeps_the_connections():
    # components: 2 of 3 match (P = R = 2/3, F1 = 2/3); connections: 3 of 3 (F1 = 1)
    assert _score(DIVIDER, DIVIDER.replace("2k", "3k")) == pytest.approx((2 / 3 + 1) / 2)


def test_renamed_nodes_and_reordered_lines_score_one():
    other = "another title\nR2 mid gnd 2k\nR1 top mid 1k\nV1 top 0 5\n.end\n"
    assert _score(DIVIDER, other) == 1.0


def test_a_missing_component_and_its_node():
    # components: 2 matched, 3 gold, 2 pred: P = 1, R = 2/3, F1 = 0.8; connections
    # (a → node 1): V1 (1, 0) matches, R1 (0, 1) matches neither (1, 2) nor (0, 2):
    # P = 1/2, R = 1/3, F1 = 0.4; score (0.8 + 0.4) / 2 = 0.6
    assert _score(DIVIDER, "t\nV1 a 0 5\nR1 a 0 1k\n.end\n") == pytest.approx(0.6)


def test_ground_is_fixed():
    # the source turned round: its connection (0, 1) is not (1, 0) once ground stays
    # ground: connections 1 of 2 (F1 1/2), components 2 of 2: (1 + 1/2) / 2
    gold = "t\nV1 1 0 5\nR1 1 0 1k\n.end\n"
    assert _score(gold, "t\nV1 0 1 5\nR1 1 0 1k\n.end\n") == pytest.approx(0.75)


def test_a_huge_prediction_is_scored_by_node_names_without_hanging():
    # 2,000 resistors in a chain: no assignment of 2,001 × 3 nodes, names matched;
    # components: 2 of 3 gold (V1, R1 1k) matched of 2,001 (F1 = 2·(2/2001)(2/3) /
    # (2/2001 + 2/3)); connections: V1 (1, 0) and R1 (1, 2) of the chain, as for the
    # components
    chain = "".join(f"R{k} {k} {k + 1} 1k\n" for k in range(1, 2001))
    pred = "t\nV1 1 0 5\n" + chain + ".end\n"
    p, r = 2 / 2001, 2 / 3
    f1 = 2 * p * r / (p + r)
    assert _score(DIVIDER, pred) == pytest.approx(f1)


def test_invalid_or_unread_predictions_score_zero():
    assert _score(DIVIDER, DIVIDER, valid=False) == 0.0
    assert _score(DIVIDER, "divider\nR1 1 2\n.end\n") == 0.0


# --- facts, edit, rewrite, the engine --------------------------------------------------

def test_facts_of_a_small_circuit():
    circuit = _circuit("t\nV1 1 0 5\nR1 1 2 1k\nR2 2 3 2k\nC1 3 0 1u\nC2 3 0 10n\n.end\n")
    facts = {f.subject: (f.task, f.question, f.answer) for f in circuit_facts(circuit)}
    assert facts["resistors"] == ("quantification",
                                  "How many resistors does the circuit have?", 2)
    assert facts["capacitors"][2] == 2 and facts["nodes"][2] == 4
    assert facts["joins"] == ("identification", "Which component joins node 1 and ground "
                              "(node 0)?", "V1")
    assert facts["connected"] == ("structural", "Which components are connected to node 3?",
                                  ("C1", "C2", "R2"))
    assert facts["parallel"][1:] == ("Which components are in parallel with C1?", ("C2",))
    # V1 and R1 are the only two components on node 1
    assert facts["series"][1:] == ("Which component is in series with V1 at node 1?", "R1")
    # a transistor across nodes 1 and ground too: V1 no longer alone joins them
    with_q = _circuit("t\nV1 1 0 5\nQ1 1 2 0 qn\nR1 1 2 1k\nR2 2 0 1k\n"
                      ".model qn npn\n.end\n")
    joins = [f.question for f in circuit_facts(with_q) if f.subject == "joins"]
    assert joins == []


def test_edit_adds_a_resistor_in_parallel_and_rewrite_renames_and_reorders():
    edited = edit_spice(DIVIDER, random.Random(0)) or ""
    before, after = _circuit(DIVIDER), _circuit(edited)
    added = [c for c in after.components if c.name not in {d.name for d in before.components}]
    assert len(added) == 1 and added[0].letter == "r"
    twin = next(c for c in before.components if set(c.nodes) == set(added[0].nodes))
    assert added[0].value == twin.value and len(after.components) == len(before.components) + 1
    rewritten = rewrite_spice(DIVIDER, random.Random(3)) or ""
    assert {n for c in _circuit(rewritten).components for n in c.nodes} == {"0", "n_1", "n_2"}
    assert rewritten != DIVIDER and disagreements(rewritten) == []


def test_detect_by_suffix_and_content():
    assert detect(Path("a.sp"), DIVIDER) is SPICE and detect(None, DIVIDER) is SPICE
    assert detect(None, "graph TD\nA-->B\n") is not SPICE


EVERY_TYPE = """every element type
V1 1 0 dc 5
Vsense 1 2 0
R1 2 3 1k
C1 3 0 1n
L1 3 4 1u
I1 4 0 1m
D1 4 5 dm
Q1 5 4 0 qm
M1 5 4 0 0 mm
J1 5 4 0 jm
E1 6 0 3 0 10
G1 6 0 4 0 1m
F1 7 0 vsense 2
H1 7 0 vsense 1k
R2 6 7 1k
X1 7 0 two
.subckt two a b
R1 a b 1
.ends
.model dm d
.model qm npn
.model mm nmos
.model jm njf
.end
"""


def test_every_element_type_is_read_as_ngspice_reads_it_and_drawn(tmp_path):
    circuit = _circuit(EVERY_TYPE)
    assert {c.name: c.value for c in circuit.components if c.letter in "efghj"} == \
        {"j1": "jm", "e1": "10", "g1": "1m", "f1": "2", "h1": "1k"}
    assert disagreements(EVERY_TYPE) == []
    [result] = SchematicEngine().render([EVERY_TYPE], tmp_path, "svg")
    assert result.ok and result.image is not None, result.error
    drawn = schematic_statistics(result.image.read_text(encoding="utf-8"))
    counts = circuit.counts()
    assert drawn == {k: counts[k] for k in drawn} and drawn["components"] == 16
    [parsed] = read_spice(EVERY_TYPE.replace("E1 6 0 3 0 10", "E1 6 0 poly(1) 3 0 0 10")
                          .replace("vsense 2", "vnone 2"))
    assert [e.reason for e in parsed.errors] == [
        "element e1: the POLY form is not read (a linear gain only)",
        "element f1: no voltage source 'vnone' controls it"]


def test_the_schematic_draws_every_component_and_node(tmp_path):
    code = synth_spice(random.Random(5), "high")
    [result] = SchematicEngine().render([code], tmp_path, "svg")
    assert result.ok and result.image is not None, result.error
    drawn = schematic_statistics(result.image.read_text(encoding="utf-8"))
    counts = _circuit(code).counts()
    assert drawn["mosfets"] == 1 and drawn["subcircuit_instances"] == 2
    assert {k: counts[k] for k in drawn} == drawn


def test_drawings_wait_for_the_warming_netlistsvg_process_and_a_second_starts_once_it_is_warm():
    from concurrent.futures import ThreadPoolExecutor

    from diagbench.languages.spice.engine import Pool, yosys_netlist

    [parsed] = read_spice("* divider\nV1 in 0 DC 5\nR1 in out 1k\nR2 out 0 2k\n.end\n")
    netlist = yosys_netlist(parsed.diagram)
    pool = Pool(2, warm=3)
    try:
        first = [pool.draw(netlist, 60.0) for _ in range(2)]
        assert len(set(first)) == 1 and first[0].startswith("<svg")
        assert [p._node.started for p in pool._made] == [1]
        with ThreadPoolExecutor(1) as other:
            busy = pool._free.get()  # taken by another thread, drawing at this moment
            waiting = other.submit(pool.draw, netlist, 60.0)  # 2 drawn of 3: it waits
            pool._free.put(busy)
            assert waiting.result(timeout=120) == first[0]
            assert [p._node.started for p in pool._made] == [1]  # no second process
            busy = pool._free.get()  # 3 drawn: warm, so a drawing now starts a second
            assert other.submit(pool.draw, netlist, 60.0).result(timeout=120) == first[0]
            pool._free.put(busy)
        assert [p._node.started for p in pool._made] == [1, 1]
        assert [p.drawn for p in pool._made] == [3, 1]
        assert [pool.draw(netlist, 60.0) for _ in range(3)] == first[:1] * 3
        assert [p.drawn for p in pool._made] == [6, 1]  # the one freed last
    finally:
        pool.close()
    assert [p.drawn for p in pool._made] == [0, 0]
