"""The model of an OpenQASM 2 circuit (`Circuit`): its registers, the gates it defines,
and its operations in program order, each on qubits and classical bits numbered across
the registers in the order they are declared (as Qiskit numbers them and as its drawer
stacks the wires: `q[0]`, `q[1]`, … then the next register's).

An operation is a gate application (a gate of qelib1.inc, of Qiskit's legacy
additions to it, or one the file defines), a measurement, a reset or a barrier; a
statement that applies to whole registers ("broadcast": `h q;`, `measure q -> c;`) is
one operation per qubit, as Qiskit reads it, and a barrier is one operation on all the
qubits it names. `if (c == n) op;` is the operation with its `condition`.

`counts()` are what the drawing shows: `qubits` and `clbits` (the wires), `gates`
(gate applications, conditioned ones included; not measurements, resets or
barriers), `two_qubit_gates` (gates on exactly two qubits), `measurements`,
`barriers`, `resets`, `conditionals` (operations under an `if`), and `depth` (the
operations on the longest path through the wires, as Qiskit's `QuantumCircuit.depth`
counts it: a barrier takes no layer but lines up the wires it spans — what follows it
starts after all that precedes it on them; a conditioned operation also occupies the
bits of its condition's register).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

#: Operations that are not gates.
NOT_GATES = frozenset({"measure", "reset", "barrier"})


@dataclass(frozen=True, slots=True)
class Register:
    """A quantum or classical register: its name and size."""

    name: str
    size: int


@dataclass(frozen=True, slots=True)
class Condition:
    """`if (register == value)`."""

    register: str
    value: int


@dataclass(frozen=True, slots=True)
class Operation:
    """One operation: its name as OpenQASM writes it (`cx`, `u1`, `measure`, a defined
    gate's name; `U` and `CX` as `u` and `cx`), its qubits and classical bits (global
    indices, in argument order), its parameters (radians) and its condition."""

    name: str
    qubits: tuple[int, ...]
    clbits: tuple[int, ...] = ()
    params: tuple[float, ...] = ()
    condition: Condition | None = None

    @property
    def is_gate(self) -> bool:
        return self.name not in NOT_GATES


@dataclass(frozen=True, slots=True)
class Definition:
    """A `gate` (or `opaque`) statement: name, parameter and qubit names, and its body
    as written (tokens joined by spaces; "" for an opaque gate)."""

    name: str
    params: tuple[str, ...]
    qubits: tuple[str, ...]
    body: str
    opaque: bool = False

    def qasm(self) -> str:
        params = f"({','.join(self.params)})" if self.params else ""
        head = f"{self.name}{params} {','.join(self.qubits)}"
        return f"opaque {head};" if self.opaque else f"gate {head} {{ {self.body} }}"


@dataclass(frozen=True, slots=True)
class Circuit:
    """An OpenQASM 2 circuit (see the module)."""

    qregs: tuple[Register, ...] = ()
    cregs: tuple[Register, ...] = ()
    operations: tuple[Operation, ...] = ()
    definitions: tuple[Definition, ...] = ()
    depth: int = 0

    @property
    def num_qubits(self) -> int:
        return sum(r.size for r in self.qregs)

    @property
    def num_clbits(self) -> int:
        return sum(r.size for r in self.cregs)

    def counts(self) -> dict[str, int]:
        gates = [op for op in self.operations if op.is_gate]
        names = Counter(op.name for op in self.operations)
        return {"qubits": self.num_qubits, "clbits": self.num_clbits, "gates": len(gates),
                "two_qubit_gates": sum(1 for op in gates if len(op.qubits) == 2),
                "measurements": names["measure"], "barriers": names["barrier"],
                "resets": names["reset"],
                "conditionals": sum(1 for op in self.operations if op.condition),
                "depth": self.depth}

    def gate_names(self) -> Counter[str]:
        """How many gates of each name (measurements, resets and barriers not counted)."""
        return Counter(op.name for op in self.operations if op.is_gate)

    def qubit_label(self, index: int) -> str:
        """`reg[i]` of the qubit of global `index`."""
        return _label(self.qregs, index)

    def clbit_label(self, index: int) -> str:
        return _label(self.cregs, index)

    def on_qubit(self, index: int) -> list[Operation]:
        """The operations on a qubit, in program order."""
        return [op for op in self.operations if index in op.qubits]

    def qasm(self) -> str:
        """The circuit written as OpenQASM 2 (header, qelib1.inc, its definitions, its
        registers, one statement per operation; parameters as exact reals)."""
        lines = ["OPENQASM 2.0;", 'include "qelib1.inc";']
        lines += [d.qasm() for d in self.definitions]
        lines += [f"qreg {r.name}[{r.size}];" for r in self.qregs]
        lines += [f"creg {r.name}[{r.size}];" for r in self.cregs]
        lines += [self.statement(op) for op in self.operations]
        return "\n".join(lines) + "\n"

    def statement(self, op: Operation) -> str:
        """One operation as an OpenQASM 2 statement."""
        qubits = ",".join(self.qubit_label(q) for q in op.qubits)
        if op.name == "measure":
            text = f"measure {qubits} -> {self.clbit_label(op.clbits[0])};"
        else:
            params = f"({','.join(real(p) for p in op.params)})" if op.params else ""
            text = f"{op.name}{params} {qubits};"
        if op.condition:
            text = f"if({op.condition.register}=={op.condition.value}) {text}"
        return text


def real(value: float) -> str:
    """A float as an OpenQASM 2 real that reads back as the same float."""
    text = repr(float(value))
    if "e" in text and "." not in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}.0e{exponent}"
    return text


def _label(registers: tuple[Register, ...], index: int) -> str:
    for register in registers:
        if index < register.size:
            return f"{register.name}[{index}]"
        index -= register.size
    raise IndexError(f"bit {index} is in no register")
