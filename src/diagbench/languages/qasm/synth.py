"""Seeded OpenQASM 2 circuits (the structure benchmark's `baseline:synth` and the
tests): gates of qelib1.inc on one quantum register (two at high complexity), with
angles in multiples of π/8, a barrier at medium and high complexity, and measurements
of every qubit into its classical bit at the end (of some qubits at low complexity).

| complexity | qubits | gates |
|---|---|---|
| low | 2–3 | 4–8 |
| medium | 3–4 | 8–14 |
| high | 4–6 | 14–24 |
"""

from __future__ import annotations

import random

_SIZES = {"low": ((2, 3), (4, 8)), "medium": ((3, 4), (8, 14)), "high": ((4, 6), (14, 24))}
_ONE = ("h", "x", "y", "z", "s", "sdg", "t", "tdg")
_ROTATIONS = ("rx", "ry", "rz", "u1")
_TWO = ("cx", "cx", "cx", "cz", "cy", "ch", "crz", "cu1")
_ANGLES = ("pi/8", "pi/4", "3*pi/8", "pi/2", "3*pi/4", "pi", "-pi/4", "-pi/2")


def synth_qasm(rng: random.Random, complexity: str) -> str:
    """A valid circuit of `complexity` ("low", "medium", "high"), from `rng`."""
    (q_low, q_high), (g_low, g_high) = _SIZES.get(complexity, _SIZES["medium"])
    n = rng.randint(q_low, q_high)
    if complexity == "high":
        ancillas = rng.randint(1, 2)
        registers = [("q", n - ancillas), ("anc", ancillas)]
    else:
        registers = [("q", n)]
    qubits = [f"{name}[{k}]" for name, size in registers for k in range(size)]
    lines = ["OPENQASM 2.0;", 'include "qelib1.inc";']
    lines += [f"qreg {name}[{size}];" for name, size in registers]
    lines.append(f"creg c[{n}];")
    gates = rng.randint(g_low, g_high)
    barrier_at = rng.randrange(gates) if complexity != "low" else -1
    for k in range(gates):
        if k == barrier_at:
            lines.append(f"barrier {', '.join(qubits)};")
        roll = rng.random()
        if roll < 0.35:
            a, b = rng.sample(qubits, 2)
            name = rng.choice(_TWO)
            angle = f"({rng.choice(_ANGLES)})" if name in ("crz", "cu1") else ""
            lines.append(f"{name}{angle} {a},{b};")
        elif roll < 0.55:
            lines.append(f"{rng.choice(_ROTATIONS)}({rng.choice(_ANGLES)}) "
                         f"{rng.choice(qubits)};")
        else:
            lines.append(f"{rng.choice(_ONE)} {rng.choice(qubits)};")
    measured = range(n) if complexity != "low" else sorted(rng.sample(range(n), 2))
    lines += [f"measure {qubits[k]} -> c[{k}];" for k in measured]
    return "\n".join(lines) + "\n"
