"""The facts asked about a logic-gate schematic (STRUDEL's task types), each read off the
circuit diagbench's reader builds, with one exact answer:

- identification: which gate drives each output ("NAND");
- quantification: how many gates of each type drawn, gates in all, distinct input
  variables, outputs (with several);
- structural: each output's value for one row of inputs (a row chosen from the
  expression itself, so the same circuit is always asked the same row; 1 or 0), in how
  many of the 2ⁿ rows it is 1, and the depth (gates on the longest path from an input
  to an output).

An output is named as the schematic labels it; the one output of an unnamed
expression is "the output".
"""

from __future__ import annotations

import random
import zlib

from diagbench.diagram.facts import Fact
from diagbench.languages.logic.model import (
    GATE_TYPES,
    Circuit,
    Output,
    column,
    row_values,
    terminals,
)


def _called(output: Output) -> str:
    return f"the output {output.name}" if output.name else "the output"


def logic_facts(circuit: Circuit) -> list[Fact]:
    """The circuit's facts (see the module)."""
    counts = circuit.counts()
    facts = [Fact("identification", "output_gate",
                  f"Which type of gate drives {_called(o)}? Answer AND, NAND, OR, NOR, "
                  "XOR, XNOR or NOT.", o.gate.type.upper()) for o in circuit.outputs]
    facts += [Fact("quantification", f"{t}_gates",
                   f"How many {t.upper()} gates does the schematic show?", counts[f"{t}_gates"])
              for t in GATE_TYPES if counts[f"{t}_gates"]]
    facts += [Fact("quantification", "gates", "How many logic gates does the schematic show "
                   "in all?", counts["gates"]),
              Fact("quantification", "variables", "How many distinct input variables does "
                   "the schematic have?", counts["variables"])]
    if len(circuit.outputs) > 1:
        facts.append(Fact("quantification", "outputs", "How many outputs does the schematic "
                          "have?", counts["outputs"]))
    for output in circuit.outputs:
        facts += _output_rows(output)
    facts.append(Fact("structural", "depth", "How many gates lie on the longest path from an "
                      "input to an output?", counts["depth"]))
    return facts


def _output_rows(output: Output) -> list[Fact]:
    """The output's value for one row of its inputs, and how many rows make it 1."""
    variables = sorted({t.name for t in terminals(output.gate) if not t.constant})
    table = column(output.gate, variables)
    rows = 1 << len(variables)
    seed = zlib.crc32(f"{output.name}|{','.join(variables)}|{table:x}".encode())
    row = random.Random(seed).randrange(rows)
    values = row_values(row, variables)
    setting = ", ".join(f"{name}={int(value)}" for name, value in values.items())
    called = _called(output)
    facts = [Fact("structural", "true_rows", f"For how many of the {rows} combinations of "
                  f"input values is {called} 1?", table.bit_count())]
    if variables:
        facts.insert(0, Fact("structural", "row", f"What is {called} (1 or 0) when "
                             f"{setting}?", table >> row & 1))
    return facts
