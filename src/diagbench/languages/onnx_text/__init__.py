"""ONNX graphs in ONNX's text syntax (`.onnxtxt`): deep-learning architectures
(STRUDEL's Computer Science & AI domain), read by ONNX itself, drawn by Graphviz from
the graph read.

**Reader.** `onnx.parser.parse_model`, then `onnx.checker.check_model` (full check,
with strict shape inference) and `onnx.shape_inference.infer_shapes`: ops with their
attributes, graph inputs and outputs, initialisers (the weights) and the inferred
tensor shapes. `diagbench parse --json` counts `ops`, `inputs`, `outputs`,
`initializers`, `parameters` (values of the initialisers), `depth` (ops on the
longest path), `edges` (tensor edges drawn) and the ops by type (`ops:Conv`, …).
Errors are ONNX's own: the parser's with line and column, the checker's with the line
that names what it names. Graphs over 2,000 ops are refused. The text syntax reads
nothing outside the text.

**Engine.** Graphviz, from the graph read: a box per op (its type, weights with their
shapes, attributes), an ellipse per graph input and output, an edge per tensor edge
labelled with its name and shape; its styles are Graphviz's
(`languages.dot.styles`): the `neato` and `fdp` layouts, wider spacing. Not Netron,
STRUDEL's choice: it draws in a browser, one Chromium page per model with no text
interface to ask what it drew.

**Similarity.** Graph F1 over nodes (op type and attributes) and tensor edges, the
nodes of the two graphs paired by the assignment that maximises their agreement (tensor
names free). **Facts**: which op follows the first convolution, how many Conv or Relu
nodes, how many parameters, which op consumes a tensor.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from diagbench.languages.record import Drawn, Language, expect
from diagbench.languages.styled import DrawerStyles

if TYPE_CHECKING:
    from diagbench.compare.scored import Scored
    from diagbench.diagram.facts import Fact
    from diagbench.formats.parsed import Diagram, Parsed
    from diagbench.render.engines import Engine


#: Its drawing styles (`languages.dot.styles`), handed to its engine in the source's
#: envelope (`languages.styled`).
STYLES = ("neato", "fdp", "spacious")


def recognises(text: str) -> bool:
    """An ONNX text model opens with its `<` header naming `ir_version` or
    `opset_import`."""
    head = text.removeprefix("\ufeff").lstrip()[:2000]
    return head.startswith("<") and ("ir_version" in head or "opset_import" in head) \
        and not head.startswith("<?xml")


class OnnxText(DrawerStyles, Language):
    """ONNX's text syntax as a `Language`: its parts, each importing what it uses when
    first called."""

    DRAWER_STYLES = STYLES

    def recognises(self, text: str) -> bool:
        return recognises(text)

    def read(self, text: str) -> Sequence[Parsed[Diagram]]:
        from diagbench.languages.onnx_text.read import read_onnx_text

        return read_onnx_text(text)

    def make_engine(self, jobs: int = 2, timeout: float = 20.0) -> Engine:
        from diagbench.languages.onnx_text.draw import make_engine

        return make_engine(jobs, timeout)

    def drawn(self, kind: str, svg: str) -> Drawn:
        from diagbench.languages.onnx_text.draw import drawn_statistics

        return Drawn(drawn_statistics(svg))

    def compare(self, gold: Parsed[Diagram], pred: Parsed[Diagram] | None,
                valid: bool) -> Scored:
        from diagbench.languages.onnx_text.similarity import compare_networks

        return compare_networks(gold, pred, valid)

    def facts(self, diagram: Diagram) -> list[Fact]:
        from diagbench.languages.onnx_text.facts import network_facts
        from diagbench.languages.onnx_text.model import NeuralGraph

        return network_facts(expect(diagram, NeuralGraph))

    def generate(self, rng: random.Random, complexity: str) -> str:
        from diagbench.languages.onnx_text.synth import generate

        return generate(rng, complexity)

    def edit(self, code: str, rng: random.Random) -> str | None:
        from diagbench.languages.onnx_text.synth import edited

        changed = edited(code, rng)
        return None if changed is None else self.readable(changed)

    def rewrite(self, code: str, rng: random.Random) -> str | None:
        from diagbench.languages.onnx_text.synth import rewritten

        return rewritten(code, rng)


LANGUAGE = OnnxText(
    doc=__doc__ or "",
    name="onnx",
    title="ONNX text",
    suffixes=(".onnxtxt",),
    domain="computer-science",
    categories=("deep-learning",),
    kinds=("network",),
    engine="onnx-graphviz",
    examples=("small-cnn.onnxtxt",),
    node_limits=(2, 60),
    size="ops",
    libraries=("onnx", "scipy"),
)
