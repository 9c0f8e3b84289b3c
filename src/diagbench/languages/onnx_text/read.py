"""ONNX's text syntax read by ONNX itself: `onnx.parser.parse_model`, then
`onnx.checker.check_model` (full check, which runs strict shape inference), then
`onnx.shape_inference.infer_shapes` for the tensors' shapes, into a `NeuralGraph`.

The text syntax reads nothing but the text (no include, no external data). Models
with more than `MAX_OPS` ops are refused before the checker runs.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.parsed import Parsed
from diagbench.languages.onnx_text.model import NeuralGraph, Op, Tensor

if TYPE_CHECKING:
    from onnx import ModelProto, ValueInfoProto

#: Larger graphs are refused (a drawing of them would be unreadable).
MAX_OPS = 2_000
_PARSE_AT = re.compile(r"\(line: (\d+) column: (\d+)\)")
#: What a checker's message names: an op type, or a tensor in quotes.
_NAMED = re.compile(r"(?:OpType: |op_type:)(\w+)|'([^'\s]+)'")


class Refused(ValueError):
    """A text ONNX does not read or check, with its line and column when known."""

    def __init__(self, reason: str, line: int = 0, column: int = 0) -> None:
        super().__init__(reason)
        self.line, self.column = line, column


def _checker_line(text: str, message: str) -> int:
    """The first line of the graph's body that names what the checker's message names."""
    names = [a or b for a, b in _NAMED.findall(message)]
    lines = text.splitlines()
    body = next((k for k, line in enumerate(lines) if "{" in line), 0)
    for name in names:
        word = re.compile(rf"(?<![\w.]){re.escape(name)}(?![\w.])")
        for k in range(body, len(lines)):
            if word.search(lines[k]):
                return k + 1
    return 0


def checked_model(text: str) -> ModelProto:
    """The checked, shape-inferred ModelProto of an ONNX text (`Refused` with ONNX's own
    error and where it is)."""
    import onnx
    import onnx.checker
    import onnx.parser
    import onnx.shape_inference

    try:
        model = onnx.parser.parse_model(text)
    except onnx.parser.ParseError as exc:
        message = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(
            exc.args[0], bytes) else str(exc)
        where = _PARSE_AT.search(message)
        reason = message.strip().splitlines()[-1] if message.strip() else "parse error"
        raise Refused(f"ONNX parser: {reason}", *(int(g) for g in where.groups())
                      if where else ()) from None
    if len(model.graph.node) > MAX_OPS:
        raise Refused(f"{len(model.graph.node):,} ops, over the limit of {MAX_OPS:,}")
    try:
        onnx.checker.check_model(model, full_check=True)
        return onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True)
    except (onnx.checker.ValidationError, onnx.shape_inference.InferenceError) as exc:
        message = " ".join(str(exc).split())
        raise Refused(f"ONNX checker: {message}", _checker_line(text, str(exc))) from None


def _tensor(info: ValueInfoProto) -> Tensor:
    from onnx import TensorProto

    tensor = info.type.tensor_type
    dtype = TensorProto.DataType.Name(tensor.elem_type).lower() if tensor.elem_type else ""
    shape = tuple(d.dim_value if d.HasField("dim_value") else d.dim_param or "?"
                  for d in tensor.shape.dim)
    return Tensor(info.name, dtype, shape)


def _value(attribute: Any) -> str:
    """An attribute's value as compared and drawn (floats to 6 significant digits)."""
    from onnx import helper

    value = helper.get_attribute_value(attribute)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, list):
        return "[" + ",".join(f"{v:.6g}" if isinstance(v, float) else str(v)
                              for v in value) + "]"
    return str(value) if isinstance(value, int | str) else f"<{type(value).__name__}>"


def model(proto: ModelProto) -> NeuralGraph:
    """The `NeuralGraph` of a checked ModelProto."""
    from onnx import TensorProto

    graph = proto.graph
    weights = {t.name for t in graph.initializer}
    initializers = tuple(Tensor(t.name, TensorProto.DataType.Name(t.data_type).lower(),
                                tuple(t.dims)) for t in graph.initializer)
    ops = tuple(Op(n.op_type, tuple(n.input), tuple(n.output),
                   tuple(sorted((a.name, _value(a)) for a in n.attribute)), n.domain, n.name)
                for n in graph.node)
    return NeuralGraph(graph.name, ops,
                       tuple(_tensor(i) for i in graph.input if i.name not in weights),
                       tuple(_tensor(o) for o in graph.output), initializers,
                       tuple(_tensor(v) for v in graph.value_info))


def read_onnx_text(text: str) -> list[Parsed[NeuralGraph]]:
    """The one graph of an ONNX text model; never raises (ONNX's error becomes a
    diagnostic with its line and, from the parser, its column)."""
    text = text.removeprefix("\ufeff")
    try:
        diagram = model(checked_model(text))
    except Refused as exc:
        lines = text.splitlines()
        shown = lines[exc.line - 1] if 0 < exc.line <= len(lines) else ""
        return [Parsed(0, 1, "onnx", "network", NeuralGraph(),
                       (Diagnostic(max(exc.line, 1), shown, str(exc), column=exc.column),))]
    diagnostics = () if diagram.ops else (Diagnostic(1, "", "the graph has no ops", "warning"),)
    return [Parsed(0, 1, "onnx", "network", diagram, diagnostics)]
