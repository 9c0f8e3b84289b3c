"""ONNX text written here: a seeded generator of small networks (a convolutional
classifier, batch-normalised at times, a multi-layer perceptron, a self-attention
block with a feed-forward layer), the edit (one op changed to another of the same
signature) and the rewrite (every tensor renamed, the ops in another topological
order, printed by ONNX)."""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from onnx import GraphProto

HEADER = '<\n  ir_version: 8,\n  opset_import: ["" : 18]\n>\n'
_VALUES = ("0", "0.5", "-0.5", "1", "-1", "0.25", "-0.25", "2")
#: Blocks (conv, dense or attention layers) per complexity.
BLOCKS = {"low": 1, "medium": 2, "high": 3}
#: Each op the edit changes, and what it becomes (cycles of three, so that a second
#: edit of the same op never brings the first one back).
CHANGES = {"Relu": "Sigmoid", "Sigmoid": "Tanh", "Tanh": "Relu",
           "Add": "Sub", "Sub": "Mul", "Mul": "Add",
           "MaxPool": "AveragePool", "AveragePool": "LpPool", "LpPool": "MaxPool",
           "Softmax": "LogSoftmax", "LogSoftmax": "Hardmax", "Hardmax": "Softmax"}
_OP = re.compile(r"(?m)^(\s*[\w.,\s]+=\s*)(" + "|".join(CHANGES) + r")\b")


class _Writer:
    """The initialisers and node statements of one graph being written."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.weights: list[str] = []
        self.nodes: list[str] = []

    def weight(self, name: str, *shape: int, positive: bool = False) -> str:
        count = 1
        for d in shape:
            count *= d
        choices = [v for v in _VALUES if float(v) > 0] if positive else _VALUES
        values = ", ".join(self.rng.choice(choices) for _ in range(count))
        self.weights.append(f"float[{','.join(map(str, shape))}] {name} = {{{values}}}")
        return name

    def node(self, out: str, op: str, *inputs: str, attrs: str = "") -> str:
        self.nodes.append(f"  {out} = {op}{' <' + attrs + '>' if attrs else ''} "
                          f"({', '.join(inputs)})")
        return out

    def text(self, name: str, inputs: str, outputs: str) -> str:
        body = ",\n ".join(self.weights)
        return (f"{HEADER}{name} ({inputs}) => ({outputs})\n<{body}>\n{{\n"
                + "\n".join(self.nodes) + "\n}\n")


def _cnn(w: _Writer, blocks: int) -> str:
    rng = w.rng
    channels, side = rng.randint(1, 3), 8
    first, x = channels, "image"
    for b in range(1, blocks + 1):
        out = rng.randint(2, 4)
        conv = w.node(f"conv{b}", "Conv", x, w.weight(f"conv{b}_w", out, channels, 3, 3),
                      w.weight(f"conv{b}_b", out), attrs="kernel_shape = [3, 3], "
                      "pads = [1, 1, 1, 1]")
        if rng.random() < 0.3:
            conv = w.node(f"norm{b}", "BatchNormalization", conv,
                          *(w.weight(f"bn{b}_{p}", out) for p in ("scale", "bias", "mean")),
                          w.weight(f"bn{b}_var", out, positive=True))
        x = w.node(f"act{b}", "Relu", conv)
        if side >= 4 and rng.random() < 0.6:
            x = w.node(f"pool{b}", "MaxPool", x, attrs="kernel_shape = [2, 2], "
                       "strides = [2, 2]")
            side //= 2
        channels = out
    classes = rng.randint(2, 4)
    flat = w.node("flat", "Flatten", w.node("gap", "GlobalAveragePool", x), attrs="axis = 1")
    logits = w.node("logits", "Gemm", flat, w.weight("fc_w", classes, channels),
                    w.weight("fc_b", classes), attrs="transB = 1")
    w.node("scores", "Softmax", logits, attrs="axis = 1")
    return w.text("cnn", f"float[1,{first},8,8] image", f"float[1,{classes}] scores")


def _mlp(w: _Writer, blocks: int) -> str:
    rng = w.rng
    features = width = rng.randint(3, 5)
    x = "features"
    for b in range(1, blocks + 1):
        hidden = rng.randint(2, 5)
        x = w.node(f"act{b}", rng.choice(["Relu", "Tanh"]),
                   w.node(f"dense{b}", "Gemm", x, w.weight(f"w{b}", hidden, width),
                          w.weight(f"b{b}", hidden), attrs="transB = 1"))
        width = hidden
    classes = rng.randint(2, 3)
    logits = w.node("logits", "Gemm", x, w.weight("w_out", classes, width),
                    w.weight("b_out", classes), attrs="transB = 1")
    w.node("probs", "Softmax", logits, attrs="axis = 1")
    return w.text("mlp", f"float[1,{features}] features", f"float[1,{classes}] probs")


def _attention(w: _Writer, blocks: int) -> str:
    rng = w.rng
    tokens, dim = rng.randint(2, 3), rng.choice([2, 4])
    x = "tokens"
    for b in range(1, blocks + 1):
        q, k, v = (w.node(f"{n}{b}", "MatMul", x, w.weight(f"w{n}{b}", dim, dim))
                   for n in "qkv")
        kt = w.node(f"kt{b}", "Transpose", k, attrs="perm = [0, 2, 1]")
        scores = w.node(f"scaled{b}", "Mul", w.node(f"scores{b}", "MatMul", q, kt),
                        w.weight(f"scale{b}", 1))
        attended = w.node(f"mixed{b}", "MatMul", w.node(f"attn{b}", "Softmax", scores,
                                                        attrs="axis = -1"), v)
        x = w.node(f"norm{b}", "LayerNormalization", w.node(f"res{b}", "Add", attended, x),
                   w.weight(f"gamma{b}", dim), w.weight(f"beta{b}", dim), attrs="axis = -1")
        if b > 1 or blocks == 1:
            hidden = w.node(f"ffn{b}", "Relu", w.node(f"up{b}", "MatMul", x,
                                                      w.weight(f"w_up{b}", dim, 2 * dim)))
            x = w.node(f"out{b}", "Add", w.node(f"down{b}", "MatMul", hidden,
                                                w.weight(f"w_down{b}", 2 * dim, dim)), x)
    return w.text("attention", f"float[1,{tokens},{dim}] tokens",
                  f"float[1,{tokens},{dim}] {x}")


def generate(rng: random.Random, complexity: str) -> str:
    """A small network of `rng`'s choice (CNN, MLP or attention) in ONNX's text syntax."""
    family = rng.choice([_cnn, _mlp, _attention])
    return family(_Writer(rng), BLOCKS.get(complexity, 2))


def edited(code: str, rng: random.Random) -> str | None:
    """One op (`rng`'s choice among those `CHANGES` names) changed to its next of kind."""
    found = list(_OP.finditer(code))
    if not found:
        return None
    m = found[rng.randrange(len(found))]
    return code[:m.start(2)] + CHANGES[m.group(2)] + code[m.end(2):]


def rewritten(code: str, rng: random.Random) -> str | None:
    """The same graph with every tensor renamed and its ops in another topological
    order (`rng`'s choice among the ready ops at each step), printed by ONNX."""
    import onnx.printer

    from diagbench.languages.onnx_text.read import checked_model

    try:
        model = checked_model(code)
    except ValueError:
        return None
    graph = model.graph
    del graph.value_info[:]
    names = list(dict.fromkeys([t.name for t in graph.input] + [t.name for t in graph.output]
                               + [t.name for t in graph.initializer]
                               + [n for node in graph.node for n in (*node.input, *node.output)
                                  if n]))
    numbers = list(range(len(names)))
    rng.shuffle(numbers)
    new = {name: f"t{k}" for name, k in zip(names, numbers, strict=True)}
    for item in (*graph.input, *graph.output, *graph.initializer):
        item.name = new[item.name]
    for node in graph.node:
        node.input[:] = [new.get(n, n) for n in node.input]
        node.output[:] = [new[n] for n in node.output]
    order = _another_order(graph, rng)
    nodes = [graph.node[k] for k in order]
    copies = [type(n)() for n in nodes]
    for copy, node in zip(copies, nodes, strict=True):
        copy.CopyFrom(node)
    del graph.node[:]
    graph.node.extend(copies)
    return onnx.printer.to_text(model)


def _another_order(graph: GraphProto, rng: random.Random) -> list[int]:
    """A topological order of the graph's nodes, `rng` choosing among the ready ones."""
    nodes = list(graph.node)
    made = {name: k for k, node in enumerate(nodes) for name in node.output}
    needs = [{made[n] for n in node.input if n in made} for node in nodes]
    done: list[int] = []
    while len(done) < len(nodes):
        ready = [k for k in range(len(nodes)) if k not in done and needs[k] <= set(done)]
        done.append(rng.choice(ready))
    return done
