"""Boolean expressions (STRUDEL's propositional logic): the strict reader and its
diagnostics, the gates it reads against schemdraw's own parser (differential), the
truth tables against SymPy's, the `schemdraw-logic` engine and what its SVG shows, the
truth-table similarity, the facts, edit and rewrite, on hand-worked expressions."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from diagbench.languages import detect, named
from diagbench.languages.logic.engine import (
    SchemdrawLogicEngine,
    exact_transforms,
    logic_statistics,
    logic_tree,
)
from diagbench.languages.logic.facts import logic_facts
from diagbench.languages.logic.model import Gate, Input, Node, column
from diagbench.languages.logic.read import (
    MAX_GATES,
    MAX_INPUTS,
    MAX_NESTING,
    MAX_VARIABLES,
    LogicSyntaxError,
    parse_line,
    read_bool,
    tokens,
)
from diagbench.languages.logic.synth import edit_logic, synth_logic, write_circuit
from tests.sizes import sized

LOGIC = named("logic")
#: schemdraw's parser calls pyparsing's old names.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:schemdraw")
ROOT = Path(__file__).resolve().parents[1]


def _read(text: str):
    [parsed] = read_bool(text)
    return parsed


def _tree(node) -> object:
    """A gate tree as nested tuples: (type, inputs) for a gate, the name for an input."""
    if isinstance(node, Input):
        return node.name
    return (node.type, tuple(_tree(n) for n in node.inputs))


def _gate(text: str) -> object:
    return _tree(parse_line(text)[1])


def _score(gold: str, pred: str) -> float:
    return LOGIC.compare_code(gold, pred, True).score


# --- the reader -------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "tree"), [
    ("a or b and c", ("or", ("a", ("and", ("b", "c"))))),
    ("a or b xor c", ("xor", (("or", ("a", "b")), "c"))),  # schemdraw: XOR binds loosest
    ("not a and b", ("and", (("not", ("a",)), "b"))),
    ("a nand b nand c", ("nand", ("a", "b", "c"))),  # one chain, one gate
    ("(a and b) and c", ("and", (("and", ("a", "b")), "c"))),  # parentheses: a gate
    ("not (a or b)", ("nor", ("a", "b"))),  # NOT over a gate: the inverted gate
    ("not (a xnor b)", ("xor", ("a", "b"))),
    ("A ∧ ¬B ∨ C ⊻ D", ("xor", (("or", (("and", ("A", ("not", ("B",)))), "C")), "D"))),
    ("a & b and c ∧ d", ("and", ("a", "b", "c", "d"))),  # spellings of one operator
    ("x + y | z ∨ w", ("or", ("x", "y", "z", "w"))),
    ("A AND NOT B Or c", ("or", (("and", ("A", ("not", ("B",)))), "c"))),
    ("((a)) xor ~(b)", ("xor", ("a", ("not", ("b",))))),
    ("true and not FALSE", ("and", ("true", ("not", ("false",))))),
])
def test_reader_binds_as_schemdraw_draws(text, tree):
    assert _gate(text) == tree


@pytest.mark.parametrize(("text", "counts"), [
    # STRUDEL's two sample expressions (its renderer's examples: words, and symbols)
    ("(((A and B) and (not C)) or (D xor E)) and (not F)",
     {"gates": 7, "and_gates": 3, "not_gates": 2, "or_gates": 1, "xor_gates": 1,
      "variables": 6, "inputs": 6, "depth": 4}),
    ("(A ∧ ¬B) ∨ (C ⊻ (A ∧ B))",
     {"gates": 5, "and_gates": 2, "not_gates": 1, "or_gates": 1, "xor_gates": 1,
      "variables": 3, "inputs": 5, "depth": 3}),
    # as STRUDEL's renderer takes it too: an output name before `=`, upper-case words
    ("out = (A AND B) OR NOT C", {"gates": 3, "and_gates": 1, "not_gates": 1, "or_gates": 1,
                                  "variables": 3, "inputs": 3, "depth": 2}),
])
def test_reader_reads_strudels_samples(text, counts):
    parsed = _read(text)
    assert parsed.errors == ()
    assert {k: parsed.counts()[k] for k in counts} == counts


def test_reader_reads_names_comments_and_several_outputs():
    parsed = _read("// half adder\nS = A xor B   # sum\n\nC = A and B\n")
    assert parsed.errors == ()
    circuit = parsed.diagram
    assert circuit.names() == ("S", "C") and circuit.variables() == ("A", "B")
    assert parsed.counts() == {"outputs": 2, "variables": 2, "inputs": 4, "gates": 2,
                               "depth": 1, "and_gates": 1, "nand_gates": 0, "or_gates": 0,
                               "nor_gates": 0, "xor_gates": 1, "xnor_gates": 0,
                               "not_gates": 0}


def test_counts_of_the_majority_example_by_hand():
    parsed = _read((ROOT / "src/diagbench/languages/logic/examples/majority.bool")
                   .read_text(encoding="utf-8"))
    counts = parsed.counts()
    assert (counts["gates"], counts["and_gates"], counts["or_gates"], counts["variables"],
            counts["inputs"], counts["depth"]) == (4, 3, 1, 3, 6, 2)


@pytest.mark.parametrize(("text", "line", "column", "reason"), [
    ("Y = a and b nand c", 1, 13, "'and' and 'nand' mixed without parentheses"),
    ("a xor b xnor c", 1, 9, "'xor' and 'xnor' mixed"),
    ("not not a", 1, 1, "a double negation"),
    ("b or not (not a)", 1, 6, "a double negation"),
    ("Y = a", 1, 5, "'a' alone is no gate"),
    ("a and (b or c", 1, 14, "expected ')', found the end of the line"),
    ("a and   # b", 1, 6, "expected a name, true, false, 'not' or '(', found the end"),
    ("a and b)", 1, 8, "expected an operator or the end of the line"),
    ("a and", 1, 6, "expected a name"),
    ("a ^ b", 1, 3, "unexpected character '^'"),
    ("Y = a = b", 1, 7, "'=' only after an output's name"),
    ("and = a or b", 1, 1, "an output's name, not 'and'"),
    ("\n\nY = a or b\nZ = a and Y", 3, 1, "output 'Y' is also an input"),
    ("Y = a or b\nY = a and b", 2, 1, "output 'Y' given twice"),
    ("a or b\nZ = a and b", 1, 1, "an output without a name"),
    ("(" * (MAX_NESTING + 1) + "a or b" + ")" * (MAX_NESTING + 1), 1, MAX_NESTING + 1,
     f"parentheses nested over {MAX_NESTING} deep"),
    ("a" * 65 + " or b", 1, 1, "a name of 65 characters"),
    (" or ".join(["a"] * 300_000), 1, 20_001, "a line of 1,499,996 characters, over the 20,000"),
    (" or ".join(f"v{k}" for k in range(MAX_VARIABLES + 1)), 1, 0,
     f"{MAX_VARIABLES + 1} variables, over the {MAX_VARIABLES} read"),
    (" or ".join(f"(a and b{k % 3})" for k in range(MAX_GATES)), 1, 0,
     f"{MAX_GATES + 1} gates, over the {MAX_GATES} read"),
    (" or ".join(["a"] * (MAX_INPUTS + 1)), 1, 0,
     f"{MAX_INPUTS + 1} input terminals, over the {MAX_INPUTS} read"),
    ("# nine outputs\n" + "".join(f"Y{k} = a and b\n" for k in range(9)), 10, 0,
     "9 outputs, over the 8 read"),
    ("", 1, 0, "no Boolean expression"),
])
def test_reader_refuses_with_line_column_and_reason(text, line, column, reason):
    parsed = _read(text)
    assert parsed.errors, text
    first = parsed.errors[0]
    assert (first.line, first.column) == (line, column)
    assert reason in first.reason


def test_reader_never_evaluates_the_text(tmp_path):
    canary = tmp_path / "written"
    text = f"__import__('os').system('touch {canary}')"
    parsed = _read(text)
    assert parsed.errors and "unexpected character" in parsed.errors[0].reason
    assert not canary.exists()


def test_language_is_detected_by_suffix_and_content():
    assert detect(Path("x.bool"), "a and b") is LOGIC
    assert detect(None, "Y = (A and B) or not C\n") is LOGIC
    assert detect(None, "graph TD\n  A --> B\n") is not LOGIC


# --- differential: schemdraw's own parser -----------------------------------------------

_OPERATORS = ("and", "or", "xor", "nand", "nor", "xnor", "&", "|", "+", "∧", "∨", "⊕", "⊻",
              "AND", "Or")
_NOTS = ("not", "~", "¬", "NOT")


def _raw(rng: random.Random, depth: int) -> str:
    """A random expression text (unparenthesised chains of any operators, redundant
    parentheses, negations anywhere): most mix operators and are refused."""
    if depth == 0 or rng.random() < 0.3:
        leaf = rng.choice(("a", "b", "c", "d", "true", "false", "x_1"))
        leaf = f"({leaf})" if rng.random() < 0.2 else leaf
        return f"{rng.choice(_NOTS)} {leaf}" if rng.random() < 0.2 else leaf
    parts = [_raw(rng, depth - 1) for _ in range(rng.randint(2, 4))]
    text = parts[0] + "".join(f" {rng.choice(_OPERATORS)} {p}" for p in parts[1:])
    text = f"({text})" if rng.random() < 0.5 else text
    return f"{rng.choice(_NOTS)} {text}" if rng.random() < 0.2 else text


def _expression_text(line: str) -> str:
    """The expression of an output's line as schemdraw's parser is given it: its tokens
    after `NAME =`, operator words lower-cased, comments left out."""
    items = tokens(line)
    if len(items) >= 2 and items[1].text == "=":
        items = items[2:]
    return " ".join(t.text for t in items)


def _walk(node) -> object:
    """A schemdraw `LogicTree` as nested tuples, as `_tree` writes a gate tree."""
    if not node.children:
        return node.node
    return (node.node, tuple(_walk(c) for c in node.children))


def _schemdraw_tree(text: str) -> object:
    from schemdraw.parsing.logic_parser import parse_string, to_tree

    return _walk(to_tree(parse_string(_expression_text(text))))


def test_reader_agrees_with_schemdraws_parser_on_random_texts():
    """Every text the reader accepts reads into the tree schemdraw's parser builds (gate
    types, inputs in order, variables), and the drawer gives schemdraw's drawer that
    tree; the rest is refused for a reason of its own."""
    rng = random.Random(7)
    agreed = 0
    for _ in range(sized(900, 20_000)):
        text = _raw(rng, 3)
        try:
            mine = _gate(text)
        except LogicSyntaxError as exc:
            assert any(why in exc.reason for why in ("mixed without parentheses",
                                                     "double negation", "alone is no gate"))
            continue
        assert _schemdraw_tree(text) == mine == _walk(logic_tree(parse_line(text)[1])), text
        agreed += 1
    assert agreed > 150


def test_reader_agrees_with_schemdraw_on_generated_and_rewritten_codes():
    for seed in range(sized(30, 300)):
        code = synth_logic(random.Random(seed), ("low", "medium", "high")[seed % 3])
        for text in (code, LOGIC.rewrite(code, random.Random(seed)) or ""):
            circuit = _read(text).diagram
            lines = [line for line in text.splitlines() if line.strip()]
            assert [_schemdraw_tree(line) for line in lines] == \
                [_tree(o.gate) for o in circuit.outputs], text


def test_schemdraw_misdraws_what_the_reader_refuses():
    """The refusals are schemdraw's: a mixed chain is one gate of the first operator, and
    a double negation draws no gate."""
    assert _schemdraw_tree("a and b nand c") == ("and", ("a", "b", "c"))
    assert _schemdraw_tree("not (not a)") != ("not", (("not", ("a",)),))


# --- truth tables: SymPy ----------------------------------------------------------------

def _sympy(node: Node):
    """The function of a gate tree as a SymPy expression, built from the tree."""
    from sympy import Symbol, false, true
    from sympy.logic.boolalg import And, Nand, Nor, Not, Or, Xnor, Xor

    if isinstance(node, Input):
        return (true if node.name == "true" else false) if node.constant else Symbol(node.name)
    built = {"and": And, "nand": Nand, "or": Or, "nor": Nor, "xor": Xor, "xnor": Xnor,
             "not": Not}[node.type]
    return built(*(_sympy(child) for child in node.inputs))


def test_truth_tables_agree_with_sympy():
    from sympy import Symbol, false, true

    for seed in range(sized(15, 250)):
        circuit = _read(synth_logic(random.Random(seed), ("low", "medium")[seed % 2])).diagram
        variables = circuit.variables()
        for output in circuit.outputs:
            expression = _sympy(output.gate)
            bits = column(output.gate, variables)
            for row in range(1 << len(variables)):
                values = {Symbol(v): true if row >> (len(variables) - 1 - k) & 1 else false
                          for k, v in enumerate(variables)}
                assert bool(expression.xreplace(values)) == bool(bits >> row & 1), \
                    (write_circuit(circuit), row)


def test_truth_table_column_by_hand():
    # rows 00, 01, 10, 11 (A the high bit) are bits 0..3 of the column
    gate = parse_line("A and not B")[1]
    assert column(gate, ["A", "B"]) == 0b0100
    assert column(parse_line("A nand B nand C")[1], ["A", "B", "C"]) == 0b01111111
    assert column(parse_line("A xnor B xnor C")[1], ["A", "B", "C"]) == 0b01101001


# --- the engine -------------------------------------------------------------------------

def test_engine_draws_the_gates_read_and_refuses_what_the_reader_refuses(tmp_path):
    codes = ["S = A xor B\nC = A and B\n", "Y = not (a or b) xnor (c nand d nand true)\n"]
    refused = [" or ".join(f"v{k}" for k in range(MAX_VARIABLES + 1)), "a and b nand c"]
    engine = SchemdrawLogicEngine(jobs=1, timeout=60.0)
    svgs = engine.render(codes + refused, tmp_path, "svg")
    pngs = engine.render(codes, tmp_path, "png")  # drawn once: both images kept
    for code, svg, png in zip(codes, svgs[:2], pngs, strict=True):
        assert svg.ok and png.ok, (svg.error, png.error)
        assert png.image.read_bytes().startswith(b"\x89PNG")
        drawn = logic_statistics(svg.image.read_text(encoding="utf-8"))
        read = _read(code).counts()
        assert {k: drawn[k] for k in read} == read
    second = logic_statistics(svgs[1].image.read_text(encoding="utf-8"))
    assert (second["nor_gates"], second["nand_gates"], second["xnor_gates"],
            second["inputs"], second["variables"], second["names"],
            second["output_names"]) == (1, 1, 1, 5, 4, ["a", "b", "c", "d"], ["Y"])
    too_large, mixed = svgs[2:]
    assert not too_large.ok and "17 variables, over the 16" in (too_large.error or "")
    assert not mixed.ok and mixed.error_line == 1 and "mixed" in (mixed.error or "")


def test_exact_transforms_place_points_as_schemdraw_does_to_the_bit():
    """schemdraw's placing of a point, `((pt + localshift) * zoom).rotate(theta) + shift`
    by its own `Point` arithmetic, and the installed one give the same floats (signed
    zeros too) for every angle schemdraw draws at and some it does not."""
    from schemdraw.transform import Transform
    from schemdraw.util import Point

    exact_transforms()
    rng = random.Random(3)
    values = [0.0, -0.0, 1.0, -2.5, 0.1, 1e-17, 3.75]
    checked = 0
    for theta in (0, 0.0, -0.0, 90, 180, 270, -90, 45, 33.3, 360):
        for _ in range(40):
            shift, local = (Point((rng.choice([*values, rng.uniform(-9, 9)]),
                                   rng.choice([*values, rng.uniform(-9, 9)])))
                            for _ in range(2))
            zoom = rng.choice([1, 2.5, Point((1, -1)), Point((0.5, 1.5))])
            t = Transform(theta, shift, local, zoom)
            pt = (rng.choice([*values, rng.uniform(-5, 5)]),
                  rng.choice([*values, rng.uniform(-5, 5)]))
            theirs = ((Point(pt) + t.localshift) * t.zoom).rotate(t.theta) + t.shift
            mine = t.transform(pt)
            assert type(mine) is Point
            assert [v.hex() for v in map(float, mine)] == \
                [v.hex() for v in map(float, theirs)], (theta, shift, local, zoom, pt)
            checked += 1
    assert checked == 400


# --- similarity: hand-worked ------------------------------------------------------------

@pytest.mark.parametrize(("gold", "pred", "score"), [
    ("a and b", "b and a", 1.0),
    ("a xor b", "not (a xnor b)", 1.0),
    ("Y = a nand b", "(not a) or (not b)", 1.0),  # De Morgan; one output each: names aside
    ("a and b", "a or b", 0.5),  # rows 00 01 10 11: 1, 0, 0, 1 agree
    ("a and b", "a and c", 0.75),  # 8 rows; differ at a=1, b≠c: 2
    ("(a and b) or (a and c) or (b and c)", "a and b", 0.75),  # differ at 011, 101
    ("a and b", "a nand b", 0.0),
    ("S = a xor b\nC = a and b", "S = a xor b\nC = a or b", 0.75),  # (1 + 0.5) / 2
    ("S = a xor b\nC = a and b", "S = a xor b", 0.5),  # C missing: (1 + 0) / 2
    ("S = a xor b\nC = a and b", "C = a and b\nS = b xor a", 1.0),  # paired by name
])
def test_similarity_by_hand(gold, pred, score):
    assert _score(gold, pred) == score


def test_similarity_zero_when_invalid_or_unreadable():
    assert LOGIC.compare_code("a and b", "a and b", False).score == 0.0
    assert _score("a and b", "a and (b") == 0.0


# --- facts ------------------------------------------------------------------------------

def _majority(setting: str) -> int:
    ones = sum(part.strip().endswith("=1") for part in setting.split(","))
    return int(ones >= 2)


def test_facts_of_the_majority_by_hand():
    circuit = _read("M = (A and B) or (A and C) or (B and C)").diagram
    facts = {f.subject: f for f in logic_facts(circuit)}
    assert facts["output_gate"].answer == "OR"
    assert (facts["and_gates"].answer, facts["or_gates"].answer, facts["gates"].answer,
            facts["variables"].answer, facts["depth"].answer) == (3, 1, 4, 3, 2)
    assert facts["true_rows"].answer == 4 and "8 combinations" in facts["true_rows"].question
    row = facts["row"]
    setting = row.question.split("when ")[1].rstrip("?")
    assert row.answer == _majority(setting)
    assert "xor_gates" not in facts  # only the types drawn are asked
    assert all(f.task in ("identification", "quantification", "structural")
               for f in facts.values())


def test_facts_of_a_half_adder_name_each_output():
    facts = logic_facts(_read("S = A xor B\nC = A and B").diagram)
    asked = {f.question: f.answer for f in facts}
    assert asked["Which type of gate drives the output S? Answer AND, NAND, OR, NOR, "
                 "XOR, XNOR or NOT."] == "XOR"
    assert asked["For how many of the 4 combinations of input values is the output C 1?"] == 1
    assert asked["How many outputs does the schematic have?"] == 2


# --- generator, edit, rewrite -----------------------------------------------------------

def test_generator_is_seeded_and_sized():
    assert synth_logic(random.Random(3), "high") == synth_logic(random.Random(3), "high")
    for complexity, most in (("low", 2), ("medium", 4), ("high", 7)):
        for seed in range(10):
            parsed = _read(synth_logic(random.Random(seed), complexity))
            assert parsed.errors == () and 1 <= parsed.counts()["gates"] <= most


def test_edit_changes_one_gate_and_shrinks_the_true_rows():
    for seed in range(20):
        circuit = _read(synth_logic(random.Random(seed), "medium")).diagram
        edited = edit_logic(circuit, random.Random(seed))
        if edited is None:
            continue
        variables = circuit.variables()
        [(before, after)] = [(o.gate, e.gate) for o, e in
                             zip(circuit.outputs, edited.outputs, strict=True) if o != e]
        assert _read(write_circuit(edited)).counts()["gates"] == circuit.counts()["gates"]
        old, new = column(before, variables), column(after, variables)
        assert new != old and new & old == new
        assert 0.0 < _score(write_circuit(circuit), write_circuit(edited)) < 1.0


def test_edit_of_a_single_or_gate_by_hand():
    # a or b can become only a xor b (rows 01, 10) or a and b (row 11): a subset of its
    # rows 01, 10, 11; every other type is 1 somewhere a or b is not
    circuit = _read("a or b").diagram
    edited = edit_logic(circuit, random.Random(0))
    assert edited is not None and edited.outputs[0].gate.type in ("and", "xor")
    assert isinstance(edited.outputs[0].gate, Gate)


def test_rewrite_scores_one_and_is_written_otherwise():
    for seed in range(15):
        code = synth_logic(random.Random(seed), "high")
        other = LOGIC.rewrite(code, random.Random(seed))
        assert other is not None and _read(other).errors == ()
        assert _score(code, other) == 1.0
    assert any(LOGIC.rewrite(synth_logic(random.Random(s), "high"), random.Random(s)) !=
               synth_logic(random.Random(s), "high") for s in range(5))


# --- the command line -------------------------------------------------------------------

def test_parse_json_reports_the_fields_counts(tmp_path):
    path = tmp_path / "adder.bool"
    path.write_text("S = A xor B xor Cin\nCout = (A and B) or (Cin and (A xor B))\n",
                    encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "diagbench", "parse", "--json", str(path)],
                          capture_output=True, text=True, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    [record] = json.loads(done.stdout)
    assert record["language"] == "logic" and record["kind"] == "logic"
    counts = record["counts"]
    assert (counts["outputs"], counts["variables"], counts["gates"], counts["depth"],
            counts["xor_gates"], counts["and_gates"], counts["or_gates"]) == \
        (2, 3, 5, 3, 2, 2, 1)
