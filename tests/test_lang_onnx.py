"""ONNX text (deep-learning architectures): ONNX's own reading and errors, the graph
F1 worked out by hand on hand-written models, the facts, the limit on huge graphs,
and the generator's edit and rewrite."""

from __future__ import annotations

import random

import pytest

from diagbench.languages import named
from diagbench.languages.onnx_text.model import NeuralGraph
from diagbench.languages.onnx_text.read import MAX_OPS

ONNX = named("onnx")
HEAD = '<\n  ir_version: 8,\n  opset_import: ["" : 18]\n>\n'

#: input → Conv → Relu → output: 4 drawn nodes, 3 tensor edges, 8·3·3·1 + 2 weights
CHAIN = HEAD + """net (float[1,1,4,4] x) => (float[1,2,4,4] y)
<float[2,1,3,3] w = {1,0,0, 0,1,0, 0,0,1, 1,1,1, 0,0,0, 1,1,1}, float[2] b = {0, 1}>
{
  c = Conv <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (x, w, b)
  y = Relu (c)
}
"""

#: input → Relu → Add(relu, input) → output: a residual, 4 nodes and 4 edges
RESIDUAL = HEAD + """res (float[1,4] x) => (float[1,4] y)
{
  r = Relu (x)
  y = Add (r, x)
}
"""


def score(gold: str, pred: str, valid: bool = True) -> float:
    return ONNX.compare_code(gold, pred, valid).score


def graph(text: str) -> NeuralGraph:
    [parsed] = ONNX.read(text)
    assert parsed.errors == (), parsed.errors
    assert isinstance(parsed.diagram, NeuralGraph)
    return parsed.diagram


def test_counts_are_the_fields_own():
    assert graph(CHAIN).counts() == {
        "ops": 2, "inputs": 1, "outputs": 1, "initializers": 2, "parameters": 20,
        "depth": 2, "edges": 3, "ops:Conv": 1, "ops:Relu": 1}
    assert graph(RESIDUAL).counts()["edges"] == 4  # x→Relu, x→Add, Relu→Add, Add→y


def test_renamed_tensors_score_1():
    renamed = (CHAIN.replace("(x,", "(image,").replace("x) =>", "image) =>")
               .replace(" c ", " hidden ").replace("(c)", "(hidden)"))
    assert graph(renamed).inputs[0].name == "image"
    assert score(CHAIN, renamed) == 1.0


def test_an_op_changed_costs_one_node():
    changed = CHAIN.replace("Relu", "Sigmoid")
    # nodes: 3 of 4 matched (F1 3/4); edges: 3 of 3 (F1 1); (3/4 + 1)/2
    assert score(CHAIN, changed) == 0.875
    assert score(CHAIN, CHAIN, valid=False) == 0.0


def test_an_attribute_or_a_weight_shape_changed_costs_one_node():
    strided = CHAIN.replace("pads = [1, 1, 1, 1]", "pads = [1, 1, 1, 1], strides = [1, 1]")
    assert score(CHAIN, strided) == 0.875
    one_filter = (CHAIN.replace("float[2,1,3,3] w = {1,0,0, 0,1,0, 0,0,1, 1,1,1, 0,0,0, "
                                "1,1,1}", "float[1,1,3,3] w = {1,0,0, 0,1,0, 0,0,1}")
                  .replace("float[2] b = {0, 1}", "float[1] b = {0}")
                  .replace("float[1,2,4,4] y", "float[1,1,4,4] y"))
    # the Conv's weights and the output's shape differ: 2 of 4 nodes, every edge
    assert score(CHAIN, one_filter) == pytest.approx((0.5 + 1) / 2)


def test_a_rewired_edge_costs_its_slots():
    swapped = RESIDUAL.replace("Add (r, x)", "Add (x, r)")
    # nodes 4 of 4; edges: x→Relu and Add→y kept, x→Add and Relu→Add change slot:
    # 2 of 4 (F1 1/2); (1 + 1/2)/2
    assert score(RESIDUAL, swapped) == 0.75


def test_another_topological_order_scores_1():
    branches = HEAD + """two (float[1,4] x) => (float[1,4] y)
{
  a = Relu (x)
  b = Sigmoid (x)
  y = Sub (a, b)
}
"""
    reordered = branches.replace("  a = Relu (x)\n  b = Sigmoid (x)\n",
                                 "  b = Sigmoid (x)\n  a = Relu (x)\n")
    assert score(branches, reordered) == 1.0
    # the branches swapped at the Sub: both of its input edges change slot
    assert score(branches, branches.replace("Sub (a, b)", "Sub (b, a)")) == pytest.approx(
        (1 + 3 / 5) / 2)


def test_facts_of_the_example():
    example = ONNX.example_paths()[0].read_text(encoding="utf-8")
    facts = {f.question: f.answer for f in ONNX.facts(graph(example))}
    assert facts["Which op follows the first convolution (Conv)?"] == "Relu"
    assert facts["How many Conv nodes does the network have?"] == 1
    assert facts["How many Relu nodes does the network have?"] == 1
    # 2·1·3·3 + 2 + 3·2 + 3
    assert facts["How many parameters (values of the initialisers, the weights) does the "
                 "network have?"] == 29
    assert facts["Which op consumes the tensor act1?"] == "MaxPool"


def test_a_tensor_read_twice_is_not_asked_and_two_first_convs_are_not():
    facts = {f.question for f in ONNX.facts(graph(RESIDUAL))}
    assert "Which op consumes the tensor x?" not in facts  # Relu and Add read it
    assert "Which op consumes the tensor r?" in facts
    twin = HEAD + """twin (float[1,1,4,4] x) => (float[1,1,4,4] y)
<float[1,1,1,1] w = {1}>
{
  a = Conv (x, w)
  b = Conv (x, w)
  y = Add (a, b)
}
"""
    assert not any("first convolution" in q for q in
                   (f.question for f in ONNX.facts(graph(twin))))


def test_errors_are_onnxs_own_with_their_place():
    [parsed] = ONNX.read(CHAIN.replace("Relu (c)", "Relu (c"))
    [error] = parsed.errors
    assert error.reason == "ONNX parser: Expected character ) not found."
    assert (error.line, error.column) == (10, 1)  # where the parser stopped: the `}`
    [parsed] = ONNX.read(CHAIN.replace("Relu", "Relux"))
    assert "No Op registered for Relux" in parsed.errors[0].reason
    assert parsed.errors[0].line == 9  # the line that names Relux
    [parsed] = ONNX.read(CHAIN.replace("Relu (c)", "Relu (d)"))
    assert "topologically sorted" in parsed.errors[0].reason and parsed.errors[0].line == 9


def test_a_huge_graph_is_refused():
    body = "\n".join(f"  t{k + 1} = Relu (t{k})" for k in range(MAX_OPS + 1))
    text = HEAD + f"big (float[1] t0) => (float[1] t{MAX_OPS + 1})\n{{\n{body}\n}}\n"
    [parsed] = ONNX.read(text)
    assert parsed.errors[0].reason == f"{MAX_OPS + 1:,} ops, over the limit of {MAX_OPS:,}"


def test_a_broken_code_does_not_render_and_scores_0(tmp_path):
    broken = CHAIN[:len(CHAIN) // 2]
    [result] = ONNX.make_engine(1, 20.0).render([broken], tmp_path, "svg")
    assert not result.ok and (result.error or "").startswith("ONNX parser:")
    assert score(CHAIN, broken, valid=False) == 0.0


def test_edit_and_rewrite_of_generated_networks():
    for seed in range(6):
        code = ONNX.generate(random.Random(seed), ("low", "medium", "high")[seed % 3])
        assert ONNX.generate(random.Random(seed), ("low", "medium", "high")[seed % 3]) == code
        same = ONNX.rewrite(code, random.Random(seed))
        assert same is not None and score(code, same) == 1.0
        changed = ONNX.edit(code, random.Random(seed))
        assert changed is not None
        nodes = len(ONNX.read(code)[0].diagram.ops) + 2  # and one input, one output
        # one op changed: nodes (n-1)/n, every edge kept
        assert score(code, changed) == pytest.approx(((nodes - 1) / nodes + 1) / 2)


def test_a_long_chain_of_like_ops_is_paired_by_place():
    n = 40
    body = "\n".join(f"  t{k + 1} = Relu (t{k})" for k in range(n))
    chain = HEAD + f"chain (float[1] t0) => (float[1] t{n})\n{{\n{body}\n}}\n"
    changed = chain.replace("t21 = Relu", "t21 = Sigmoid")
    # n + 2 nodes, one changed: node F1 (n+1)/(n+2); every edge kept
    assert score(chain, changed) == pytest.approx((1 + (n + 1) / (n + 2)) / 2)
