"""Equivalence of two small designs, proved by Yosys (`equiv_make`, `equiv_simple`,
`equiv_induct`, `equiv_status -assert`), for the similarity: a prediction drawn
another way (`b & a` for `a & b`, `~(~a | ~b)`) that computes the same is the design.

Asked only of two designs of one module each, of one name, with the same ports (name,
direction, width), at most `MAX_CELLS` cells each, all of Yosys's own types (`$…`: no
submodule, no black box). Both netlists go to Yosys as JSON written from the reader's
models (`read_json`: no source is read again), in a folder holding nothing else,
under `yosys.run_yosys`'s time-out and memory limit. Equivalent means Yosys proved
every output and register equal (`Equivalence successfully proven`); a failure, a
time-out or a netlist Yosys cannot read back is "not proved".
"""

from __future__ import annotations

import json
import subprocess
from typing import Any

from diagbench.languages.verilog.model import Design, Module
from diagbench.languages.verilog.yosys import run_yosys

#: The most cells a design may have for its equivalence to be asked.
MAX_CELLS = 200
#: Seconds the proof may take.
TIMEOUT = 10.0
_SCRIPT = ("read_json gold.json; design -stash gold; read_json gate.json; design -stash gate; "
           "design -copy-from gold -as gold m; design -copy-from gate -as gate m; "
           "equiv_make gold gate equiv; hierarchy -top equiv; equiv_simple -seq 5; "
           "equiv_induct -seq 5; tee -q -o status.txt equiv_status -assert")


def netlist_json(module: Module) -> str:
    """Yosys's JSON of one module, named `m`, from the reader's model."""
    body: dict[str, Any] = {
        "ports": {p.name: {"direction": p.direction, "bits": list(p.bits)}
                  for p in module.ports},
        "cells": {c.name: {"hide_name": int(c.name.startswith("$")), "type": c.type,
                           "parameters": dict(c.parameters), "attributes": {},
                           "port_directions": {p.name: p.direction for p in c.pins},
                           "connections": {p.name: list(p.bits) for p in c.pins}}
                  for c in module.cells},
        "netnames": {n.name: {"hide_name": int(n.hidden), "bits": list(n.bits),
                              "attributes": {}} for n in module.nets}}
    return json.dumps({"modules": {"m": body}})


def _askable(design: Design) -> Module | None:
    if len(design.modules) != 1:
        return None
    [module] = design.modules
    small = len(module.cells) <= MAX_CELLS
    return module if small and all(c.type.startswith("$") for c in module.cells) else None


def proved_equivalent(gold: Design, pred: Design) -> bool:
    """Whether Yosys proves the two designs equivalent (see the module's docstring)."""
    a, b = _askable(gold), _askable(pred)
    if a is None or b is None or a.name != b.name:
        return False
    if {(p.name, p.direction, p.width) for p in a.ports} != \
            {(p.name, p.direction, p.width) for p in b.ports}:
        return False
    try:
        done, written = run_yosys({"gold.json": netlist_json(a),
                                   "gate.json": netlist_json(b)}, _SCRIPT, ("status.txt",),
                                  TIMEOUT)
    except subprocess.TimeoutExpired:
        return False
    said = written.get("status.txt", b"").decode("utf-8", "replace")
    return done.returncode == 0 and "Equivalence successfully proven" in said
