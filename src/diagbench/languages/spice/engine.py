"""The `netlistsvg` engine: a SPICE netlist drawn as a schematic by netlistsvg's analog
skin (npm, MIT; pinned in tools/netlistsvg), rasterised to PNG by rsvg-convert.

As STRUDEL does (SPICE → Yosys-style JSON → netlistsvg), the reader's model becomes a
Yosys JSON module (`yosys_netlist`): one cell a top-level component, named by it and
labelled with its value — resistors, capacitors, inductors, sources, diodes and
three-terminal transistors (NPN or PNP by their model's type) as the skin's symbols,
MOSFETs, JFETs, four-terminal BJTs, controlled sources and subcircuit instances as its
generic box, titled with the component's name and model, gain or subcircuit and with
its pins named; one ground symbol for each pin on ground (no wire between them), and
one named net label (a module port) for every other node, so
that the drawing says which component joins which nodes. ELK lays it out (top to bottom).

netlistsvg runs in long-lived Node processes (`netlistsvg.cjs`, each a `WarmProcess`:
an empty jail folder, a minimal environment, a bounded heap, a time-out on every
answer), up to `PROCESSES` of them that every source of a batch shares (`POOL`: a
second only once the first has warmed up). A netlist the reader rejects is not drawn:
its first error (reason, line) is the render's error.
"""

from __future__ import annotations

import atexit
import json
import queue
import re
import shutil
import threading
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

from diagbench.languages.spice.model import GROUND, TYPES, Circuit, Component
from diagbench.languages.spice.read import read_spice
from diagbench.languages.spice.styles import STYLES, styled_schematic
from diagbench.languages.styled import opened
from diagbench.render.drawing import DrawingEngine
from diagbench.render.process import ProcessDied, ProcessTimeout, WarmProcess
from diagbench.render.programs import rsvg_version, svg_to_png
from diagbench.render.result import EngineMissing

TOOL = Path(__file__).resolve().parents[4] / "tools" / "netlistsvg" / "node_modules"
SCRIPT = Path(__file__).with_name("netlistsvg.cjs")
#: Seconds the first drawing may take on top: Node starting and loading netlistsvg.
START_TIMEOUT = 60.0
MAX_HEAP_MB = 1024
MAX_ANSWER_BYTES = 64_000_000
#: Components drawn at most (ELK's layout grows fast with the size).
MAX_DRAWN = 400
#: Warm netlistsvg processes at most (ELK's layout is CPU-bound: one a core).
PROCESSES = 2
#: Netlists the first process draws before a second may start: V8 warms netlistsvg up
#: over its first drawings (the first 48 bench netlists cost about twice the CPU of the
#: 48 after 300), a cost a second process pays back only over a long batch.
WARM_DRAWINGS = 96
#: V8's interrupt budget (bytes of bytecode run between checks of whether a function is
#: hot enough to optimise; V8's own is 66 KB): three times V8's has ELK's thousands of
#: functions optimised later and fewer of them, so Node warms up on less CPU (the first
#: 48 bench netlists after two: 79-87 -> 58-63 ms each, four runs alternated) and
#: reaches the same warm rate (about 27 ms a netlist after 300). Verilog's netlistsvg
#: runs with it too (its 48 bench designs after two: 70 -> 53 ms of CPU each).
INTERRUPT_BUDGET = 200_000

#: The skin's symbol of each two-terminal letter and its pins in SPICE's order.
_SYMBOLS = {"r": ("r_v", ("A", "B")), "c": ("c_v", ("A", "B")), "l": ("l_v", ("A", "B")),
            "v": ("v", ("+", "-")), "i": ("i", ("+", "-")), "d": ("d_v", ("+", "-"))}
#: The pin names of a generic box, by letter.
_PINS = {"m": ("d", "g", "s", "b"), "q": ("c", "b", "e", "s"), "j": ("d", "g", "s"),
         "e": ("+", "-", "c+", "c-"), "g": ("+", "-", "c+", "c-"), "f": ("+", "-"),
         "h": ("+", "-")}
#: The drawn symbol types (`s:type` in the SVG) and the count each adds to.
_DRAWN = {"resistor_v": "resistors", "capacitor_v": "capacitors",
          "inductor_v": "inductors", "voltage_source": "voltage_sources",
          "current_source": "current_sources", "diode_v": "diodes",
          "transistor_npn": "bjts", "transistor_pnp": "bjts"}
_S = "{https://github.com/nturley/netlistsvg}"
_SVG = "{http://www.w3.org/2000/svg}"


def _cell(c: Component, circuit: Circuit, bit: Callable[[str], int]) -> dict[str, Any]:
    """The Yosys JSON cell of one component."""
    if c.letter in _SYMBOLS or (c.letter == "q" and len(c.nodes) == 3):
        if c.letter == "q":
            kind = "q_pnp" if circuit.model_type(c.value) == "pnp" else "q_npn"
            pins: tuple[str, ...] = ("C", "B", "E")
        else:
            kind, pins = _SYMBOLS[c.letter]
        directions = dict(zip(pins, ("output", "input", "input"), strict=False))
        return {"type": kind, "port_directions": directions,
                "connections": {p: [bit(n)] for p, n in zip(pins, c.nodes, strict=True)},
                "attributes": {"ref": c.name.upper(), "value": c.value}}
    subckt = next((s for s in circuit.subcircuits if s.name == c.value), None)
    pins = subckt.ports if c.letter == "x" and subckt else _PINS.get(c.letter, ())
    pins = pins[:len(c.nodes)]
    return {"type": f"{c.name.upper()} {c.value}",
            "port_directions": {p: "input" if k % 2 else "output" for k, p in enumerate(pins)},
            "connections": {p: [bit(n)] for p, n in zip(pins, c.nodes, strict=True)},
            "attributes": {"ref": c.name.upper()}}


def yosys_netlist(circuit: Circuit) -> dict[str, Any]:
    """The Yosys-style JSON netlist netlistsvg draws (see the module): a net a node but
    ground, whose every pin gets a net and a ground symbol of its own (as schematics
    draw ground: no wire between the symbols)."""
    bits = {node: k + 2 for k, node in enumerate(n for n in circuit.nodes() if n != GROUND)}
    cells: dict[str, Any] = {}

    def bit(node: str) -> int:
        if node != GROUND:
            return bits[node]
        net = len(bits) + 2 + sum(name.startswith("$gnd") for name in cells)
        cells[f"$gnd{net}"] = {"type": "gnd", "port_directions": {"A": "input"},
                               "connections": {"A": [net]}, "attributes": {}}
        return net

    for c in circuit.components:
        cells[c.name.upper()] = _cell(c, circuit, bit)
    ports = {node: {"direction": "output", "bits": [net]} for node, net in bits.items()}
    return {"modules": {"circuit": {"ports": ports, "cells": cells}}}


def schematic_statistics(svg: str) -> dict[str, Any]:
    """What a schematic shows, read back from its SVG: components by the symbol drawn
    (a generic box by the letter of the name it is titled with: M a MOSFET, Q a BJT, E
    a voltage-controlled voltage source, X a subcircuit instance …), and nodes (the net
    labels, and ground when a ground symbol is drawn), keyed as `Circuit.counts()` keys
    them."""
    root = ET.fromstring(svg)
    counts = dict.fromkeys(("components", "nodes", *(key for _, key in TYPES.values())), 0)
    labels: set[str] = set()
    ground = False
    for group in root.iter(f"{_SVG}g"):
        kind = group.get(f"{_S}type") or ""
        key = _DRAWN.get(kind)
        if kind == "generic":
            title = next((t.text or "" for t in group.iter(f"{_SVG}text")), "")
            key = TYPES.get(title[:1].lower(), ("", ""))[1] or None
        elif kind == "gnd":
            ground = True
        elif kind in ("outputExt", "inputExt"):
            labels.add(next((t.text or "" for t in group.iter(f"{_SVG}text")), ""))
        if key:
            counts[key] += 1
            counts["components"] += 1
    counts["nodes"] = len(labels) + ground
    return counts


class NetlistSvg:
    """One warm netlistsvg process, drawing one netlist at a time (thread-safe)."""

    def __init__(self) -> None:
        self._node = WarmProcess(["node", f"--max-old-space-size={MAX_HEAP_MB}",
                                  f"--interrupt-budget={INTERRUPT_BUDGET}",
                                  str(SCRIPT), str(TOOL)])
        self._lock = threading.Lock()
        self._sequence = 0

    @property
    def drawn(self) -> int:
        """Netlists given to the running Node process (none when none runs)."""
        return self._node.requests if self._node.running else 0

    def draw(self, netlist: dict[str, Any], timeout: float) -> str:
        """The SVG netlistsvg draws; ValueError with its message when it draws none."""
        if shutil.which("node") is None or not (TOOL / "netlistsvg").is_dir():
            raise EngineMissing("the SPICE engine needs node and tools/netlistsvg: "
                                "bash scripts/setup.sh installs them")
        with self._lock:
            self._sequence += 1
            ident = str(self._sequence)
            request = json.dumps({"id": ident, "netlist": netlist}).encode("utf-8") + b"\n"
            try:
                extra = START_TIMEOUT if self._node.ensure() else 0.0
                self._node.send(request, timeout + extra)
                answer = json.loads(self._node.read_line(timeout + extra, MAX_ANSWER_BYTES))
            except ProcessTimeout:
                raise ValueError(f"netlistsvg took longer than {timeout:g} s: stopped") from None
            except (ProcessDied, OSError, ValueError):
                self._node.close()
                raise ValueError("netlistsvg's process stopped while drawing") from None
            if answer.get("id") != ident:
                self._node.close()
                raise ValueError("netlistsvg's answer out of step")
        if "svg" not in answer:
            raise ValueError(f"netlistsvg: {answer.get('error', 'no drawing')}")
        return str(answer["svg"])

    def close(self) -> None:
        """End the process between two drawings (the next drawing starts it again)."""
        with self._lock:
            self._node.close()


class Pool:
    """Up to `size` warm netlistsvg processes, each started when needed and stopped at
    exit. A drawing takes the process freed last, so that one drawing thread keeps one
    Node process warm; when all are busy, a further one starts only once the first has
    drawn `warm` netlists (`WARM_DRAWINGS`): until then drawings wait for the one warming
    up (a cold process draws a netlist 2-3 times slower than a warm one, so a second
    process warming up beside it costs more than it saves on a short batch)."""

    def __init__(self, size: int, warm: int = WARM_DRAWINGS) -> None:
        self._size, self._warm = size, warm
        self._free: queue.LifoQueue[NetlistSvg] = queue.LifoQueue()
        self._lock = threading.Lock()
        self._made: list[NetlistSvg] = []

    def _take(self) -> NetlistSvg:
        """A free process, a new one (see the class), or the next one freed."""
        with self._lock:
            try:
                return self._free.get_nowait()
            except queue.Empty:
                pass
            if not self._made or (len(self._made) < self._size
                                  and self._made[0].drawn >= self._warm):
                process = NetlistSvg()
                atexit.register(process.close)
                self._made.append(process)
                return process
        return self._free.get()

    def draw(self, netlist: dict[str, Any], timeout: float) -> str:
        process = self._take()
        try:
            return process.draw(netlist, timeout)
        finally:
            self._free.put(process)

    def close(self) -> None:
        """End the processes (the next drawing starts one again)."""
        for process in self._made:
            process.close()


#: The warm netlistsvg processes of this Python process.
POOL = Pool(PROCESSES)


def draw_schematic(source: str, timeout: float) -> dict[str, Any]:
    """{"svg": bytes, "png": bytes} of the netlist of `source` (in the style its envelope
    names: `styles`), or {"error": the reader's first error, "line": its line}."""
    style, source = opened(source, STYLES)
    [parsed] = read_spice(source)
    if parsed.errors:
        first = parsed.errors[0]
        return {"error": f"SPICE netlist not read: {first.reason}", "line": first.line}
    circuit = parsed.diagram
    if not circuit.components:
        return {"error": "SPICE netlist without components: nothing to draw", "line": None}
    if len(circuit.components) > MAX_DRAWN:
        return {"error": f"{len(circuit.components):,} components: over the "
                f"{MAX_DRAWN}-component drawing limit", "line": None, "too_large": True}
    svg = POOL.draw(yosys_netlist(circuit), timeout)
    svg = styled_schematic(re.sub(r"^<\?xml[^>]*>\s*", "", svg), style)
    data = svg.encode("utf-8")
    return {"svg": data, "png": svg_to_png(data, timeout)}


class SchematicEngine(DrawingEngine):
    """Draw SPICE netlists by netlistsvg's analog skin (SVG) and rsvg-convert (PNG)."""

    name = "netlistsvg-analog"
    drawer = "diagbench.languages.spice.engine:draw_schematic"
    programs = True

    def version(self) -> str:
        package = TOOL / "netlistsvg" / "package.json"
        if shutil.which("node") is None or not package.is_file():
            raise EngineMissing("the SPICE engine needs node and tools/netlistsvg: "
                                "bash scripts/setup.sh installs them")
        version = json.loads(package.read_text(encoding="utf-8"))["version"]
        return f"netlistsvg {version} (analog skin) + rsvg-convert {rsvg_version()}"

    def close(self) -> None:
        """End the netlistsvg processes too (the next drawing starts one again)."""
        super().close()
        POOL.close()
