"""OpenQASM 2 (STRUDEL's quantum circuits): the Qiskit reader against Qiskit's own counts
and against diagbench's second reader (`spec`, differential), the facts, the similarity
on hand-worked circuits, the `qiskit` engine and what its SVG shows, the limits and the
refused includes (a canary file and a canary HTTP server), on QASMBench's real files."""

from __future__ import annotations

import http.server  # a real listener on loopback, not a mock
import json
import math
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from diagbench.languages import detect, named
from diagbench.languages.qasm.engine import circuit_statistics
from diagbench.languages.qasm.facts import circuit_facts
from diagbench.languages.qasm.lexer import tokens
from diagbench.languages.qasm.read import read_qasm
from diagbench.languages.qasm.spec import SpecError, read_spec
from diagbench.languages.qasm.synth import synth_qasm
from tests.conftest import REALWORLD
from tests.sizes import FULL, sized

QASM = named("qasm")
QASMBENCH = REALWORLD / "qasmbench"
#: QASMBench's one file that Qiskit refuses: it measures an undeclared register `q`.
BROKEN = QASMBENCH / "small" / "vqe_uccsd_n6" / "vqe_uccsd_n6.qasm"
HEADER = 'OPENQASM 2.0;\ninclude "qelib1.inc";\n'
#: QASMBench's sizes read by the tests on every file (its large circuits, hundreds of
#: qubits, at full size).
SIZES = ("small", "medium", "large") if FULL else ("small", "medium")


def _real(sizes: tuple[str, ...] = ("small", "medium")) -> list[Path]:
    return sorted(p for size in sizes for p in (QASMBENCH / size).rglob("*.qasm")
                  if p != BROKEN)


def _read(text: str):
    [parsed] = read_qasm(text)
    return parsed


def _score(gold: str, pred: str, valid: bool = True) -> float:
    return QASM.compare_code(HEADER + gold, HEADER + pred, valid).score


# --- the reader against Qiskit -------------------------------------------------------

def test_counts_agree_with_qiskits_count_ops_and_depth_on_real_files():
    import qiskit.qasm2

    files = _real(SIZES)
    assert len(files) >= 29
    for path in files:
        text = path.read_text(encoding="utf-8")
        circuit = qiskit.qasm2.loads(
            text, custom_instructions=qiskit.qasm2.LEGACY_CUSTOM_INSTRUCTIONS)
        ops = circuit.count_ops()
        counts = _read(text).counts()
        inner = [i.operation.blocks[0].data[0].operation.name for i in circuit.data
                 if i.operation.name == "if_else"]
        assert counts["qubits"] == circuit.num_qubits, path.name
        assert counts["clbits"] == circuit.num_clbits, path.name
        assert counts["depth"] == circuit.depth(), path.name
        assert counts["measurements"] == ops.get("measure", 0) + inner.count("measure")
        assert counts["barriers"] == ops.get("barrier", 0), path.name
        assert counts["conditionals"] == ops.get("if_else", 0), path.name
        assert counts["gates"] == (sum(ops.values()) - ops.get("measure", 0)
                                   - ops.get("barrier", 0) - ops.get("reset", 0)
                                   - inner.count("measure") - inner.count("reset")), path.name


def test_a_broken_real_file_reads_with_qiskits_own_error_and_scores_0():
    text = BROKEN.read_text(encoding="utf-8")
    [error] = _read(text).errors
    assert (error.line, error.column) == (2286, 9)
    assert error.reason == "Qiskit: 'q' is not defined in this scope"
    gold = (QASMBENCH / "small" / "qft_n4" / "qft_n4.qasm").read_text(encoding="utf-8")
    assert QASM.compare_code(gold, text, True).score == 0.0


def test_the_reader_needs_a_statement_and_is_recognised_by_its_version_line():
    assert _read("// nothing but a comment\n").errors[0].reason == "no OpenQASM statement"
    assert _read('include "qelib1.inc";\nqreg q[1];\nh q[0];\n').errors == ()
    assert detect(None, "// a comment\nOPENQASM 2.0;\nqreg q[1];\n") is QASM
    assert detect(Path("x.qasm"), "anything") is QASM
    assert not QASM.recognises("OPENQASM 3.0;\nqubit q;\n")


def test_the_model_keeps_registers_definitions_conditions_and_writes_itself_back():
    text = HEADER + ("gate pair(theta) a,b { rz(theta/2) b; cx a,b; }\n"
                     "qreg q[2];\nqreg r[1];\ncreg c[2];\n"
                     "pair(pi) q[0],r[0];\nif(c==1) x q[1];\nmeasure q -> c;\nreset r;\n")
    circuit = _read(text).diagram
    assert [(op.name, op.qubits, op.clbits) for op in circuit.operations] == [
        ("pair", (0, 2), ()), ("x", (1,), ()), ("measure", (0,), (0,)),
        ("measure", (1,), (1,)), ("reset", (2,), ())]
    assert circuit.operations[0].params == (math.pi,)
    assert circuit.operations[1].condition.register == "c"
    assert circuit.definitions[0].body == "rz ( theta / 2 ) b ; cx a , b ;"
    assert circuit.qubit_label(2) == "r[0]" and circuit.clbit_label(1) == "c[1]"
    assert _read(circuit.qasm()).diagram == circuit


# --- the second reader (differential) --------------------------------------------------

def _agree(text: str) -> None:
    parsed = _read(text)
    try:
        spec = read_spec(text)
    except SpecError as exc:
        assert parsed.errors, f"only the second reader refuses: {exc}"
        assert parsed.errors[0].line == exc.line
        return
    assert not parsed.errors, f"only Qiskit refuses: {parsed.errors}"
    qiskit = parsed.diagram
    assert (spec.qregs, spec.cregs, spec.definitions, spec.depth) == (
        qiskit.qregs, qiskit.cregs, qiskit.definitions, qiskit.depth)
    assert len(spec.operations) == len(qiskit.operations)
    for a, b in zip(spec.operations, qiskit.operations, strict=True):
        assert (a.name, a.qubits, a.clbits, a.condition) == (b.name, b.qubits, b.clbits,
                                                              b.condition)
        assert all(math.isclose(x, y, abs_tol=1e-9) for x, y in zip(a.params, b.params,
                                                                     strict=True))


def test_the_second_reader_agrees_with_qiskit_on_real_and_generated_circuits():
    for path in [*_real(SIZES), BROKEN]:
        _agree(path.read_text(encoding="utf-8"))
    for k in range(sized(60, 600)):
        _agree(synth_qasm(random.Random(k), ("low", "medium", "high")[k % 3]))


def test_the_second_reader_agrees_with_qiskit_on_mutated_sources():
    real = [p.read_text(encoding="utf-8") for p in _real(("small",))]
    for k in range(sized(300, 5000)):
        rng = random.Random(k)
        source = real[k % len(real)] if k % 2 else synth_qasm(rng, "medium")
        texts = [t.text for t in tokens(source)[:-1]]
        j = rng.randrange(len(texts))
        change = rng.choice(("drop", "repeat", "replace"))
        if change == "drop":
            del texts[j]
        elif change == "repeat":
            texts.insert(j, texts[j])
        else:
            texts[j] = rng.choice(("q", "c", "1", "2.5", "pi", "(", ")", ";", ",", "[", "]",
                                   "x", "cx", "measure", "->", "==", "if", "-", "0", "7"))
        _agree(" ".join(texts))


@pytest.mark.parametrize("source, what", [
    # each a disagreement the differential runs found, fixed in the second reader
    ("qreg q[2]; h q[0]; barrier q; x q[1];", "a barrier lines up its wires in the depth"),
    ("qreg q[1]; ; h q[0];;", "an empty statement"),
    ("qreg q[2]; qreg r[1]; h q[0]; barrier; h r[0];", "'barrier;' spans every qubit"),
    ("qreg q[4]; creg c[1]; measure q -> c;", "a measurement broadcast needs equal sizes"),
    ("qreg q[1]; delay(10) q[0];", "delay must be declared before it is used"),
])
def test_each_disagreement_found_stays_fixed(source, what):
    _agree(HEADER + source + "\n")


@pytest.mark.parametrize("source", [
    "qreg q[2]; creg c[2]; if(c==1) barrier q;", "qreg q[2]; creg c[2]; measure q[0] -> c;",
    "qreg q[2]; U(0,0,0) q;", "qreg q[2]; qreg r[3]; CX q, r;",
    "gate g() a { } qreg q[1]; g q[0];", "opaque g a; qreg q[1]; g q[0];",
    "qreg q[2]; x q[0], q[1];", "qreg q[1]; rz(2^3) q[0]; rz(--1) q[0]; rz(-2^2) q[0];",
    "qreg q[1]; rz(ln(-1)) q[0];", "qreg q[1]; rz(1/0) q[0];", "qreg h[1];",
    "qreg q[1]; rz(1.) q[0]; rz(.5) q[0]; rz(1E2) q[0];",
    "qreg q[1]; reset q; measure q[0]->q[0];",
    "gate g(a,b) x,y { rz(a*b) x; cx x,y; barrier x,y; } qreg q[2]; g(1,2) q[0],q[1];",
    "gate g(a) x { rz(c) x; } qreg q[1];", "gate g x { h y; } qreg q[1];",
    "gate g x,x { h x; } qreg q[1];",
    "qreg q[2]; creg c[2]; if(c==4) x q[0]; if (c == 1) measure q[1] -> c[0];",
    "qreg q[2]; creg c[2]; if(c==1) if(c==1) x q[0];", "qreg q[2]; creg c[2]; if(q==1) x q[0];",
    "qreg q[2]; gate g a { h a; } g q;", "qreg q[1]; qreg q[2];", "qreg q[1]; rz(pi q[0];",
    "qreg q[3]; barrier q[0], q;", "qreg q[2]; cswap q[0],q[1],q[1];",
    "qreg q[1]; rz(sqrt(2)*exp(1)/tan(1)-cos(0)) q[0];", "qreg q[1]; u0(1) q[0]; u2(1,2) q[0];",
])
def test_the_second_reader_agrees_on_the_grammars_corners(source):
    _agree(HEADER + source + "\n")


def test_qiskits_legacy_gates_need_no_include():
    """A disagreement found: Qiskit knows its legacy gates without qelib1.inc."""
    source = "OPENQASM 2.0;\nqreg q[2];\nsx q[0];\nswap q[0],q[1];\n"
    _agree(source)
    assert [op.name for op in _read(source).diagram.operations] == ["sx", "swap"]


def test_a_barrier_lines_up_its_wires_in_the_depth():
    assert _read(HEADER + "qreg q[2];\nh q[0];\nbarrier q;\nx q[1];\n").counts()["depth"] == 2
    assert _read(HEADER + "qreg q[2];\nh q[0];\nx q[1];\n").counts()["depth"] == 1


# --- facts ---------------------------------------------------------------------------

def test_facts_of_a_hand_worked_circuit():
    circuit = _read(HEADER + "qreg q[3];\ncreg c[2];\nh q[0];\ncx q[0],q[2];\nx q[2];\n"
                    "cz q[1],q[0];\nbarrier q;\nmeasure q[2] -> c[1];\n"
                    "measure q[0] -> c[0];\n").diagram
    facts = {f.subject: (f.task, f.answer) for f in circuit_facts(circuit)}
    # depth: h 1 · cx 2 · x 3 and cz 3 · the barrier lines up at 3 · the measurements 4
    assert facts == {"first_gate": ("identification", "cx"),
                     "cnots": ("quantification", 1),
                     "measurements": ("quantification", 2),
                     "depth": ("quantification", 4),
                     "partners": ("structural", ("q[1]", "q[2]")),
                     "measured_into": ("structural", "q[2]")}


def test_a_bit_measured_twice_asks_no_question_about_it():
    circuit = _read(HEADER + "qreg q[2];\ncreg c[2];\nmeasure q[0] -> c[1];\n"
                    "measure q[1] -> c[1];\n").diagram
    assert "measured_into" not in {f.subject for f in circuit_facts(circuit)}


# --- similarity on hand-worked circuits ------------------------------------------------

BELL = "qreg q[2];\ncreg c[2];\nh q[0];\ncx q[0],q[1];\nmeasure q[0] -> c[0];\n" \
       "measure q[1] -> c[1];\n"


def test_a_gate_moved_to_another_qubit():
    moved = BELL.replace("h q[0]", "h q[1]")
    # q0: [h, cx, m] vs [cx, m] → 2/3; q1: [cx, m] vs [h, cx, m] → 2/3; c0, c1: 1
    assert _score(BELL, moved) == pytest.approx((2 / 3 + 2 / 3 + 1 + 1) / 4)


def test_the_same_operator_scores_1_and_a_mid_circuit_measurement_does_not():
    # wires: q0 [h, h] vs [] → 0, q1 [x] vs [x] → 1, so 0.5; but HH = I: the same operator
    assert _score("qreg q[2];\nh q[0];\nh q[0];\nx q[1];\n", "qreg q[2];\nx q[1];\n") == 1.0
    # measured in between: wires only — q0 [h, m, h, h] vs [h, m] → 0.5, c0 → 1
    assert _score("qreg q[1];\ncreg c[1];\nh q[0];\nmeasure q[0] -> c[0];\nh q[0];\nh q[0];\n",
                  "qreg q[1];\ncreg c[1];\nh q[0];\nmeasure q[0] -> c[0];\n") == 0.75


def test_a_circuit_with_an_opaque_gate_is_scored_by_its_wires():
    gold = "opaque magic(a) x,y;\nqreg q[2];\nmagic(0.5) q[0],q[1];\nh q[0];\n"
    # q0: [magic, h] vs [magic] → 1/2; q1: [magic] vs [magic, h] → 1/2 (no matrix to compare)
    assert _score(gold, gold.replace("h q[0]", "h q[1]")) == 0.5
    assert QASM.edit(HEADER + gold, random.Random(0)) is not None


def test_measurements_into_other_bits_and_extra_wires_cost():
    # q0 [x, m→c0] vs [x, m→c1] → 1/2, q1 → 1, c0 [m] vs [] → 0, c1 [] vs [m] → 0
    assert _score("qreg q[2];\ncreg c[2];\nx q[0];\nmeasure q[0] -> c[0];\n",
                  "qreg q[2];\ncreg c[2];\nx q[0];\nmeasure q[0] -> c[1];\n") == 0.375
    # a third qubit only the prediction has scores 0: (1 + 1 + 0) / 3
    assert _score("qreg q[2];\nh q[0];\n", "qreg q[3];\nh q[0];\n") == pytest.approx(2 / 3)


def test_renamed_registers_and_reordered_statements_score_1_and_invalid_0():
    renamed = "qreg w[2];\ncreg m[2];\nh w[0];\ncx w[0],w[1];\nmeasure w[1] -> m[1];\n" \
        "measure w[0] -> m[0];\n"
    assert _score(BELL, renamed) == 1.0
    assert _score("qreg q[2];\nh q[0];\nx q[1];\n", "qreg q[2];\nx q[1];\nh q[0];\n") == 1.0
    assert _score(BELL, BELL, valid=False) == 0.0


def test_real_files_score_1_against_themselves_and_between_after_a_moved_gate():
    rng = random.Random(0)
    edited = 0
    for path in _real(("small",)):
        text = path.read_text(encoding="utf-8")
        assert QASM.compare_code(text, text, True).score == 1.0, path.name
        again = QASM.rewrite(text, rng)
        assert again is not None and QASM.compare_code(text, again, True).score == 1.0
        changed = QASM.edit(text, rng)
        if changed is not None:
            assert 0.0 < QASM.compare_code(text, changed, True).score < 1.0, path.name
            edited += 1
    assert edited >= 15


# --- limits and includes ---------------------------------------------------------------

@pytest.fixture(scope="module")
def listener():
    """A real HTTP server on 127.0.0.1 that records the requests it gets."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"qreg leaked[7];\n")

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1], hits
    server.shutdown()


@pytest.fixture(scope="module")
def canary(tmp_path_factory) -> Path:
    """A file outside any sandbox whose content would show in the circuit if read."""
    path = tmp_path_factory.mktemp("canary") / "canary.inc"
    path.write_text("qreg leaked[7];\n", encoding="utf-8")
    return path


def _includes(canary: Path, port: int) -> list[str]:
    return [f'OPENQASM 2.0;\ninclude "{name}";\nqreg q[1];\nh q[0];\n'
            for name in (str(canary), "canary.inc", f"http://127.0.0.1:{port}/x.inc",
                         "/etc/passwd", "../qelib1.inc")]


DRAWN = [QASMBENCH / "small" / "ipea_n2" / "ipea_n2.qasm",  # defined gates, if, reset
         QASMBENCH / "small" / "qft_n4" / "qft_n4.qasm"]    # a barrier, cu1
TOO_LARGE = HEADER + "qreg q[2];\n" + "h q[0];\n" * 400


@pytest.fixture(scope="module")
def rendered(tmp_path_factory, canary, listener):
    """The module's drawings, in one call of the qiskit engine (each call starts its
    worker): the real files, the circuit too large to draw, the includes (SVG)."""
    sources = [p.read_text(encoding="utf-8") for p in DRAWN] + [TOO_LARGE] + \
        _includes(canary, listener[0])
    out = tmp_path_factory.mktemp("drawn")
    return dict(zip(sources, QASM.make_engine(jobs=1, timeout=120.0).render(sources, out,
                                                                            "svg"),
                    strict=True))


def test_includes_other_than_qelib1_are_refused_and_read_nothing(canary, listener,
                                                                 monkeypatch, rendered):
    port, hits = listener
    monkeypatch.chdir(canary.parent)
    sources = _includes(canary, port)
    for source in sources:
        [error] = _read(source).errors
        assert (error.line, error.column) == (2, 9)
        assert "diagbench reads only the standard library" in error.reason
        with pytest.raises(SpecError):
            read_spec(source)
        assert not rendered[source].ok and "standard library" in (rendered[source].error or "")
    assert hits == []


def test_qiskit_is_given_an_empty_include_path(tmp_path, monkeypatch):
    """The second line of defence: Qiskit, as diagbench calls it, finds no file."""
    import qiskit.qasm2

    (tmp_path / "canary.inc").write_text("qreg leaked[7];\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(qiskit.qasm2.QASM2ParseError, match="unable to find"):
        qiskit.qasm2.loads('OPENQASM 2.0;\ninclude "canary.inc";\n', include_path=())


def test_a_10000_gate_circuit_and_huge_registers_are_refused():
    many = HEADER + "qreg q[2];\n" + "h q[0];\n" * 10_000
    [error] = _read(many).errors
    assert "over 5,000 operations" in error.reason and error.line == 5004
    broadcast = HEADER + "qreg q[1000];\n" + "h q;\n" * 10
    assert "over 5,000 operations" in _read(broadcast).errors[0].reason
    assert "over the 1,024" in _read(HEADER + "qreg q[100000];\n").errors[0].reason
    assert "digits" in _read(HEADER + "qreg q[99999999999999999999];\n").errors[0].reason
    deep = HEADER + "qreg q[1];\nrz(" + "(" * 500 + "1" + ")" * 500 + ") q[0];\n"
    assert "nested" in _read(deep).errors[0].reason


# --- the engine ------------------------------------------------------------------------

def test_the_drawing_shows_the_wires_and_operations_read(rendered):
    for path in DRAWN:
        text = path.read_text(encoding="utf-8")
        result = rendered[text]
        assert result.ok, result.error
        drawn = circuit_statistics(result.image.read_text(encoding="utf-8"))
        circuit = _read(text).diagram
        read = circuit.counts()
        assert {k: drawn[k] for k in read if k in drawn} == {k: read[k] for k in read
                                                              if k != "depth"}
        assert drawn["gate_names"] == dict(sorted(circuit.gate_names().items()))
    assert drawn["gate_names"] == {"cu1": 6, "h": 4, "x": 2}


def test_a_circuit_too_large_to_draw_is_refused_as_such(rendered):
    result = rendered[TOO_LARGE]
    assert not result.ok and result.too_large and "drawing limit" in (result.error or "")


def test_parse_json_reports_the_fields_own_counts():
    path = QASMBENCH / "small" / "qft_n4" / "qft_n4.qasm"
    done = subprocess.run([sys.executable, "-m", "diagbench", "parse", "--json", str(path)],
                          capture_output=True, text=True, timeout=120, check=True)
    [record] = json.loads(done.stdout)
    counts = record["counts"]
    assert {k: counts[k] for k in ("qubits", "clbits", "gates", "depth", "measurements",
                                   "two_qubit_gates")} == {
        "qubits": 4, "clbits": 4, "gates": 12, "depth": 9, "measurements": 4,
        "two_qubit_gates": 6}


@pytest.mark.skipif(not FULL, reason="every drawable real file: DIAGBENCH_TEST_SIZE=full")
def test_every_drawable_real_file_is_drawn_as_read(tmp_path):
    files = _real(("small", "medium"))
    texts = [p.read_text(encoding="utf-8") for p in files]
    results = QASM.make_engine(jobs=2, timeout=300.0).render(texts, tmp_path, "svg")
    drawn_files = 0
    for path, text, result in zip(files, texts, results, strict=True):
        if result.too_large:
            continue
        assert result.ok, (path.name, result.error)
        drawn = circuit_statistics(result.image.read_text(encoding="utf-8"))
        circuit = _read(text).diagram
        read = circuit.counts()
        assert {k: drawn[k] for k in read if k in drawn} == {
            k: read[k] for k in read if k != "depth"}, path.name
        assert drawn["gate_names"] == dict(sorted(circuit.gate_names().items())), path.name
        drawn_files += 1
    assert drawn_files >= 24
