"""The edit and the other writing of an OpenQASM 2 circuit, both written from the model
(`Circuit.qasm`: comments and layout not kept).

`moved_gate`: one single-qubit gate (unconditioned, not on the last qubit, not the
identity up to phase; the first of them in `rng`'s order) moved onto the last qubit,
in its place in the program. Gates only ever move onto the last qubit, never off it,
so after k edits every wire is the gold wire with only deletions (k at most) or only
insertions (the last): each further edit scores no higher.

`rewritten`: the same circuit with its registers renamed, operations on disjoint wires
(qubits, classical bits, the bits a condition reads) swapped where they are adjacent,
and another layout (blank lines, indentation, a comment).
"""

from __future__ import annotations

import random
from dataclasses import replace

from diagbench.languages.qasm.model import Circuit, Condition, Operation, Register
from diagbench.languages.qasm.read import read_qasm


def _circuit(code: str) -> Circuit | None:
    [parsed] = read_qasm(code)
    return None if parsed.errors else parsed.diagram


def moved_gate(code: str, rng: random.Random) -> str | None:
    """`code` with one gate moved onto the last qubit (see the module), or None."""
    from diagbench.languages.qasm.similarity import same_operator

    circuit = _circuit(code)
    if circuit is None or circuit.num_qubits < 2:
        return None
    last = circuit.num_qubits - 1
    candidates = [k for k, op in enumerate(circuit.operations)
                  if op.is_gate and not op.condition and len(op.qubits) == 1
                  and op.qubits[0] != last and op.name != "id"]
    rng.shuffle(candidates)
    for k in candidates:
        ops = list(circuit.operations)
        ops[k] = replace(ops[k], qubits=(last,))
        moved = replace(circuit, operations=tuple(ops))
        if not same_operator(circuit, moved):
            return moved.qasm()
    return None


def _wires(circuit: Circuit, op: Operation) -> set[tuple[str, int]]:
    wires = {("q", q) for q in op.qubits} | {("c", c) for c in op.clbits}
    if op.condition:
        start = 0
        for register in circuit.cregs:
            if register.name == op.condition.register:
                wires |= {("c", start + k) for k in range(register.size)}
            start += register.size
    return wires


def rewritten(code: str, rng: random.Random) -> str | None:
    """`code` written another way that draws the same circuit (see the module)."""
    circuit = _circuit(code)
    if circuit is None:
        return None
    ops = list(circuit.operations)
    for _ in range(2 * len(ops)):
        if len(ops) < 2:
            break
        k = rng.randrange(len(ops) - 1)
        if not _wires(circuit, ops[k]) & _wires(circuit, ops[k + 1]):
            ops[k], ops[k + 1] = ops[k + 1], ops[k]
    taken = {d.name for d in circuit.definitions}
    names = {r.name: _fresh(f"r{k}_{r.name}", taken)
             for k, r in enumerate((*circuit.qregs, *circuit.cregs))}
    ops = [replace(op, condition=Condition(names[op.condition.register], op.condition.value))
           if op.condition else op for op in ops]
    renamed = replace(circuit, operations=tuple(ops),
                      qregs=tuple(Register(names[r.name], r.size) for r in circuit.qregs),
                      cregs=tuple(Register(names[r.name], r.size) for r in circuit.cregs))
    lines = renamed.qasm().splitlines()
    out = ["// the same circuit, written another way", *lines[:2], ""]
    out += [("  " if rng.random() < 0.5 else "") + line + ("\n" if rng.random() < 0.2 else "")
            for line in lines[2:]]
    return "\n".join(out) + "\n"


def _fresh(name: str, taken: set[str]) -> str:
    while name in taken:
        name += "_"
    taken.add(name)
    return name
