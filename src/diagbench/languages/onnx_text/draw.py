"""An ONNX graph drawn by Graphviz, from the graph ONNX read: one box per op (its type,
the initialisers it reads with their shapes, its attributes), one ellipse per graph
input and output, one edge per tensor edge labelled with the tensor's name and
inferred shape (and, into an op that reads several, with the input's position at its
head) — so the SVG counts exactly the graph's `ops` (by type), `inputs`,
`outputs` and `edges`.

Not Netron (STRUDEL's choice): it draws in a browser page, one Chromium page per
model with no text interface to ask what it drew, so neither batch rendering nor
drawn statistics could be had from it; Graphviz draws the same layered graph in
milliseconds and marks every element in its SVG.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from diagbench.languages.dot.styles import GRAPHVIZ_STYLES, styled_dot
from diagbench.languages.onnx_text.model import NeuralGraph, Tensor
from diagbench.languages.styled import opened
from diagbench.render.model_dot import ModelDotEngine, Unreadable

_OP = re.compile(r'<g id="[^"]*" class="node onnxop (\w+)">')
_IO = re.compile(r'<g id="[^"]*" class="node (onnxinput|onnxoutput)">')
_EDGE = re.compile(r'<g id="[^"]*" class="edge">')


def _h(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def shape_text(tensor: Tensor) -> str:
    return "×".join(str(d) for d in tensor.shape) if tensor.shape else "scalar"


def graph_dot(graph: NeuralGraph) -> str:
    """The DOT drawing of an ONNX graph (see the module's docstring)."""
    weights = {t.name: t for t in graph.initializers}
    shapes = {t.name: t for t in (*graph.inputs, *graph.outputs, *graph.shapes)}
    lines = ["digraph onnx {", "  graph [rankdir=TB, ratio=2.5, fontname=Helvetica];",
             "  node [fontname=Helvetica, fontsize=11];",
             "  edge [fontname=Helvetica, fontsize=9];"]
    for k, t in enumerate(graph.inputs):
        lines.append(f'  "in:{k}" [shape=ellipse, class="onnxinput", label=<{_h(t.name)}'
                     f'<br/><font point-size="9">{t.dtype}[{shape_text(t)}]</font>>];')
    for n, op in enumerate(graph.ops):
        rows = [f"<b>{_h(op.op_type)}</b>"]
        rows += [f'<font point-size="9">{_h(name)} ⟨{shape_text(weights[name])}⟩</font>'
                 for name in op.inputs if name in weights]
        rows += [f'<font point-size="9">{_h(a)} = {_h(v)}</font>' for a, v in op.attributes]
        lines.append(f'  "{n}" [shape=box, style="rounded,filled", fillcolor="#e8eefa", '
                     f'class="onnxop {op.op_type}", label=<{"<br/>".join(rows)}>];')
    for k, t in enumerate(graph.outputs):
        lines.append(f'  "out:{k}" [shape=ellipse, class="onnxoutput", label=<{_h(t.name)}'
                     f'<br/><font point-size="9">{t.dtype}[{shape_text(t)}]</font>>];')
    edges = graph.edges()
    into = Counter(e.target for e in edges)
    for e in edges:
        shape = shape_text(shapes[e.tensor]) if e.tensor in shapes else ""
        slot = (f', headlabel="{e.target_slot}", labelfontsize=8' if into[e.target] > 1
                else "")
        lines.append(f'  "{e.source}" -> "{e.target}" [label=<{_h(e.tensor)}'
                     f'<br/><font point-size="8">{shape}</font>>{slot}];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def source_dot(source: str) -> str:
    """The DOT drawing of an ONNX text, in the style its envelope names (`Unreadable`
    with ONNX's first error)."""
    from diagbench.languages.onnx_text.read import read_onnx_text

    try:
        style, source = opened(source, GRAPHVIZ_STYLES)
    except ValueError as exc:
        raise Unreadable(str(exc), 1) from None
    [parsed] = read_onnx_text(source)
    if parsed.errors:
        first = parsed.errors[0]
        raise Unreadable(first.reason, first.line)
    assert isinstance(parsed.diagram, NeuralGraph)
    return styled_dot(graph_dot(parsed.diagram), style)


def onnx_version() -> str:
    from importlib.metadata import version

    return f"onnx {version('onnx')}"


def make_engine(jobs: int, timeout: float) -> ModelDotEngine:
    return ModelDotEngine("onnx-graphviz", onnx_version, source_dot, jobs, timeout)


def drawn_statistics(svg: str) -> dict[str, Any]:
    """What the drawing shows: ops by type, graph inputs and outputs, tensor edges."""
    ops = _OP.findall(svg)
    io = _IO.findall(svg)
    by_type = {f"ops:{t}": ops.count(t) for t in sorted(set(ops))}
    return {"ops": len(ops), "inputs": io.count("onnxinput"),
            "outputs": io.count("onnxoutput"), "edges": len(_EDGE.findall(svg)), **by_type}
