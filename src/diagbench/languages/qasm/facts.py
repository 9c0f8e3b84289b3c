"""The facts asked about a quantum circuit, one exact answer each (STRUDEL's task types):

- identification: which operation acts first on the third qubit (the last one of a
  smaller circuit), barriers not counted, by its OpenQASM name;
- quantification: how many CNOT gates (`cx`), how many measurements, the depth (as
  Qiskit counts it: barriers take no layer);
- structural: which qubits share a two-qubit gate with the first qubit of the first
  two-qubit gate (a set), and which qubit is measured into the second classical bit
  (the first of a one-bit circuit), asked only when exactly one measurement writes it.

Qubits and bits are named as OpenQASM writes them (`q[2]`); the drawing labels the
wire `q₂`.
"""

from __future__ import annotations

from diagbench.diagram.facts import Fact
from diagbench.languages.qasm.model import Circuit


def circuit_facts(circuit: Circuit) -> list[Fact]:
    """The facts of a circuit (see the module)."""
    facts = []
    counts = circuit.counts()
    if circuit.num_qubits:
        k = min(2, circuit.num_qubits - 1)
        label = circuit.qubit_label(k)
        first = next((op for op in circuit.on_qubit(k) if op.name != "barrier"), None)
        if first is not None:
            facts.append(Fact("identification", "first_gate",
                              f"Which operation acts first on qubit {label} (barriers not "
                              "counted)? Answer with its OpenQASM name, e.g. h, cx, rz or "
                              "measure.", first.name))
    facts.append(Fact("quantification", "cnots", "How many CNOT gates (cx: a control dot "
                      "joined to a ⊕ target) does the circuit apply?",
                      circuit.gate_names()["cx"]))
    facts.append(Fact("quantification", "measurements",
                      "How many measurements does the circuit make?", counts["measurements"]))
    facts.append(Fact("quantification", "depth", "What is the circuit's depth: the number "
                      "of operations on its longest path from left to right (barriers not "
                      "counted; a measurement counts)?", counts["depth"]))
    pair = next((op for op in circuit.operations if op.is_gate and len(op.qubits) == 2), None)
    if pair is not None:
        qubit = pair.qubits[0]
        partners = sorted({q for op in circuit.operations if op.is_gate
                           and len(op.qubits) == 2 and qubit in op.qubits
                           for q in op.qubits if q != qubit})
        facts.append(Fact("structural", "partners", "Which qubits share a two-qubit gate "
                          f"with qubit {circuit.qubit_label(qubit)}?",
                          tuple(circuit.qubit_label(q) for q in partners)))
    if circuit.num_clbits:
        bit = min(1, circuit.num_clbits - 1)
        writers = [op for op in circuit.operations if op.name == "measure"
                   and op.clbits == (bit,)]
        if len(writers) == 1:
            facts.append(Fact("structural", "measured_into", "Which qubit is measured into "
                              f"the classical bit {circuit.clbit_label(bit)}?",
                              circuit.qubit_label(writers[0].qubits[0])))
    return facts
