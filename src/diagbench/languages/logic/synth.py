"""Boolean expressions written from the model (`write`), generated (`synth_logic`), edited
(`edit_logic`) and written another way (`rewrite_logic`).

The writer puts every gate input that is itself a gate (other than a NOT) in
parentheses, so the text reads back into the same gates, as both diagbench's reader and
schemdraw's parser read it; a NOT is written `not a`. The edit changes one gate's type
so that its output is 1 in strictly fewer rows (so a second edit never comes closer to
the first code again); the rewriting commutes the inputs of gates (every gate type
drawn is symmetric in its inputs), writes operators as words or symbols and in either
case, and puts redundant parentheses around inputs — the same truth table, scored 1.
"""

from __future__ import annotations

import random

from diagbench.languages.logic.model import Circuit, Gate, Input, Node, Output, column, terminals

#: Each gate's operator words and symbols (NAND, NOR and XNOR have words only).
SPELLINGS: dict[str, tuple[str, ...]] = {
    "and": ("and", "&", "∧"), "or": ("or", "|", "∨", "+"), "xor": ("xor", "⊕", "⊻"),
    "nand": ("nand",), "nor": ("nor",), "xnor": ("xnor",), "not": ("not", "~", "¬")}
BINARY = ("and", "or", "xor", "nand", "nor", "xnor")
#: Generated circuits: (variables, gates) at each complexity.
SIZES = {"low": (2, 2), "medium": (4, 4), "high": (5, 7)}


def write_node(node: Node, rng: random.Random | None = None) -> str:
    """An expression of `node` (see the module); with `rng`, written another way."""
    if isinstance(node, Input):
        return f"({node.name})" if rng and rng.random() < 0.15 else node.name
    inputs = list(node.inputs)
    if rng:
        rng.shuffle(inputs)
    parts = [write_node(n, rng) if isinstance(n, Input) or n.type == "not"
             else f"({write_node(n, rng)})" for n in inputs]
    if node.type == "not":
        word = rng.choice(SPELLINGS["not"]) if rng else "not"
        return f"{_cased(word, rng)}{' ' if word.isalpha() else ''}{parts[0]}"
    words = [_cased(rng.choice(SPELLINGS[node.type]) if rng else node.type, rng)
             for _ in parts[1:]]
    return parts[0] + "".join(f" {w} {p}" for w, p in zip(words, parts[1:], strict=True))


def _cased(word: str, rng: random.Random | None) -> str:
    return word.upper() if rng and word.isalpha() and rng.random() < 0.3 else word


def write_circuit(circuit: Circuit, rng: random.Random | None = None) -> str:
    """The `.bool` code of `circuit`: one line an output (`NAME = …` when named)."""
    return "".join((f"{o.name} = " if o.name else "") + write_node(o.gate, rng) + "\n"
                   for o in circuit.outputs)


def synth_logic(rng: random.Random, complexity: str) -> str:
    """A random circuit at `complexity`: one output (two, half the time, when high) over
    up to its variables, with its gates."""
    variables, count = SIZES[complexity]
    names = [chr(ord("A") + k) for k in range(variables)]
    outputs = 2 if complexity == "high" and rng.random() < 0.5 else 1
    circuit = Circuit(tuple(Output(f"Y{k + 1}" if outputs > 1 else "Y",
                                   _gate(rng, names, max(1, count // outputs)))
                            for k in range(outputs)))
    return write_circuit(circuit)


def _gate(rng: random.Random, names: list[str], budget: int) -> Gate:
    """A random gate tree of `budget` gates at most over `names` (a gate's direct
    inputs distinct names; a NOT only over an input, as the reader folds a NOT over a
    gate into the gate)."""
    if budget == 1 and rng.random() < 0.15:
        return Gate("not", (Input(rng.choice(names)),))
    kind = rng.choice(BINARY)
    width = 3 if rng.random() < 0.2 else 2
    left = budget - 1
    shares = []
    for k in range(width):
        share = left if k == width - 1 else rng.randint(0, left)
        left -= share
        shares.append(share)
    leaves = iter(rng.sample(names, min(len(names), shares.count(0))) + names)
    return Gate(kind, tuple(_gate(rng, names, share) if share else Input(next(leaves))
                            for share in shares))


def _gates_at(node: Node, path: tuple[int, ...] = ()) -> list[tuple[tuple[int, ...], Gate]]:
    """(path, gate) of every gate of a tree, the path the input indices from the root."""
    if isinstance(node, Input):
        return []
    out = [(path, node)]
    for k, child in enumerate(node.inputs):
        out += _gates_at(child, (*path, k))
    return out


def _replaced(node: Gate, path: tuple[int, ...], new: Gate) -> Gate:
    if not path:
        return new
    child = node.inputs[path[0]]
    assert isinstance(child, Gate)
    inputs = list(node.inputs)
    inputs[path[0]] = _replaced(child, path[1:], new)
    return Gate(node.type, tuple(inputs))


def edit_logic(circuit: Circuit, rng: random.Random) -> Circuit | None:
    """`circuit` with one gate of two inputs or more given another type, the first in
    `rng`'s order after which its output is 1 in a strict subset of the rows it was, and
    not in none of them when it was in all (None when no such change exists)."""
    candidates = [(k, path, gate, kind) for k, o in enumerate(circuit.outputs)
                  for path, gate in _gates_at(o.gate) if gate.type != "not"
                  for kind in BINARY if kind != gate.type]
    rng.shuffle(candidates)
    for k, path, gate, kind in candidates:
        output = circuit.outputs[k]
        variables = sorted({t.name for t in terminals(output.gate) if not t.constant})
        before = column(output.gate, variables)
        changed = _replaced(output.gate, path, Gate(kind, gate.inputs))
        after = column(changed, variables)
        full = (1 << (1 << len(variables))) - 1
        if after != before and after & before == after and after ^ before != full:
            outputs = list(circuit.outputs)
            outputs[k] = Output(output.name, changed)
            return Circuit(tuple(outputs))
    return None


def rewrite_logic(circuit: Circuit, rng: random.Random) -> str:
    """`circuit` written another way (see the module)."""
    return write_circuit(circuit, rng)
