"""Seeded Verilog designs: one module of word-wide logic — bitwise operators, adders,
subtractors, inverters and multiplexers over its inputs — with one or two outputs and,
above "low", a register clocked by `clk`.

| complexity | inputs | operations | registers |
|---|---|---|---|
| low    | 3 | 2–3  | 0 |
| medium | 4 | 4–6  | 1 |
| high   | 5 | 7–10 | 2 |

Every operation's first operand is the result before it (else an input), so that
Yosys keeps every cell (`opt` removes logic that drives nothing).
"""

from __future__ import annotations

import random

_SIZES = {"low": (3, (2, 3), 0), "medium": (4, (4, 6), 1), "high": (5, (7, 10), 2)}
_BINARY = ("&", "|", "^", "+", "-")


def synth_verilog(rng: random.Random, complexity: str) -> str:
    """A design at `complexity` (see the module's docstring)."""
    inputs, (low, high), registers = _SIZES[complexity]
    width = rng.choice((1, 2, 4, 8))
    names = list("abcde"[:inputs])
    bus = f"[{width - 1}:0] " if width > 1 else ""
    ports = ["  input  wire clk"] if registers else []
    ports += [f"  input  wire {bus}{n}" for n in names] + ["  input  wire sel"]
    body, signals = [], list(names)
    for k in range(rng.randint(low, high)):
        first = signals[-1] if k else rng.choice(names)
        second = rng.choice([s for s in signals if s != first])
        kind = rng.random()
        if kind < 0.15:
            expression = f"~{first}"
        elif kind < 0.3:
            expression = f"sel ? {first} : {second}"
        else:
            expression = f"{first} {rng.choice(_BINARY)} {second}"
        body.append(f"  wire {bus}t{k} = {expression};")
        signals.append(f"t{k}")
    temps = signals[len(names):]
    ports.append(f"  output wire {bus}y")
    body.append(f"  assign y = {temps[-1]};")
    if len(temps) > 2 and rng.random() < 0.5:
        ports.append(f"  output wire {bus}z")
        body.append(f"  assign z = {temps[-2]} ^ {rng.choice(names)};")
    for r in range(registers):
        ports.append(f"  output reg  {bus}q{r}")
        body.append(f"  always @(posedge clk) q{r} <= {rng.choice(temps)};")
    name = f"design_{rng.randrange(1000):03d}"
    return f"module {name}(\n" + ",\n".join(ports) + "\n);\n" + "\n".join(body) + "\nendmodule\n"
