"""The `netlistsvg` engine: a Verilog design read by Yosys (the reader's model, `read`)
drawn by netlistsvg (npm, MIT; its default digital skin, laid out by ELK) in one warm
Node process (`render.process.WarmProcess`: an empty jail that is its home, a minimal
environment, a bounded heap, a time-out on every answer), PNG from the SVG by
rsvg-convert.

What is drawn: each module of the design, one under another, each under a title
`module NAME` (`<g class="verilog-module" data-module="NAME">`). netlistsvg draws one
module's ports and cells as Yosys's JSON gives them; the engine gives it the reader's
model (ports, and each cell's type, pin directions and connections: no attributes, so
nothing in the source steers the layout), each port named with its range when wider
than a bit (`a[3:0]`), so that widths show. netlistsvg adds its own constant drivers,
bus splits and joins; they are not cells. A source the reader refuses is not drawn
(its first error is the render's error, with its line); a design over `MAX_DRAWN`
cells is refused as too large to lay out.

What the drawing shows (`netlist_statistics`): every netlistsvg node is a
`<g s:type="TEMPLATE" id="cell_NAME">` — `inputExt` an input port, `outputExt` an
output or inout port, `constant`, `split` and `join` netlistsvg's own, any other a
cell (its template: `and`, `mux`, `dff`, …, or `generic` for a type the skin has no
symbol for, a submodule's instance among them).
"""

from __future__ import annotations

import atexit
import hashlib
import json
import re
import shutil
import threading
import time
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

from diagbench.languages.spice.engine import INTERRUPT_BUDGET
from diagbench.languages.spice.styles import STYLES, styled_schematic
from diagbench.languages.styled import opened
from diagbench.languages.verilog.model import Design, Module
from diagbench.languages.verilog.read import read_verilog
from diagbench.languages.verilog.yosys import versions
from diagbench.render.process import ProcessDied, ProcessTimeout, WarmProcess
from diagbench.render.programs import rsvg_version, svg_to_png
from diagbench.render.result import EngineMissing, RenderResult, finish, refusal

TOOL = Path(__file__).resolve().parents[4] / "tools" / "netlistsvg" / "node_modules" / "netlistsvg"
SCRIPT = Path(__file__).with_name("netlistsvg.mjs")
#: The most cells the engine lays out in one design.
MAX_DRAWN = 1_500
#: Seconds the first drawing may take on top of the time-out (Node starting).
START_SECONDS = 30.0
#: Node's heap limit (MB).
MAX_HEAP_MB = 1024
#: V8's stack (KB): netlistsvg's bus splitting recurses once a bit, past Node's default
#: (984 KB) on buses of a few hundred bits; the system's stack is 8 MB.
STACK_KB = 6000
#: Designs one Node process draws before a fresh one takes over.
DRAWINGS_PER_PROCESS = 500
#: netlistsvg's node templates that are not cells.
PORT_TEMPLATES = {"inputExt", "outputExt"}
OWN_TEMPLATES = {"constant", "split", "join"}
TITLE = 24
_S = "{https://github.com/nturley/netlistsvg}"
_SVG = "{http://www.w3.org/2000/svg}"
_RANGE = re.compile(r"\[(-?\d+):(-?\d+)\]$")
_SIZE = re.compile(r'<svg[^>]*?\bwidth="([\d.]+)"[^>]*?\bheight="([\d.]+)"')


def drawable(module: Module) -> dict[str, Any]:
    """The Yosys JSON netlistsvg draws of one module (see the module's docstring)."""
    return {"ports": {p.label: {"direction": p.direction, "bits": list(p.bits)}
                      for p in module.ports},
            "cells": {c.name: {"type": c.type,
                               "port_directions": {p.name: p.direction for p in c.pins},
                               "connections": {p.name: list(p.bits) for p in c.pins}}
                      for c in module.cells}}


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") \
        .replace('"', "&quot;")


def compose(design: Design, svgs: list[str]) -> str:
    """One SVG of the modules' drawings, one under another, each under its title."""
    parts, y, width = [], 0.0, 200.0
    for module, svg in zip(design.modules, svgs, strict=True):
        size = _SIZE.search(svg)
        w, h = (float(size.group(1)), float(size.group(2))) if size else (0.0, 0.0)
        inner = svg[svg.index("<svg"):]
        name = _escape(module.name)
        parts.append(f'<g class="verilog-module" data-module="{name}" '
                     f'transform="translate(0,{y:g})"><text class="module-title" x="8" '
                     f'y="16" font-family="monospace" font-size="13" font-weight="bold" '
                     f'fill="#000">module {name}</text>'
                     f'<g transform="translate(0,{TITLE})">{inner}</g></g>')
        y += TITLE + h + 12
        width = max(width, w)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{y:g}" '
            f'viewBox="0 0 {width:g} {y:g}">'
            f'<rect width="{width:g}" height="{y:g}" fill="#fff"/>{"".join(parts)}</svg>\n')


def netlist_statistics(svg: str) -> dict[str, Any]:
    """What the drawing shows (see the module's docstring): modules, ports (inputs
    apart), the bits of the ports (from their labels' ranges), cells, and the cells by
    netlistsvg's template (`templates`) and by module (`module_cells`)."""
    root = ET.fromstring(svg)
    templates: Counter[str] = Counter()
    module_cells: dict[str, int] = {}
    modules = ports = inputs = port_bits = 0
    for group in root.iter(f"{_SVG}g"):
        if group.get("class") != "verilog-module":
            continue
        modules += 1
        cells = 0
        for node in group.iter(f"{_SVG}g"):
            template = node.get(f"{_S}type")
            if template is None or template in OWN_TEMPLATES:
                continue
            if template in PORT_TEMPLATES:
                ports += 1
                inputs += template == "inputExt"
                label = next((t.text or "" for t in node.iter(f"{_SVG}text")), "")
                found = _RANGE.search(label)
                port_bits += abs(int(found.group(1)) - int(found.group(2))) + 1 if found else 1
            else:
                cells += 1
                templates[template] += 1
        module_cells[group.get("data-module", "")] = cells
    return {"modules": modules, "ports": ports, "inputs": inputs, "port_bits": port_bits,
            "cells": sum(module_cells.values()), "templates": dict(sorted(templates.items())),
            "module_cells": module_cells}


class Netlistsvg:
    """netlistsvg in one warm Node process (thread-safe: one drawing at a time)."""

    def __init__(self) -> None:
        self.node = WarmProcess(["node", f"--max-old-space-size={MAX_HEAP_MB}",
                                 f"--stack-size={STACK_KB}",
                                 f"--interrupt-budget={INTERRUPT_BUDGET}", str(SCRIPT),
                                 str(TOOL)], stderr="keep", max_requests=DRAWINGS_PER_PROCESS)
        self.lock = threading.Lock()

    def close(self) -> None:
        """End the process, between two drawings (the next drawing starts it again)."""
        with self.lock:
            self.node.close()

    def draw(self, design: Design, timeout: float) -> list[str]:
        """netlistsvg's SVG of each module; ValueError with its message when it fails,
        `ProcessTimeout` past `timeout`."""
        request = {"modules": [[m.name, drawable(m)] for m in design.modules]}
        with self.lock:
            started = self.node.ensure()
            wait = timeout + (START_SECONDS if started else 0.0)
            try:
                self.node.send(json.dumps(request).encode("utf-8") + b"\n", wait)
                answer = json.loads(self.node.read_line(wait))
            except ProcessDied as exc:
                said = (self.node.stderr_tail().strip().splitlines() or [""])[-1][:200]
                raise ValueError(f"netlistsvg: {exc} {said}".strip()) from None
        if "error" in answer:
            raise ValueError(f"netlistsvg: {answer['error']}")
        svgs = answer["svgs"]
        if not all(isinstance(s, str) for s in svgs):
            raise ValueError("netlistsvg: the layout failed")
        return svgs


@cache
def shared() -> Netlistsvg:
    """The netlistsvg process of this Python process (ended when it exits)."""
    drawer = Netlistsvg()
    atexit.register(drawer.node.close)
    return drawer


def draw_design(source: str, timeout: float) -> dict[str, Any]:
    """{"svg": bytes, "png": bytes} of a Verilog source (in the style its envelope names:
    `languages.spice.styles`), or {"error": …, "line": …}."""
    try:
        style, source = opened(source, STYLES)
    except ValueError as exc:
        return {"error": str(exc), "line": 1}
    [parsed] = read_verilog(source)
    if parsed.errors:
        first = parsed.errors[0]
        return {"error": first.reason, "line": first.line}
    design = parsed.diagram
    cells = sum(len(m.cells) for m in design.modules)
    if cells > MAX_DRAWN:
        return {"error": f"{cells:,} cells, over the {MAX_DRAWN:,} the engine lays out",
                "line": None, "too_large": True}
    try:
        svg = styled_schematic(compose(design, shared().draw(design, timeout)), style
                               ).encode("utf-8")
        ET.fromstring(svg)
    except ProcessTimeout:
        return {"error": f"netlistsvg timed out after {timeout:g} s", "line": None}
    except OSError as exc:  # Node missing or not started
        return {"error": f"netlistsvg: Node does not start: {exc}", "line": None}
    except (ValueError, ET.ParseError) as exc:
        # netlistsvg's bus splitting recurses past any stack on a design wide enough
        return {"error": str(exc), "line": None, "too_large": "call stack" in str(exc)}
    return {"svg": svg, "png": svg_to_png(svg, timeout)}


class NetlistsvgEngine:
    """Draw Verilog designs: Yosys reads, netlistsvg draws (see the module's docstring)."""

    name = "netlistsvg"

    def __init__(self, jobs: int = 2, timeout: float = 20.0) -> None:
        self.jobs = jobs
        self.timeout = timeout
        self._drawn: dict[str, dict[str, Any]] = {}  # by source: both images of one pass

    def version(self) -> str:
        """"netlistsvg 1.0.2 + Yosys 0.23 + Icarus Verilog 11.0 + rsvg-convert 2.54.7"."""
        package = TOOL / "package.json"
        if shutil.which("node") is None:
            raise EngineMissing("'node' not found: install Debian's nodejs "
                                "(bash scripts/setup.sh does it)")
        if not package.is_file():
            raise EngineMissing("netlistsvg is not installed in tools/netlistsvg: "
                                "bash scripts/setup.sh installs it")
        netlistsvg = json.loads(package.read_text(encoding="utf-8"))["version"]
        return f"netlistsvg {netlistsvg} + {versions()} + rsvg-convert {rsvg_version()}"

    def close(self) -> None:
        """End the netlistsvg process and forget the drawings kept of its last batches
        (the next drawing starts it again)."""
        self._drawn.clear()
        shared().close()

    def render(self, sources: list[str], out_dir: Path, fmt: str = "png",
               progress: Callable[[], None] = lambda: None) -> list[RenderResult]:
        """Each source read (Yosys) and rasterised (rsvg-convert) in `jobs` threads,
        drawn by the one netlistsvg process."""
        version = self.version()

        def one(k: int) -> RenderResult:
            result = RenderResult(k, self.name, version, error=refusal(sources[k]))
            if result.error is None:
                start = time.perf_counter()
                key = hashlib.sha256(sources[k].encode("utf-8")).hexdigest()
                drawn = self._drawn.get(key) or draw_design(sources[k], self.timeout)
                self._drawn[key] = drawn
                if "error" in drawn:
                    result.error, result.error_line = drawn["error"], drawn["line"]
                    result.too_large = bool(drawn.get("too_large"))
                else:
                    finish(result, drawn[fmt], fmt, out_dir / f"{k:06d}.{fmt}")
                    result.seconds = time.perf_counter() - start
            progress()
            return result

        with ThreadPoolExecutor(max_workers=max(1, self.jobs)) as pool:
            return list(pool.map(one, range(len(sources))))
