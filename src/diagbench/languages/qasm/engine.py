"""OpenQASM 2 circuits drawn by Qiskit's circuit drawer (`QuantumCircuit.draw("mpl")`,
on matplotlib, Agg), PNG and SVG from one drawing, in worker processes
(`render.drawing`: time-out, memory limit).

Valid means the reader reads the source (`read.load`: diagbench's limits, then
Qiskit); its error is the engine's error. The drawing is Qiskit's default one
(wires folded every 25 columns, barriers drawn), each classical bit on its own wire
(`cregbundle=False`), idle wires kept. Circuits over `MAX_DRAWN_OPERATIONS` operations
or `MAX_DRAWN_WIRES` wires are refused as too large to draw (the drawer slows to
minutes on them). A source in an envelope (`languages.styled`) is drawn in its
style, one of the drawer's own (`draw(style=…)`). The drawer's labels are math text,
parsed once per worker, not once per renderer (`render.drawing.parse_math_once`).

Marks for the drawn statistics: in the worker, the drawer's methods that draw one
operation (`_gate`, `_measure`, `_barrier`, `_control_gate`, `_multiqubit_gate`,
`_flow_op_gate`) give every matplotlib artist they add the id
`qasm.op.<k>.<name>.<qubits>` (k counts the operations drawn, `qubits` the qubit
wires the operation spans; an operation drawn inside another's method is marked by
the outer one), and the wire labels it writes `qasm.qubit.<i>` or `qasm.clbit.<i>`;
matplotlib writes each as the `id` of the artist's `<g>`. `circuit_statistics` counts
them: an operation is drawn when some artist carries its mark.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from typing import Any

from diagbench.languages.qasm.styles import STYLES
from diagbench.languages.styled import opened
from diagbench.render.drawing import DrawingEngine, images, parse_math_once

MAX_DRAWN_OPERATIONS = 300
MAX_DRAWN_WIRES = 48
_SVG = "{http://www.w3.org/2000/svg}"
_OP_METHODS = ("_gate", "_measure", "_barrier", "_control_gate", "_multiqubit_gate",
               "_flow_op_gate")


def draw_circuit(source: str) -> dict[str, Any]:
    """{"svg": bytes, "png": bytes} of a circuit (runs in a worker), or {"error": the
    reader's or Qiskit's message, "line": its line}."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from diagbench.languages.qasm.read import QasmError, load

    style, source = opened(source, STYLES)
    try:
        circuit, _ = load(source)
    except QasmError as exc:
        return {"error": f"column {exc.diagnostic.column}: {exc.diagnostic.reason}",
                "line": exc.diagnostic.line}
    operations = len(circuit.data)
    wires = circuit.num_qubits + circuit.num_clbits
    if operations > MAX_DRAWN_OPERATIONS or wires > MAX_DRAWN_WIRES:
        return {"error": f"{operations:,} operations on {wires:,} wires, over the drawing "
                f"limit ({MAX_DRAWN_OPERATIONS:,} operations, {MAX_DRAWN_WIRES} wires)",
                "line": None, "too_large": True}
    _mark_drawer()
    matplotlib.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "diagbench"})
    parse_math_once()
    fig = circuit.draw("mpl", cregbundle=False, idle_wires=True, style=style or None)
    try:
        return images(fig)
    finally:
        plt.close(fig)


def _mark_drawer() -> None:
    """Give the artists of each operation and wire label their marks (see the module);
    once per worker."""
    from qiskit.visualization.circuit.matplotlib import (  # type: ignore[import-untyped]
        MatplotlibDrawer,
    )

    if getattr(MatplotlibDrawer, "_diagbench_marks", False):
        return
    for method in _OP_METHODS:
        setattr(MatplotlibDrawer, method, _marking(getattr(MatplotlibDrawer, method)))
    MatplotlibDrawer._draw_regs_wires = _marking_wires(MatplotlibDrawer._draw_regs_wires)
    MatplotlibDrawer._diagbench_marks = True


def _marking(draw: Callable[..., Any]) -> Callable[..., Any]:
    def marked(self: Any, node: Any, *args: Any, **kwargs: Any) -> Any:
        if getattr(self, "_diagbench_inside", False):
            return draw(self, node, *args, **kwargs)
        before = len(self._ax._children)
        self._diagbench_inside = True
        try:
            result = draw(self, node, *args, **kwargs)
        finally:
            self._diagbench_inside = False
        self._diagbench_count = getattr(self, "_diagbench_count", 0) + 1
        mark = f"qasm.op.{self._diagbench_count}.{node.op.name}.{len(node.qargs)}"
        for artist in self._ax._children[before:]:
            artist.set_gid(mark)
        return result
    return marked


def _marking_wires(draw: Callable[..., Any]) -> Callable[..., Any]:
    def marked(self: Any, num_folds: Any, xmax: Any, max_x_index: Any, qubits_dict: Any,
               clbits_dict: Any, glob_data: Any) -> Any:
        before = len(self._ax._children)
        result = draw(self, num_folds, xmax, max_x_index, qubits_dict, clbits_dict,
                      glob_data)
        labels = {q["wire_label"]: f"qasm.qubit.{k}" for k, q in
                  enumerate(qubits_dict.values())}
        labels |= {c["wire_label"]: f"qasm.clbit.{k}" for k, c in
                   enumerate(clbits_dict.values())}
        for artist in self._ax._children[before:]:
            text = artist.get_text() if hasattr(artist, "get_text") else None
            if text in labels:
                artist.set_gid(labels[text])
        return result
    return marked


class QiskitEngine(DrawingEngine):
    """Render OpenQASM 2 with Qiskit's matplotlib circuit drawer in worker processes."""

    name = "qiskit"
    drawer = "diagbench.languages.qasm.engine:draw_circuit"
    preload = ("matplotlib.pyplot", "qiskit.qasm2", "qiskit.visualization.circuit.matplotlib",
               "pylatexenc")

    def version(self) -> str:
        return self.versions("qiskit", "matplotlib")


def circuit_statistics(svg: str) -> dict[str, Any]:
    """What the drawer drew (keys of `Circuit.counts()`, see the module): qubits and
    classical bits (distinct wire labels), gates, two-qubit gates, measurements,
    barriers, resets and conditionals (distinct operation marks), and the gates by
    name (`gate_names`)."""
    try:
        root = ET.fromstring(svg.encode("utf-8"))
    except ET.ParseError:
        root = ET.Element("svg")
    qubits, clbits = set(), set()
    operations: dict[str, tuple[str, int]] = {}
    for group in root.iter(f"{_SVG}g"):
        parts = group.get("id", "").split(".")
        if parts[0] != "qasm" or len(parts) < 3:
            continue
        if parts[1] == "qubit":
            qubits.add(parts[2])
        elif parts[1] == "clbit":
            clbits.add(parts[2])
        elif parts[1] == "op" and len(parts) == 5:
            operations[parts[2]] = (parts[3], int(parts[4]))
    names = Counter(name for name, _ in operations.values())
    gates = {k: (name, span) for k, (name, span) in operations.items()
             if name not in ("measure", "reset", "barrier", "if_else")}
    return {"qubits": len(qubits), "clbits": len(clbits), "gates": len(gates),
            "two_qubit_gates": sum(1 for _, span in gates.values() if span == 2),
            "measurements": names["measure"], "barriers": names["barrier"],
            "resets": names["reset"], "conditionals": names["if_else"],
            "gate_names": dict(sorted(Counter(n for n, _ in gates.values()).items()))}
