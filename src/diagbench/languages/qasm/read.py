"""OpenQASM 2 read by Qiskit (`qiskit.qasm2.loads`) into diagbench's circuit model
(`model.Circuit`), one diagram a file.

Before Qiskit sees a source, diagbench tokenises it (`lexer`) and refuses what
`limits` refuses (includes other than qelib1.inc, sizes); Qiskit is then given an
empty include path. Qiskit reads with its legacy custom instructions
(`qiskit.qasm2.LEGACY_CUSTOM_INSTRUCTIONS`): the gates Qiskit's earlier qelib1.inc
added (`sx`, `swap`, `cswap`, `rzz`, `cry`, `cp`, …), which circuits exported by Qiskit
and benchmark suites such as QASMBench use without defining them. Qiskit's own error
(`QASM2ParseError`, "<input>:line,column: reason", its column 0-based) becomes the
diagnostic, with a 1-based column. Like Qiskit, the reader takes a source without its
version line (`OPENQASM 2.0;`, which the specification asks for and QASMBench's
`sat_n11` leaves out); a source without any statement is an error.
The gates a file defines are kept as written (`Definition`), from diagbench's tokens;
the depth is Qiskit's (`QuantumCircuit.depth()`). `read_qasm` never raises.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.parsed import Parsed
from diagbench.languages.qasm.lexer import LexError, Token, tokens
from diagbench.languages.qasm.limits import Refused, check_size, check_tokens
from diagbench.languages.qasm.model import Circuit, Condition, Definition, Operation, Register

if TYPE_CHECKING:
    from qiskit import QuantumCircuit  # type: ignore[import-untyped]

#: Held around every call into Qiskit in diagbench's process: the structure benchmark
#: reads from several threads at once, and Qiskit's parser crashed the process
#: (a segmentation fault) when called so.
QISKIT_LOCK = threading.RLock()
_QISKIT_ERROR = re.compile(r"<input>:(\d+),(\d+): (.*)", re.S)


class QasmError(Exception):
    """Why a source does not read: a diagnostic."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(str(diagnostic))
        self.diagnostic = diagnostic


def load(source: str) -> tuple[QuantumCircuit, list[Token]]:
    """Qiskit's circuit of `source` and diagbench's tokens of it (QasmError: why not)."""
    source = source.removeprefix("\ufeff")
    lines = source.splitlines() or [""]

    def error(line: int, column: int, reason: str) -> QasmError:
        line = min(max(line, 1), len(lines))
        return QasmError(Diagnostic(line, lines[line - 1][:200], reason, column=column))

    try:
        check_size(source)
        found = tokens(source)
        if found[0].kind == "end":
            raise Refused(found[0].line, found[0].column, "no OpenQASM statement")
        check_tokens(found)
    except (LexError, Refused) as exc:
        raise error(exc.line, exc.column, exc.reason) from None
    with QISKIT_LOCK:
        return _qiskit(source, error), found


def _qiskit(source: str, error: Callable[[int, int, str], QasmError]) -> QuantumCircuit:
    import qiskit.qasm2  # type: ignore[import-untyped]

    try:
        return qiskit.qasm2.loads(source, include_path=(),
                                  custom_instructions=qiskit.qasm2.LEGACY_CUSTOM_INSTRUCTIONS)
    except qiskit.qasm2.QASM2ParseError as exc:
        match = _QISKIT_ERROR.match(str(exc).strip("'\""))
        if match is None:
            raise error(1, 0, f"Qiskit: {exc}") from None
        raise error(int(match[1]), int(match[2]) + 1, f"Qiskit: {match[3]}") from None
    except (ValueError, TypeError, RecursionError, MemoryError) as exc:
        raise error(1, 0, f"Qiskit: {exc}") from None


#: How long Qiskit may take to read one source in its worker (a cold start included).
READ_SECONDS = 120.0
_READER: Any = None
_READER_LOCK = threading.Lock()


def read_qasm(text: str) -> list[Parsed[Circuit]]:
    """The circuit of an OpenQASM 2 source, with Qiskit's error as a diagnostic: read by
    `read_here` in a worker process of its own (`render.worker`), so that diagbench's
    process never runs Qiskit's parser (a structure build over every category crashed
    with a segmentation fault inside it, in diagbench's own process)."""
    from diagbench.render.worker import Worker

    global _READER
    with _READER_LOCK:
        if _READER is None:
            _READER = Worker("diagbench.languages.qasm.read:read_here", ("qiskit.qasm2",))
        ok, result = _READER.run(text, READ_SECONDS)
    if ok:
        return list(result)
    lines = text.splitlines() or [""]
    return [Parsed(0, 1, "qasm", "quantum", Circuit(), (Diagnostic(
        1, lines[0][:200], f"Qiskit's reader failed: {result}"),))]


def end_reader() -> None:
    """End `read_qasm`'s worker (the next source starts it again)."""
    with _READER_LOCK:
        if _READER is not None:
            _READER.close()


def read_here(text: str) -> list[Parsed[Circuit]]:
    """`read_qasm` in this process."""
    try:
        circuit, found = load(text)
        with QISKIT_LOCK:
            model = circuit_model(circuit, found)
    except QasmError as exc:
        return [Parsed(0, 1, "qasm", "quantum", Circuit(), (exc.diagnostic,))]
    return [Parsed(0, 1, "qasm", "quantum", model)]


def circuit_model(circuit: QuantumCircuit, found: list[Token]) -> Circuit:
    """diagbench's model of a circuit Qiskit read, its definitions from the tokens."""
    qubits = {bit: k for k, bit in enumerate(circuit.qubits)}
    clbits = {bit: k for k, bit in enumerate(circuit.clbits)}
    operations = []
    for instruction in circuit.data:
        op = instruction.operation
        condition = None
        outer_qubits, outer_clbits = instruction.qubits, instruction.clbits
        if op.name == "if_else":
            register, value = op.condition
            condition = Condition(register.name, int(value))
            body = op.blocks[0]
            [inner] = body.data
            outer_qubits = tuple(outer_qubits[body.find_bit(q).index] for q in inner.qubits)
            outer_clbits = tuple(outer_clbits[body.find_bit(c).index] for c in inner.clbits)
            op = inner.operation
        operations.append(Operation(op.name, tuple(qubits[q] for q in outer_qubits),
                                    tuple(clbits[c] for c in outer_clbits), _params(op),
                                    condition))
    return Circuit(tuple(Register(r.name, r.size) for r in circuit.qregs),
                   tuple(Register(r.name, r.size) for r in circuit.cregs),
                   tuple(operations), definitions(found), circuit.depth())


def _params(op: Any) -> tuple[float, ...]:
    if op.name in ("measure", "reset", "barrier"):
        return ()
    return tuple(float(p) for p in op.params)


def definitions(found: list[Token]) -> tuple[Definition, ...]:
    """The `gate` and `opaque` statements of a token list, as written."""
    out = []
    k = 0
    while k < len(found) - 1:
        if found[k].text not in ("gate", "opaque"):
            k += 1
            continue
        opaque = found[k].text == "opaque"
        name = found[k + 1].text
        k += 2
        params: list[str] = []
        if found[k].text == "(":
            while found[k].text != ")":
                k += 1
                if found[k].kind == "ident":
                    params.append(found[k].text)
            k += 1
        qubits = []
        while found[k].text not in ("{", ";") and found[k].kind != "end":
            if found[k].kind == "ident":
                qubits.append(found[k].text)
            k += 1
        body = []
        if found[k].text == "{":
            k += 1
            while found[k].text != "}":
                body.append(found[k].text)
                k += 1
        out.append(Definition(name, tuple(params), tuple(qubits), " ".join(body), opaque))
        k += 1
    return tuple(out)


def recognises(text: str) -> bool:
    """An OpenQASM 2 source starts (after comments) with `OPENQASM 2.0;`."""
    return re.match(r"\s*(?://[^\n]*\s*)*OPENQASM\s+2(?:\.\d+)?\s*;",
                    text.removeprefix("\ufeff")) is not None
