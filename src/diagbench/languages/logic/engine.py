"""Boolean expressions drawn as logic-gate schematics by schemdraw's `logicparse`
(STRUDEL's engine for propositional logic), SVG by schemdraw's own SVG backend and PNG
rasterised from it by rsvg-convert, in worker processes (`render.drawing`: time-out,
memory limit).

Valid means diagbench's reader reads the file (`read.read_bool`); its first error is
the engine's error, so a refused expression (too large, or one schemdraw would draw
otherwise than it says) is never drawn. Each output's gate tree is given to schemdraw's
own drawer (`drawlogic`, as `logicparse` calls it, its output labelled with the output's
name) as schemdraw's `LogicTree`: the tree schemdraw's parser builds of every expression
the reader reads (the reader's tests hold them equal), without that parser's pyparsing
grammar, built and run again for each expression (a quarter of a drawing's time). The
outputs' drawings are stacked top to bottom in one SVG, each a nested `<svg
class="output" data-name="…">`. schemdraw places each point of a drawing by
`exact_transforms`: its own arithmetic, without its intermediate objects.

Markers (`logic_statistics` reads them): schemdraw's SVG backend writes an element's
strokes and labels as loose paths and texts, so the drawer draws the elements one at a
time (schemdraw's own `Element._draw` on its SVG `Figure`, as `Drawing.draw` does) and
wraps each element's output in `<g class="gate TYPE" data-level="L">` (TYPE from
schemdraw's element class and its `nand`/`nor`/`xor` flags; L the gate's column from
the output, from where schemdraw placed it) or `<g class="wire">`. Labels are kept as
`<text>`: the inputs' names, and the output's name. A source in an envelope
(`languages.styled`) is drawn in its style: schemdraw's style settings of
`SCHEMDRAW_STYLES` (colour, line width, fill) while it draws, restored after.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from diagbench.languages.logic.model import CONSTANTS, GATE_TYPES, Input, Node
from diagbench.languages.logic.styles import SCHEMDRAW_STYLES, STYLES
from diagbench.languages.styled import opened
from diagbench.render.drawing import DrawingEngine

#: schemdraw's gate width in `logicparse` (drawing units): one column of the schematic.
GATE_WIDTH = 2.0
#: The gate height `logicparse` gives schemdraw's drawer (drawing units).
GATE_HEIGHT = 0.75
_SVG = "{http://www.w3.org/2000/svg}"
#: The space between two outputs' drawings (points).
GAP = 12.0
#: The margin around a drawing (drawing units): schemdraw's own leaves long input names cut.
MARGIN = 0.6


def draw_logic(source: str) -> dict[str, Any]:
    """{"svg": bytes, "png": bytes} of the circuit of `source` (runs in a worker), or
    {"error": the reader's first error, "line": its line}."""
    from diagbench.languages.logic.read import read_bool
    from diagbench.render.programs import svg_to_png

    style, source = opened(source, STYLES)
    [parsed] = read_bool(source)
    if parsed.errors:
        first = parsed.errors[0]
        return {"error": f"Boolean expression not read: {first.reason}", "line": first.line}
    exact_transforms()
    with _styled(style):
        drawings = [(output.name, _marked(output.gate, output.name))
                    for output in parsed.diagram.outputs]
    svg = ET.tostring(_stacked(drawings), encoding="utf-8")
    return {"svg": svg, "png": svg_to_png(svg, timeout=20.0, zoom=2.0)}


@contextmanager
def _styled(style: str) -> Iterator[None]:
    """schemdraw's global style settings with those of `style` ("" : unchanged), restored
    after (a worker draws many sources)."""
    from schemdraw.schemdraw import schemdrawstyle

    saved = dict(schemdrawstyle)
    schemdrawstyle.update(SCHEMDRAW_STYLES[style] if style else {})
    try:
        yield
    finally:
        schemdrawstyle.clear()
        schemdrawstyle.update(saved)


def exact_transforms() -> None:
    """Have schemdraw place a point (`Transform.transform`, called for every point of
    every element twice: for the drawing's box, then to draw it) by its own arithmetic,
    operation for operation (the same floats, so the same drawing), without the `Point`s
    made at each step, the sums over zipped rows and the rotation's cosine and sine
    computed again for each point; a transform whose shifts or zoom are not `Point`s (not
    what schemdraw makes) as before. Installed once per process; for the drawer, in a
    worker."""
    import math

    from schemdraw.transform import Transform
    from schemdraw.util import Point

    kind: Any = Transform
    if getattr(kind, "_diagbench_exact", False):
        return
    general = kind.transform
    turns: dict[float, tuple[float, float]] = {}

    def transform(self: Any, pt: Any) -> Any:
        shift, local, zoom = self.shift, self.localshift, self.zoom
        if not type(shift) is type(local) is type(zoom) is Point:
            return general(self, pt)
        turn = turns.get(self.theta)
        if turn is None:
            radians = math.radians(self.theta)
            turn = turns[self.theta] = (math.cos(radians), math.sin(radians))
        co, so = turn
        # schemdraw: ((pt + local) * zoom).rotate(theta) + shift, rotating about (0, 0)
        # by dot((x - 0, y - 0), ((co, so), (-so, co))) + (0, 0), each dot a sum from 0
        x, y = zoom[0] * (pt[0] + local[0]), zoom[1] * (pt[1] + local[1])
        return Point((0 + x * co + y * -so + 0 + shift[0], 0 + x * so + y * co + 0 + shift[1]))

    kind.transform = transform
    kind._diagbench_exact = True


def logic_tree(node: Node) -> Any:
    """schemdraw's `LogicTree` of a gate tree (its parser's of the same expression)."""
    from schemdraw.parsing.logic_parser import LogicTree

    if isinstance(node, Input):
        return LogicTree(node.name)
    return LogicTree(node.type, *(logic_tree(child) for child in node.inputs))


def _marked(gate: Node, name: str) -> ET.Element:
    """schemdraw's drawing of the tree of `gate` as an SVG tree, each element in a marked
    group (see the module)."""
    import schemdraw
    from schemdraw.backends.svg import Figure
    from schemdraw.parsing.logic_parser import drawlogic

    schemdraw.svgconfig.text = "text"
    drawing = drawlogic(logic_tree(gate), gateH=GATE_HEIGHT, gateW=GATE_WIDTH,
                        outlabel=name or None)
    figure = Figure(bbox=drawing.get_bbox(),
                    inches_per_unit=drawing.dwgparams.get("inches_per_unit"),
                    margin=MARGIN)
    for element in drawing.elements:
        start = len(figure.svgelements)
        element._draw(figure)  # what Drawing.draw does, one element at a time
        drawn = sorted(figure.svgelements[start:], key=lambda item: item[0])
        del figure.svgelements[start:]
        group = ET.Element("g", _marker(element))
        group.extend(e for _, e in drawn)
        figure.svgelements.append((min((z for z, _ in drawn), default=0), group))
    return figure.getsvg()


def _marker(element: Any) -> dict[str, str]:
    """The attributes of an element's group: its gate type and column, or a wire."""
    kind = type(element).__name__
    params = element.params
    if kind == "And":
        gate = "nand" if params.get("nand") else "and"
    elif kind == "Or":
        gate = {(False, False): "or", (True, False): "nor", (False, True): "xor",
                (True, True): "xnor"}[(bool(params.get("nor")), bool(params.get("xor")))]
    elif kind == "Not":
        gate = "not"
    else:
        return {"class": "wire"}
    level = round(-element.absanchors["end"][0] / GATE_WIDTH)
    return {"class": f"gate {gate}", "data-level": str(level)}


def _stacked(drawings: list[tuple[str, ET.Element]]) -> ET.Element:
    """One SVG of the outputs' drawings, top to bottom."""
    width = max(_points(svg.get("width")) for _, svg in drawings)
    height = sum(_points(svg.get("height")) for _, svg in drawings) + GAP * (len(drawings) - 1)
    root = ET.Element(f"{_SVG}svg", {"width": f"{width:.2f}pt", "height": f"{height:.2f}pt",
                                      "viewBox": f"0 0 {width:.2f} {height:.2f}",
                                      "class": "logic"})
    top = 0.0
    for name, svg in drawings:
        inner_height = _points(svg.get("height"))
        svg.set("x", "0")
        svg.set("y", f"{top:.2f}")
        svg.set("width", f"{_points(svg.get('width')):.2f}")
        svg.set("height", f"{inner_height:.2f}")
        svg.set("class", "output")
        svg.set("data-name", name)
        svg.tag = f"{_SVG}svg"
        root.append(svg)
        top += inner_height + GAP
    return root


def _points(length: str | None) -> float:
    return float((length or "0").removesuffix("pt"))


def logic_statistics(svg: str) -> dict[str, Any]:
    """What a schematic shows, read back from its SVG (keyed as `Circuit.counts()`):
    outputs (the output drawings), their gates by type (the marked groups), the depth
    (the most columns of gates of an output), the input terminals (the labels that are
    not an output's name), the distinct variables among them (the constants left out),
    and the inputs' and outputs' names."""
    root = ET.fromstring(svg)
    types: Counter[str] = Counter()
    labels: list[str] = []
    names: list[str] = []
    depth = 0
    for output in root.iter(f"{_SVG}svg"):
        if output.get("class") != "output":
            continue
        name = output.get("data-name", "")
        names.append(name)
        levels = []
        for group in output.iter(f"{_SVG}g"):
            words = (group.get("class") or "").split()
            if words[:1] == ["gate"] and len(words) == 2:
                types[words[1]] += 1
                levels.append(int(group.get("data-level", "0")))
        depth = max(depth, max(levels, default=-1) + 1)
        texts = ["".join(t.itertext()).strip() for t in output.iter(f"{_SVG}text")]
        labels += [t for t in texts if t != name or not name]
    variables = sorted({t for t in labels if t not in CONSTANTS})
    return {"outputs": len(names), "variables": len(variables), "inputs": len(labels),
            "gates": sum(types.values()), "depth": depth,
            **{f"{t}_gates": types[t] for t in GATE_TYPES},
            "names": variables, "output_names": names}


class SchemdrawLogicEngine(DrawingEngine):
    """Draw Boolean expressions with schemdraw's `logicparse`, `jobs` worker processes
    at a time (PNG by rsvg-convert from the same SVG)."""

    name = "schemdraw-logic"
    drawer = "diagbench.languages.logic.engine:draw_logic"
    preload = ("schemdraw", "schemdraw.parsing", "schemdraw.logic")

    def version(self) -> str:
        from diagbench.render.programs import rsvg_version

        return f"{self.versions('schemdraw')} + rsvg-convert {rsvg_version()}"
