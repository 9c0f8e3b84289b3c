"""The model of a Verilog design as Yosys reads it (`read_verilog; proc; opt`): its
modules, each with its ports (name, direction, width), its cells (type, and which
signal bits each of its pins joins) and its nets (Yosys's wires).

A signal bit is Yosys's: a whole number (one bit of a net) or a constant
("0", "1", "x", "z").
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

Bit = int | str


@dataclass(frozen=True, slots=True)
class Port:
    """A module's port: `direction` "input", "output" or "inout"; its bits, the
    first the least significant; `offset` and `upto` as declared (`[7:4]`: offset 4;
    `[0:3]`: upto)."""

    name: str
    direction: str
    bits: tuple[Bit, ...]
    offset: int = 0
    upto: bool = False

    @property
    def width(self) -> int:
        return len(self.bits)

    @property
    def label(self) -> str:
        """Its name with its range when wider than a bit ("a[3:0]"), as drawn."""
        if self.width == 1:
            return self.name
        low, high = self.offset, self.offset + self.width - 1
        return f"{self.name}[{low}:{high}]" if self.upto else f"{self.name}[{high}:{low}]"


@dataclass(frozen=True, slots=True)
class Pin:
    """One pin of a cell: its name ("A", "Y", a submodule's port), its direction
    ("input", "output", "inout") and the signal bits it joins."""

    name: str
    direction: str
    bits: tuple[Bit, ...]


@dataclass(frozen=True, slots=True)
class Cell:
    """A cell: its name (Yosys's `$and$design.v:3$1` for one it named), its type
    (`$and`, `$dff`, a submodule's name), its pins, its first source line (0:
    unknown) and its parameters as Yosys's JSON writes them (widths, polarities)."""

    name: str
    type: str
    pins: tuple[Pin, ...]
    line: int = 0
    parameters: tuple[tuple[str, str | int], ...] = ()

    def bits(self, direction: str) -> list[Bit]:
        return [b for pin in self.pins if pin.direction == direction for b in pin.bits]


@dataclass(frozen=True, slots=True)
class Net:
    """A wire of a module: its name, its bits, and whether Yosys made it (`$…`)."""

    name: str
    bits: tuple[Bit, ...]
    hidden: bool = False


@dataclass(frozen=True, slots=True)
class Module:
    """One module: its name, ports, cells and nets in Yosys's order."""

    name: str
    ports: tuple[Port, ...] = ()
    cells: tuple[Cell, ...] = ()
    nets: tuple[Net, ...] = ()

    def port(self, name: str) -> Port | None:
        return next((p for p in self.ports if p.name == name), None)

    def drivers(self) -> dict[Bit, Cell]:
        """The cell that drives each signal bit (an output pin's bit)."""
        return {b: cell for cell in self.cells for b in cell.bits("output")
                if isinstance(b, int)}


@dataclass(frozen=True, slots=True)
class Design:
    """A Verilog design: its modules, in Yosys's order, and the names of the modules
    it declares as black boxes (`(* blackbox *)`: cells defined elsewhere)."""

    modules: tuple[Module, ...] = ()
    blackboxes: tuple[str, ...] = ()

    def module(self, name: str) -> Module | None:
        return next((m for m in self.modules if m.name == name), None)

    @property
    def top(self) -> Module | None:
        """The module no other instantiates (the first such), else the first."""
        used = {c.type for m in self.modules for c in m.cells}
        return next((m for m in self.modules if m.name not in used),
                    self.modules[0] if self.modules else None)

    def cell_types(self) -> Counter[str]:
        return Counter(c.type for m in self.modules for c in m.cells)

    def counts(self) -> dict[str, int]:
        """modules; ports (and by direction, and their bits); cells; nets (Yosys's
        wires, `stat`'s "wires") and net bits; then cells by type ("cells:$and")."""
        ports = [p for m in self.modules for p in m.ports]
        directions = Counter(p.direction for p in ports)
        counts = {"modules": len(self.modules), "ports": len(ports),
                  "inputs": directions["input"], "outputs": directions["output"],
                  "inouts": directions["inout"], "port_bits": sum(p.width for p in ports),
                  "cells": sum(len(m.cells) for m in self.modules),
                  "nets": sum(len(m.nets) for m in self.modules),
                  "net_bits": sum(len(n.bits) for m in self.modules for n in m.nets)}
        return counts | {f"cells:{t}": n for t, n in sorted(self.cell_types().items())}
