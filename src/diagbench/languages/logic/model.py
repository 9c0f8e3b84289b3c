"""The model of a Boolean expression as a logic-gate circuit: gates (`Gate`) over input
terminals (`Input`: a variable or a constant), one tree an output (`Output`), and the
circuit of one file (`Circuit`) that counts what the schematic draws.

A gate is drawn as one schematic symbol, so the model is the drawn gates, not the
operators written: `not (a and b)` is one NAND gate (schemdraw draws it so), a chain of
one operator without parentheses (`a and b and c`) one gate of three inputs, and a
parenthesised group its own gate.

Truth tables are computed bit-parallel: a column of 2ⁿ rows is one Python integer whose
bit r is the value in row r, where row r gives variable k (in sorted order) the bit
n-1-k of r (the first variable is the most significant, as truth tables are printed).
(Not SymPy's evaluation: a row at a time, 16 variables and 34 gates take it over a
minute, this 0.2 ms; the tests check every row against SymPy's evaluation of the same
tree, built as SymPy expressions from the tree, never from text.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Union

#: The gate types, as schemdraw draws them (`schemdraw.logic`), in the order counts list them.
GATE_TYPES = ("and", "nand", "or", "nor", "xor", "xnor", "not")
#: The gate each gate becomes under a negation (schemdraw's inverted gates).
INVERTED = {"and": "nand", "nand": "and", "or": "nor", "nor": "or",
            "xor": "xnor", "xnor": "xor"}
#: The constants, as inputs.
CONSTANTS = ("false", "true")


@dataclass(frozen=True, slots=True)
class Input:
    """An input terminal: a variable's `name`, or a constant ("true", "false") when
    `constant`."""

    name: str
    constant: bool = False


@dataclass(frozen=True, slots=True)
class Gate:
    """A gate of `type` (one of `GATE_TYPES`) over its inputs, in drawing order (one for
    NOT, two or more for the others)."""

    type: str
    inputs: tuple[Node, ...]


Node = Union[Gate, Input]  # noqa: UP007 (a runtime alias the dataclasses name)


@dataclass(frozen=True, slots=True)
class Output:
    """One output: its `name` ("" when the file gives it none) and the gate that
    drives it."""

    name: str
    gate: Gate


@dataclass(frozen=True, slots=True)
class Circuit:
    """The circuit of one `.bool` file: its outputs, in file order."""

    outputs: tuple[Output, ...]

    def counts(self) -> dict[str, int]:
        """What the schematic draws: outputs, distinct variables, input terminals (one a
        label drawn), gates, the depth (gates on the longest path from an input to an
        output), and gates of each type ("and_gates", …)."""
        types = self.gate_types()
        return {"outputs": len(self.outputs), "variables": len(self.variables()),
                "inputs": sum(1 for o in self.outputs for _ in terminals(o.gate)),
                "gates": sum(types.values()),
                "depth": max((depth(o.gate) for o in self.outputs), default=0),
                **{f"{t}_gates": types[t] for t in GATE_TYPES}}

    def gate_types(self) -> Counter[str]:
        """How many gates of each type."""
        return Counter(g.type for o in self.outputs for g in gates(o.gate))

    def variables(self) -> tuple[str, ...]:
        """The variables, sorted (the truth table's columns)."""
        return tuple(sorted({t.name for o in self.outputs for t in terminals(o.gate)
                             if not t.constant}))

    def names(self) -> tuple[str, ...]:
        """The outputs' names ("" for an unnamed one)."""
        return tuple(o.name for o in self.outputs)


def gates(node: Node) -> Iterator[Gate]:
    """The gates of a tree, the root first (depth first, in input order)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, Gate):
            yield current
            stack.extend(reversed(current.inputs))


def terminals(node: Node) -> Iterator[Input]:
    """The input terminals of a tree, top to bottom as drawn."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, Input):
            yield current
        else:
            stack.extend(reversed(current.inputs))


def depth(node: Node) -> int:
    """Gates on the longest path from an input to `node` (0 for an input)."""
    if isinstance(node, Input):
        return 0
    return 1 + max(depth(child) for child in node.inputs)


def column(node: Node, variables: Sequence[str]) -> int:
    """The truth-table column of `node` over `variables` (see the module): bit r is its
    value in row r."""
    n = len(variables)
    full = (1 << (1 << n)) - 1
    columns = {name: _variable_column(k, n) for k, name in enumerate(variables)}
    return _evaluate(node, columns, full)


def _variable_column(k: int, n: int) -> int:
    """The column of the k-th of n variables: 1 in the rows whose bit n-1-k is set (runs
    of `half` zeros then `half` ones, doubled until the column is full)."""
    half = 1 << (n - 1 - k)
    out, period = ((1 << half) - 1) << half, 2 * half
    while period < 1 << n:
        out |= out << period
        period *= 2
    return out


def _evaluate(node: Node, columns: Mapping[str, int], full: int) -> int:
    if isinstance(node, Input):
        if node.constant:
            return full if node.name == "true" else 0
        return columns[node.name]
    values = [_evaluate(child, columns, full) for child in node.inputs]
    if node.type == "not":
        return full ^ values[0]
    value = values[0]
    for v in values[1:]:
        if node.type in ("and", "nand"):
            value &= v
        elif node.type in ("or", "nor"):
            value |= v
        else:  # xor, xnor: odd parity
            value ^= v
    return full ^ value if node.type in ("nand", "nor", "xnor") else value


def row_values(row: int, variables: Sequence[str]) -> dict[str, bool]:
    """The variables' values in truth-table row `row`."""
    n = len(variables)
    return {name: bool(row >> (n - 1 - k) & 1) for k, name in enumerate(variables)}

