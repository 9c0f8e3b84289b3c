"""Verilog: Yosys's reading against its own `stat` on real files, the similarity on
hand-worked designs and real files, Icarus Verilog's second opinion, the facts, the
edit and rewrite, the drawing, and the refusal of what reads files (canary file,
canary HTTP server) or is too large."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from diagbench.languages import detect, named
from diagbench.languages.verilog.engine import TOOL, NetlistsvgEngine
from diagbench.languages.verilog.equivalence import proved_equivalent
from diagbench.languages.verilog.facts import reaching
from diagbench.languages.verilog.model import Design
from diagbench.languages.verilog.yosys import RECIPE, read_netlist, run_yosys
from tests.canary import canary_server
from tests.sizes import FULL, sized

VERILOG = named("verilog")
REAL = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "realworld" \
    / "yosys-tests-verilog" / "tests"
REAL_FILES = sorted(REAL.glob("*/*.v"))
needs_real = pytest.mark.skipif(not REAL_FILES, reason="no real-world Verilog files")

SMALL = "module m(input a, input b, input c, output y);\n  assign y = (a & b) | c;\nendmodule\n"


def design(code: str) -> Design:
    [parsed] = VERILOG.read(code)
    assert parsed.errors == (), parsed.errors
    assert isinstance(parsed.diagram, Design)
    return parsed.diagram


def score(gold: str, pred: str) -> float:
    return VERILOG.compare_code(gold, pred, True).score


def yosys_stat(text: str) -> dict[str, int]:
    """Yosys's own `stat` of a source after the reader's recipe, summed over modules:
    modules, cells (and by type), wires and wire bits (its printed report)."""
    _, written = run_yosys({"design.v": text}, f"{RECIPE}; tee -q -o stat.txt stat", ("stat.txt",))
    report = written["stat.txt"].decode("utf-8")
    out: Counter[str] = Counter(modules=report.count("\n=== "))
    for label, key in (("Number of wires", "nets"), ("Number of wire bits", "net_bits"),
                       ("Number of cells", "cells")):
        out[key] = sum(int(n) for n in re.findall(rf"^\s+{label}:\s+(\d+)$", report, re.M))
    for cell_type, n in re.findall(r"^\s+(\$\S+)\s+(\d+)$", report, re.M):
        out[f"cells:{cell_type}"] += int(n)
    return dict(out)


# --- the reader and its oracles --------------------------------------------------------

def test_reader_reads_ports_cells_and_nets_of_a_small_design():
    [module] = design(SMALL).modules
    assert module.name == "m"
    assert [(p.name, p.direction, p.width) for p in module.ports] == [
        ("a", "input", 1), ("b", "input", 1), ("c", "input", 1), ("y", "output", 1)]
    assert sorted(c.type for c in module.cells) == ["$and", "$or"]
    counts = design(SMALL).counts()
    assert counts["modules"] == 1 and counts["ports"] == 4 and counts["inputs"] == 3
    assert counts["cells"] == 2 and counts["cells:$and"] == 1


@needs_real
def test_real_counts_agree_with_yosys_stat():
    checked = 0
    for path in REAL_FILES[::sized(4, 1)]:
        text = path.read_text(encoding="utf-8")
        [parsed] = VERILOG.read(text)
        if parsed.errors:  # the refused ones: see the security tests
            assert "refused" in parsed.errors[0].reason, (path.name, parsed.errors)
            continue
        stat = yosys_stat(text)
        counts = parsed.counts()
        assert {k: counts.get(k, 0) for k in stat} == stat, path.name
        checked += 1
    assert checked >= 12


def test_an_empty_module_is_a_module_and_a_blackbox_is_not():
    # read_verilog makes an empty module a blackbox, which stat leaves out; the reader
    # reads with -noblackbox, and leaves out only what the source marks a blackbox
    code = ("module e(output o);\nendmodule\n(* blackbox *)\nmodule bb(input i, output o);\n"
            "endmodule\nmodule t(input i, output o);\n  bb u(.i(i), .o(o));\nendmodule\n")
    got = design(code)
    assert [m.name for m in got.modules] == ["e", "t"] and got.blackboxes == ("bb",)
    assert yosys_stat(code)["modules"] == 2


def test_a_syntax_error_is_yosys_own_error_on_its_line():
    [parsed] = VERILOG.read("module m(input a, output y);\n  assign y = a &;\nendmodule\n")
    [error] = parsed.errors
    assert error.line == 2 and error.reason == "Yosys: syntax error, unexpected ';'"


def test_an_undefined_module_is_an_error_on_its_instance_line():
    [parsed] = VERILOG.read("module m(input a, output y);\n\n  sub u(.x(a), .z(y));\n"
                            "endmodule\n")
    [error] = parsed.errors
    assert error.line == 3 and "`sub' referenced in module `m'" in error.reason


@pytest.mark.parametrize(("code", "line", "said"), [
    # an identifier used without a declaration: Yosys declares it, Icarus rejects it
    ("module m(input a, output y);\n  assign y = b;\nendmodule\n", 2, "Unable to bind"),
    # SystemVerilog Yosys reads: a function's output argument (real file fib.v)
    ("module m(input [3:0] a, output [3:0] y);\n  function automatic integer f(\n"
     "    input integer k, output integer o);\n    o = k;\n  endfunction\n"
     "  assign y = a;\nendmodule\n", 3, "is not an input port"),
])
def test_icarus_disagreements_are_warnings_on_their_line(code: str, line: int, said: str):
    [parsed] = VERILOG.read(code)
    assert parsed.errors == ()
    warnings = [d for d in parsed.diagnostics if d.reason.startswith("Icarus Verilog")]
    assert warnings and warnings[0].line == line and said in warnings[0].reason


def test_generated_designs_read_and_icarus_agrees():
    for seed in range(sized(6, 40)):
        code = VERILOG.generate(random.Random(seed), ("low", "medium", "high")[seed % 3])
        [parsed] = VERILOG.read(code)
        assert parsed.diagnostics == (), (code, parsed.diagnostics)
        assert yosys_stat(code)["cells"] == parsed.counts()["cells"]


def test_detect_by_suffix_and_content(tmp_path):
    assert detect(tmp_path / "x.v", SMALL) is VERILOG
    assert detect(None, SMALL) is VERILOG


# --- similarity --------------------------------------------------------------------------

def test_similarity_hand_worked():
    # gold: and(a, b) → or(·, c) → y: 2 cells, 5 connections, 4 ports
    assert score(SMALL, SMALL) == 1.0
    # and(a, c), or(·, b): cells match, 3 of 5 connections (a→A, and→or, or→y):
    # (1 + 2·3/10 + 1) / 3
    rewired = SMALL.replace("(a & b) | c", "(a & c) | b")
    assert score(SMALL, rewired) == pytest.approx((1 + 0.6 + 1) / 3)
    # or(a, b), or(·, c): one cell matches (2·1/4); the outer or keeps c→B and →y:
    # 2·2/10
    changed = SMALL.replace("(a & b) | c", "(a | b) | c")
    assert score(SMALL, changed) == pytest.approx((0.5 + 0.4 + 1) / 3)
    # a port renamed: ports 2·3/8; y's connection lost: 2·4/10
    renamed = SMALL.replace("output y", "output x").replace("assign y", "assign x")
    assert score(SMALL, renamed) == pytest.approx((1 + 0.8 + 0.75) / 3)


@pytest.mark.parametrize("written", ["(b & a) | c", "c | (a & b)", "~(~a | ~b) | c"])
def test_a_design_yosys_proves_equivalent_scores_one(written: str):
    pred = SMALL.replace("(a & b) | c", written)
    compared = VERILOG.compare_code(SMALL, pred, True)
    assert compared.as_dict()["equivalent"] is True and compared.score == 1.0
    # drawn otherwise: (b & a) | c keeps the cells and 3 of the 5 connections
    assert compared.as_dict()["connections_f1"] < 1.0


def test_equivalence_is_proved_for_registers_and_not_asked_across_modules():
    gold = ("module m(input clk, input [1:0] a, b, output reg [1:0] q);\n"
            "  always @(posedge clk) q <= a ^ b;\nendmodule\n")
    assert proved_equivalent(design(gold), design(gold.replace("a ^ b", "b ^ a")))
    assert not proved_equivalent(design(gold), design(gold.replace("a ^ b", "a | b")))
    with_sub = ("module m(input clk, input [1:0] a, b, output reg [1:0] q);\n"
                "  wire [1:0] t;\n  x u(.i(b ^ a), .o(t));\n"
                "  always @(posedge clk) q <= t;\nendmodule\n"
                "module x(input [1:0] i, output [1:0] o);\n  assign o = i;\nendmodule\n")
    assert not proved_equivalent(design(gold), design(with_sub))


def test_internal_names_and_statement_order_are_not_compared():
    gold = ("module m(input [1:0] a, b, output [1:0] y, z);\n  wire [1:0] t = a & b;\n"
            "  assign y = t | a;\n  assign z = t ^ b;\nendmodule\n")
    pred = ("module m(input [1:0] a, b, output [1:0] y, z);\n  wire [1:0] other = a & b;\n"
            "  assign z = other ^ b;\n  assign y = other | a;\nendmodule\n")
    assert score(gold, pred) == 1.0


def test_invalid_or_unread_predictions_score_zero():
    assert VERILOG.compare_code(SMALL, SMALL, False).score == 0.0
    assert score(SMALL, "module m(input a;\nendmodule\n") == 0.0


@needs_real
def test_real_files_score_one_against_themselves_and_less_after_one_rewire():
    rng, edited = random.Random(0), 0
    for path in REAL_FILES[:sized(8, len(REAL_FILES))]:
        text = path.read_text(encoding="utf-8")
        if VERILOG.readable(text) is None:
            continue
        assert score(text, text) == 1.0, path.name
        changed = VERILOG.edit(text, rng)
        if changed is not None:
            assert 0.0 < score(text, changed) < 1.0, path.name
            edited += 1
    assert edited >= 2


@needs_real
def test_a_broken_real_file_scores_zero_with_yosys_own_error():
    text = (REAL / "simple" / "dff_different_styles.v").read_text(encoding="utf-8")
    broken = text.replace("endmodule", "endmodul", 1)
    [parsed] = VERILOG.read(broken)
    assert parsed.errors and parsed.errors[0].reason.startswith("Yosys: ")
    assert parsed.errors[0].line > 1
    assert score(text, broken) == 0.0


# --- facts, edit, rewrite ------------------------------------------------------------------

def test_facts_of_a_small_design():
    code = ("module top(input clk, input [3:0] a, b, input c, output [3:0] y, output reg q);\n"
            "  assign y = a & b;\n  always @(posedge clk) q <= c;\nendmodule\n")
    facts = {f.subject: f.answer for f in VERILOG.facts(design(code))}
    assert facts["driver:y"] == "AND gate"
    assert facts["cells:$and"] == 1
    assert facts["top_inputs"] == 4
    assert facts["reach:y"] == ("a", "b")
    assert facts["width:a"] == 4
    assert reaching(design(code).modules[0], "q") == ("c", "clk")


def facts_of(code: str) -> dict[str, object]:
    return {f.subject: f.answer for f in VERILOG.facts(design(code))}


def test_edit_changes_one_operator_or_operand_or_adds_an_input_and_rewrite_renames():
    code = VERILOG.generate(random.Random(5), "medium")
    inputs = facts_of(code)["top_inputs"]
    kinds = set()
    for seed in range(8):
        changed = VERILOG.edit(code, random.Random(seed))
        assert changed is not None and changed != code
        before, after = code.splitlines(), changed.splitlines()
        if len(after) == len(before) + 1:  # a one-bit input port added first in the header
            assert [line for line in after if line not in before] == ["  input wire extra,"]
            assert facts_of(changed)["top_inputs"] == inputs + 1
            kinds.add("port")
        else:
            assert len([a for a, b in zip(before, after, strict=True) if a != b]) == 1
            kinds.add("cell")
    assert kinds == {"port", "cell"}
    assert VERILOG.edit("module m(a, y);\n  input a;\n  output y;\n  assign y = a;\n"
                        "endmodule\n", random.Random(0)) is None  # no ANSI header, no cell
    same = VERILOG.rewrite(code, random.Random(0))
    assert same is not None and "wire" in same and "n_t0" in same and score(code, same) == 1.0


# --- security and limits ------------------------------------------------------------------

@pytest.fixture
def listener() -> Iterator[tuple[str, list[str]]]:
    """A canary HTTP server on 127.0.0.1 that records every request."""
    with canary_server(b"module canary_http(output o);\nendmodule\n") as (port, hits):
        yield f"http://127.0.0.1:{port}/x.v", hits



def _attacks(canary: Path, url: str) -> list[str]:
    mem = ("{}module m(input [1:0] a, output [7:0] y);\n  reg [7:0] mem [0:3];\n"
           f"  initial {{}}(\"{canary}\", mem);\n  assign y = mem[a];\nendmodule\n")
    return [mem.format("", "$readmemh"), mem.format("", "$readmemb"),
            # a macro glued to a name spells $readmemh without writing it (Yosys joins them)
            mem.format("`define M memh\n", "$read`M"),
            mem.format("`define R $read\n`define M memh\n", "`R`M"),
            mem.format("`define R(x) x\n", "`R($read)memh"),
            mem.format("`define R(x) $read``x\n", "`R(memh)"),
            f'`include "{canary}"\nmodule m(output y);\nendmodule\n',
            f'`\n  include "{canary}"\nmodule m(output y);\nendmodule\n',
            f'`include "{url}"\nmodule m(output y);\nendmodule\n']


def test_file_reads_are_refused_before_any_program(tmp_path, listener, monkeypatch):
    url, asked = listener
    canary = tmp_path / "canary.hex"
    canary.write_text("a5\n5a\nff\n00\n", encoding="utf-8")
    ran: list[list[str]] = []
    import diagbench.languages.verilog.yosys as yosys

    real = yosys.run_program
    monkeypatch.setattr(yosys, "run_program", lambda command, *a, **k: (
        ran.append(command), real(command, *a, **k))[1])
    for attack in _attacks(canary, url):
        [parsed] = VERILOG.read(attack)
        assert parsed.errors and parsed.errors[0].reason.startswith("refused: "), attack
        assert parsed.diagram.modules == ()
    [result] = NetlistsvgEngine().render(_attacks(canary, url)[:1], tmp_path, "svg")
    assert not result.ok and result.error is not None and result.error.startswith("refused")
    assert ran == [] and asked == []


@pytest.mark.parametrize("attack", [0, 2, 3])
def test_the_canary_is_live_yosys_given_the_raw_text_reads_it(tmp_path, attack: int):
    canary = tmp_path / "canary.hex"
    canary.write_text("a5\n5a\nff\n00\n", encoding="utf-8")
    text = _attacks(canary, "")[attack]
    _, written = run_yosys({"design.v": text}, f"{RECIPE}; write_json n.json", ("n.json",))
    # the memory's initial words, least significant bit first: 0xa5, 0x5a, read from the file
    data = re.sub(r"\s", "", written["n.json"].decode("utf-8"))
    assert '"DATA":["1","0","1","0","0","1","0","1","0","1","0","1","1","0","1","0"' in data


def test_fopen_is_an_error_and_writes_nothing(tmp_path):
    target = tmp_path / "written.txt"
    code = (f'module m(output y);\n  integer f;\n  initial begin f = $fopen("{target}", "w");'
            ' $fdisplay(f, "x"); end\n  assign y = 1;\nendmodule\n')
    [parsed] = VERILOG.read(code)
    assert parsed.errors and "$fopen" in parsed.errors[0].reason and not target.exists()


def test_yosys_runs_in_an_empty_folder(tmp_path, monkeypatch):
    # a relative `include would find only what is in Yosys's own folder: nothing else
    monkeypatch.chdir(tmp_path)
    (tmp_path / "near.v").write_text("module near(output o);\nendmodule\n", encoding="utf-8")
    done, _ = run_yosys({"design.v": '`include "near.v"\nmodule m(output y);\nendmodule\n'},
                        RECIPE, ())
    assert done.returncode != 0 and b"near.v" in done.stderr + done.stdout


def test_a_ten_thousand_gate_design_is_refused_with_a_clear_error():
    # written out, it is over the characters read; generated by a loop, over the cells
    gates = "".join(f"  assign y[{i}] = a[{i}] & b[{i}];\n" for i in range(10_000))
    written = f"module big(input [9999:0] a, b, output [9999:0] y);\n{gates}endmodule\n"
    [parsed] = VERILOG.read(written)
    assert parsed.errors and "over the 200,000 diagbench reads" in parsed.errors[0].reason
    looped = ("module big(input [2999:0] a, b, output [2999:0] y);\n  genvar i;\n"
              "  generate for (i = 0; i < 3000; i = i + 1) begin : g\n"
              "    assign y[i] = a[i] & b[(i * 7) % 3000];\n  end endgenerate\nendmodule\n")
    [parsed] = VERILOG.read(looped)
    assert parsed.errors and "3,000 cells, over the 2,000" in parsed.errors[0].reason


def test_yosys_runs_under_its_memory_cap_and_its_failure_is_a_clear_error(monkeypatch):
    import diagbench.languages.verilog.yosys as yosys

    assert read_netlist(SMALL).netlist is not None
    monkeypatch.setattr(yosys, "MEMORY_BYTES", 10_000_000)  # less than Yosys itself maps
    run = read_netlist(SMALL)
    assert run.netlist is None
    assert run.diagnostics[0].reason.startswith("Yosys ran out of memory or crashed")


def test_deep_nesting_reads_and_noise_is_an_error_not_an_exception():
    deep = "module m(input a, output y);\n  assign y = " + "(" * 20_000 + "a" + ")" * 20_000 \
        + ";\nendmodule\n"
    assert design(deep).counts()["ports"] == 2
    [noise] = VERILOG.read(bytes(range(256)).decode("latin-1"))
    assert noise.errors


def test_a_design_that_never_elaborates_is_bounded_by_the_time_out():
    endless = ("module m(output [31:0] y);\n  function integer f(input integer n);\n"
               "    integer i;\n    begin\n      f = 0;\n"
               "      for (i = 0; i >= 0; i = i + 0) f = f + 1;\n    end\n  endfunction\n"
               "  localparam P = f(1);\n  assign y = P;\nendmodule\n")
    run = read_netlist(endless, timeout=3.0)
    assert run.netlist is None and "timed out after 3 s" in run.diagnostics[0].reason
    assert read_netlist(SMALL, timeout=3.0).netlist is not None


# --- the drawing ----------------------------------------------------------------------------

def skin_templates() -> dict[str, str]:
    """Each Yosys type netlistsvg's default skin draws with a symbol: its template (read
    off the skin file itself, the oracle of what a cell is drawn as)."""
    skin = (TOOL / "lib" / "default.svg").read_text(encoding="utf-8")
    out = {}
    for template, body in re.findall(r'<g s:type="(\w+)"(.*?)</g>', skin, re.S):
        for alias in re.findall(r'<s:alias val="([^"]+)"/>', body):
            out[alias] = template
    return out


@needs_real
def test_the_schematic_draws_what_yosys_read(tmp_path):
    # func_width_scope.v: a 2,324-bit design, past Node's default stack in netlistsvg's
    # bus splitting (the engine gives Node a larger one)
    names = ["dff_different_styles.v", "always02.v", "wandwor.v", "named_genblk.v",
             "verilog_primitives.v", "process.v", "func_width_scope.v"]
    paths = REAL_FILES if FULL else [REAL / "simple" / n for n in names]
    texts = [p.read_text(encoding="utf-8") for p in paths if p.is_file()]
    texts = [t for t in texts if VERILOG.readable(t) is not None]
    texts += [VERILOG.generate(random.Random(seed), ("low", "medium", "high")[seed % 3])
              for seed in range(sized(3, 30))] + [SMALL]
    results = NetlistsvgEngine(timeout=120.0).render(texts, tmp_path, "svg")
    templates = skin_templates()
    drawn_count = 0
    for text, result in zip(texts, results, strict=True):
        if result.too_large or "timed out" in (result.error or ""):
            continue  # netlistsvg's recursion on wide buses (case_large.v), ELK's time
        assert result.ok and result.image is not None, result.error
        drawn = VERILOG.drawn("hardware", result.image.read_text(encoding="utf-8"))
        [parsed] = VERILOG.read(text)
        read = parsed.counts()
        for key in ("modules", "ports", "inputs", "port_bits", "cells"):
            assert drawn.counts[key] == read[key], (key, drawn.counts, read)
        expected = Counter(templates.get(c.type, "generic")
                           for m in parsed.diagram.modules for c in m.cells)
        assert drawn.stats["templates"] == dict(expected)
        drawn_count += 1
    assert drawn_count >= len(texts) - sized(0, 5)
    assert json.dumps(VERILOG.drawn("hardware", results[-1].image.read_text(
        encoding="utf-8")).stats["templates"]) == '{"and": 1, "or": 1}'
