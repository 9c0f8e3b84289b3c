"""Verilog read by Yosys (`yosys.RECIPE`: `read_verilog; proc; opt`, then
`write_json`) into the design model (`model.Design`): one `Parsed` per source, kind
"hardware".

- A source that reads a file or pastes tokens (`yosys.unsafe`) is refused before Yosys
  sees it; so is one over `MAX_CHARS` characters;
- Yosys's errors (`design.v:LINE: ERROR: …`) are errors at their line, its warnings
  warnings; a time-out, a crash or its memory limit an error at line 1;
- a module marked `(* blackbox *)` (a cell defined elsewhere) is not part of the
  model, as `stat` leaves it out; an empty module is a module (`-noblackbox`);
- an instance of a module the source does not define is an error at its line (what
  Yosys's `hierarchy -check` says; the recipe keeps every module as written, so it
  does not run `hierarchy`, which would add a derived copy of each module per
  parameter set);
- a design over `MAX_CELLS` cells is an error (too large to draw or compare);
- Icarus Verilog's errors (`iverilog -t null`) are warnings (`yosys.icarus_opinion`).

Reads are cached by source text (the model is immutable).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.parsed import Parsed
from diagbench.languages.verilog.model import Bit, Cell, Design, Module, Net, Pin, Port
from diagbench.languages.verilog.yosys import icarus_opinion, read_netlist, unsafe

#: The largest source read (characters).
MAX_CHARS = 200_000
#: The most cells a design may have.
MAX_CELLS = 2_000
KIND = "hardware"


def read_verilog(text: str) -> list[Parsed[Design]]:
    """The design of a Verilog source; never raises."""
    return [_read(text.removeprefix("\ufeff"))]


@lru_cache(maxsize=512)
def _read(text: str) -> Parsed[Design]:
    lines = text.split("\n")
    if not text.strip():
        return _failed(Diagnostic(1, "", "empty source: no module"))
    if len(text) > MAX_CHARS:
        return _failed(Diagnostic(1, lines[0][:200], f"source is {len(text):,} characters, "
                                  f"over the {MAX_CHARS:,} diagbench reads"))
    refused = unsafe(lines)
    if refused is not None:
        return _failed(refused)
    if "\x00" in text:
        return _failed(Diagnostic(1, "", "binary data (a NUL character) is not Verilog"))
    run = read_netlist(text)
    if run.netlist is None:
        return _failed(*run.diagnostics)
    design = design_of(run.netlist)
    found = list(run.diagnostics)
    if not design.modules:
        found.insert(0, Diagnostic(1, lines[0], "no module"))
    found[:0] = _undefined(design, lines)
    cells = sum(len(m.cells) for m in design.modules)
    if cells > MAX_CELLS:
        found.insert(0, Diagnostic(1, lines[0], f"{cells:,} cells, over the {MAX_CELLS:,} "
                                   "diagbench draws and compares"))
    if not any(d.severity == "error" for d in found):
        found += icarus_opinion(text)
    return Parsed(0, 1, "verilog", KIND, design, tuple(found))


def _failed(*diagnostics: Diagnostic) -> Parsed[Design]:
    return Parsed(0, 1, "verilog", KIND, Design(), tuple(diagnostics))


def _undefined(design: Design, lines: list[str]) -> list[Diagnostic]:
    """An error for each instance of a module the design does not define."""
    names = {m.name for m in design.modules} | set(design.blackboxes)
    found = []
    for module in design.modules:
        for cell in module.cells:
            if not cell.type.startswith("$") and cell.type not in names:
                line = max(1, cell.line)
                found.append(Diagnostic(line, lines[line - 1] if line <= len(lines) else "",
                                        f"module `{cell.type}' referenced in module "
                                        f"`{module.name}' in cell `{cell.name}' is not "
                                        "part of the design"))
    return found


def _bits(values: list[Any]) -> tuple[Bit, ...]:
    return tuple(v if isinstance(v, int) else str(v) for v in values)


def _line(attributes: dict[str, Any]) -> int:
    """The first line of a `src` attribute ("design.v:3.5-3.9|…"), 0 without one."""
    src = str(attributes.get("src", ""))
    head = src.split("|")[0].rpartition(":")[2].split(".")[0]
    return int(head) if head.isdigit() else 0


def design_of(netlist: dict[str, Any]) -> Design:
    """The design of Yosys's JSON netlist (`write_json`)."""
    modules, blackboxes = [], set()
    for name, module in netlist.get("modules", {}).items():
        if int(module.get("attributes", {}).get("blackbox", 0) or 0):
            blackboxes.add(name)
            continue
        nets = module.get("netnames", {})
        ports = tuple(Port(port, data["direction"], _bits(data["bits"]),
                           int(nets.get(port, {}).get("offset", 0)),
                           bool(nets.get(port, {}).get("upto", 0)))
                      for port, data in module.get("ports", {}).items())
        cells = []
        for cell_name, cell in module.get("cells", {}).items():
            directions = cell.get("port_directions", {})
            pins = tuple(Pin(pin, directions.get(pin, "input"), _bits(bits))
                         for pin, bits in cell.get("connections", {}).items())
            parameters = tuple(sorted(cell.get("parameters", {}).items()))
            cells.append(Cell(cell_name, cell["type"], pins, _line(cell.get("attributes", {})),
                              parameters))
        wires = tuple(Net(net, _bits(data["bits"]), bool(data.get("hide_name", 0)))
                      for net, data in nets.items())
        modules.append(Module(name, ports, tuple(cells), wires))
    return Design(tuple(modules), tuple(sorted(blackboxes)))
