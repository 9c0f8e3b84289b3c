"""OpenQASM 2 read by diagbench's own parser, written from the language's specification
(Cross, Bishop, Smolin, Gambetta 2017, "Open Quantum Assembly Language",
arXiv:1707.03429, §3 and its grammar in Appendix A) and from qelib1.inc: the second,
independent reader that the differential tests hold Qiskit's reading against
(`read_spec` gives the same `Circuit` as `read.read_qasm`, or a `SpecError` where
Qiskit reports an error).

It reads the version header, `include "qelib1.inc"` (its gates; those Qiskit's legacy
qelib1.inc added, `LEGACY`, are known with or without it), registers, `gate` and
`opaque` definitions (their bodies checked: gates defined before, arities, their own
parameters and qubits only),
gate applications (`U` and `CX` built in, named `u` and `cx`), `measure`, `reset`,
`barrier` and `if (creg == n)`, broadcasting statements over whole registers (each
whole register of one size, single qubits repeated), and evaluates the parameters:
`+ - * / ^`, unary minus, `sin cos tan exp ln sqrt`, `pi`. Like Qiskit (not the
paper's grammar) it reads a source without its version line, an empty statement (a
lone `;`) as nothing, and `barrier;` as a barrier on every qubit. The depth is counted
as the model's docstring says.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from diagbench.languages.qasm.lexer import LexError, Token, tokens
from diagbench.languages.qasm.limits import STANDARD_INCLUDE, Refused, check_size, check_tokens
from diagbench.languages.qasm.model import Circuit, Condition, Definition, Operation, Register

#: The gates of qelib1.inc: name → (parameters, qubits).
QELIB1 = {"u3": (3, 1), "u2": (2, 1), "u1": (1, 1), "cx": (0, 2), "id": (0, 1),
          "x": (0, 1), "y": (0, 1), "z": (0, 1), "h": (0, 1), "s": (0, 1), "sdg": (0, 1),
          "t": (0, 1), "tdg": (0, 1), "rx": (1, 1), "ry": (1, 1), "rz": (1, 1),
          "cz": (0, 2), "cy": (0, 2), "ch": (0, 2), "ccx": (0, 3), "crz": (1, 2),
          "cu1": (1, 2), "cu3": (3, 2)}
#: The gates Qiskit's legacy qelib1.inc added, and `u0`, `u`, `p`: Qiskit's legacy
#: custom instructions know them with or without an include, and a file may define
#: them again (its `delay` must be declared before it is used).
LEGACY = {"u0": (1, 1), "u": (3, 1), "p": (1, 1), "sx": (0, 1), "sxdg": (0, 1),
          "swap": (0, 2), "cswap": (0, 3), "crx": (1, 2), "cry": (1, 2), "cp": (1, 2),
          "csx": (0, 2), "cu": (4, 2), "rxx": (1, 2), "rzz": (1, 2), "rccx": (0, 3),
          "rc3x": (0, 4), "c3x": (0, 4), "c3sqrtx": (0, 4), "c4x": (0, 5)}
#: Names a file may define although Qiskit knows them.
_REDEFINABLE = frozenset({*LEGACY, "delay"})
_BUILTIN = {"U": ("u", 3, 1), "CX": ("cx", 0, 2)}
_FUNCTIONS: dict[str, Callable[[float], float]] = {
    "sin": math.sin, "cos": math.cos, "tan": math.tan, "exp": math.exp, "ln": math.log,
    "sqrt": math.sqrt}


class SpecError(Exception):
    """Not OpenQASM 2, at a 1-based line and column."""

    def __init__(self, line: int, column: int, reason: str) -> None:
        super().__init__(f"{line}:{column}: {reason}")
        self.line, self.column, self.reason = line, column, reason


def read_spec(source: str) -> Circuit:
    """The circuit of `source` (SpecError: where and why it is not OpenQASM 2)."""
    source = source.removeprefix("\ufeff")
    try:
        check_size(source)
        found = tokens(source)
        check_tokens(found)
    except (LexError, Refused) as exc:
        raise SpecError(exc.line, exc.column, exc.reason) from None
    return _Parser(found).program()


Argument = tuple[list[int], bool]


class _Parser:
    def __init__(self, found: list[Token]) -> None:
        self.tokens, self.k = found, 0
        self.gates: dict[str, tuple[int, int]] = {}  # name → (params, qubits)
        self.qregs: dict[str, tuple[int, int]] = {}  # name → (first index, size)
        self.cregs: dict[str, tuple[int, int]] = {}
        self.operations: list[Operation] = []
        self.definitions: list[Definition] = []

    # --- tokens ----------------------------------------------------------------------

    @property
    def at(self) -> Token:
        return self.tokens[self.k]

    def fail(self, reason: str, token: Token | None = None) -> SpecError:
        token = token or self.at
        return SpecError(token.line, token.column, reason)

    def take(self, text: str | None = None, kind: str | None = None) -> Token:
        token = self.at
        if (text is not None and token.text != text) or (kind is not None
                                                          and token.kind != kind):
            raise self.fail(f"{text or kind} expected, not {token.text or 'the end'!r}")
        self.k += 1
        return token

    def accept(self, text: str) -> bool:
        if self.at.text == text and self.at.kind in ("symbol", "ident"):
            self.k += 1
            return True
        return False

    # --- statements ------------------------------------------------------------------

    def program(self) -> Circuit:
        if self.at.kind == "end":
            raise self.fail("no OpenQASM statement")
        if self.accept("OPENQASM"):
            version = self.at
            if version.kind not in ("real", "int") or not version.text.startswith("2"):
                raise self.fail("OpenQASM version 2 expected")
            self.k += 1
            self.take(";")
        while self.at.kind != "end":
            self.statement()
        qregs = tuple(Register(n, size) for n, (_, size) in self.qregs.items())
        cregs = tuple(Register(n, size) for n, (_, size) in self.cregs.items())
        return Circuit(qregs, cregs, tuple(self.operations), tuple(self.definitions),
                       self.depth(qregs, cregs))

    def statement(self) -> None:
        word = self.at.text if self.at.kind == "ident" else ""
        if self.accept(";"):  # an empty statement (Qiskit reads it)
            return
        if word == "include":
            self.k += 1
            name = self.take(kind="string")
            if name.text.strip('"') != STANDARD_INCLUDE:
                raise self.fail("only qelib1.inc is included", name)
            if "u3" in self.gates:
                raise self.fail("qelib1.inc included twice", name)
            self.gates.update(QELIB1)
            self.take(";")
        elif word in ("qreg", "creg"):
            self.register(word)
        elif word in ("gate", "opaque"):
            self.definition(word == "opaque")
        elif word == "if":
            self.k += 1
            self.take("(")
            register = self.take(kind="ident")
            if register.text not in self.cregs:
                raise self.fail(f"{register.text!r} is not a classical register", register)
            self.take("==")
            value = int(self.take(kind="int").text)
            self.take(")")
            self.operation(Condition(register.text, value))
        else:
            self.operation(None)

    def register(self, word: str) -> None:
        self.k += 1
        name = self.take(kind="ident")
        self.take("[")
        size = int(self.take(kind="int").text)
        self.take("]")
        self.take(";")
        if self._defined(name.text):
            raise self.fail(f"{name.text!r} is already defined", name)
        registers = self.qregs if word == "qreg" else self.cregs
        registers[name.text] = (sum(s for _, s in registers.values()), size)

    def _defined(self, name: str) -> bool:
        return name in self.qregs or name in self.cregs or name in self.gates

    def definition(self, opaque: bool) -> None:
        self.k += 1
        name = self.take(kind="ident")
        if self._defined(name.text) and name.text not in _REDEFINABLE:
            raise self.fail(f"{name.text!r} is already defined", name)
        params = self.names("(", ")") if self.at.text == "(" else []
        qubits = self.names(None, "{" if not opaque else ";")
        if not qubits:
            raise self.fail("a gate acts on one qubit at least", name)
        body: list[str] = []
        if opaque:
            self.take(";")
        else:
            self.take("{")
            start = self.k
            while not self.accept("}"):
                self.body_statement(set(params), set(qubits))
            body = [t.text for t in self.tokens[start:self.k - 1]]
        self.gates[name.text] = (len(params), len(qubits))
        self.definitions.append(Definition(name.text, tuple(params), tuple(qubits),
                                           " ".join(body), opaque))

    def names(self, opening: str | None, closing: str) -> list[str]:
        """Comma-separated identifiers up to `closing` (taken when it is `)`)."""
        if opening:
            self.take(opening)
        out: list[str] = []
        while self.at.text != closing:
            if out:
                self.take(",")
            token = self.take(kind="ident")
            if token.text in out:
                raise self.fail(f"{token.text!r} named twice", token)
            out.append(token.text)
        if closing == ")":
            self.take(")")
        return out

    def body_statement(self, params: set[str], qubits: set[str]) -> None:
        word = self.take(kind="ident")
        if word.text == "barrier":
            names = self.names(None, ";")
        else:
            _, n_params, n_qubits = self.gate_of(word)
            values = self.expressions(params) if self.at.text == "(" else []
            names = self.names(None, ";")
            if len(values) != n_params or len(names) != n_qubits:
                raise self.fail(f"{word.text!r} takes {n_params} parameters and "
                                f"{n_qubits} qubits", word)
        if any(n not in qubits for n in names):
            raise self.fail("a gate's body uses only its own qubits", word)
        self.take(";")

    def gate_of(self, word: Token) -> tuple[str, int, int]:
        if word.text in _BUILTIN:
            return _BUILTIN[word.text]
        known = self.gates.get(word.text) or LEGACY.get(word.text)
        if known is None:
            raise self.fail(f"{word.text!r} is not a defined gate", word)
        return word.text, known[0], known[1]

    def operation(self, condition: Condition | None) -> None:
        word = self.take(kind="ident")
        if word.text == "measure":
            sources = self.argument(self.qregs)
            self.take("->")
            targets = self.argument(self.cregs)
            self.take(";")
            self.broadcast(word, [sources, targets], lambda q, c: Operation(
                "measure", (q,), (c,), (), condition))
        elif word.text == "reset":
            wires = self.argument(self.qregs)
            self.take(";")
            self.broadcast(word, [wires], lambda q: Operation("reset", (q,), (), (),
                                                              condition))
        elif word.text == "barrier" and condition is None:
            qubits: list[int] = []
            if self.at.text == ";":  # a barrier on no argument: on every qubit (Qiskit)
                qubits = list(range(sum(size for _, size in self.qregs.values())))
            while self.at.text != ";":
                qubits += [q for q in self.argument(self.qregs)[0] if q not in qubits]
                if not self.accept(","):
                    break
            self.take(";")
            self.operations.append(Operation("barrier", tuple(qubits)))
        else:
            name, n_params, n_qubits = self.gate_of(word)
            values = self.expressions(None) if self.at.text == "(" else []
            args = [self.argument(self.qregs)]
            while self.accept(","):
                args.append(self.argument(self.qregs))
            self.take(";")
            if len(values) != n_params or len(args) != n_qubits:
                raise self.fail(f"{word.text!r} takes {n_params} parameters and "
                                f"{n_qubits} qubits", word)
            params = tuple(v for v in values if v is not None)

            def gate(*qubits: int) -> Operation:
                if len(set(qubits)) != len(qubits):
                    raise self.fail("duplicate qubits in gate application", word)
                return Operation(name, qubits, (), params, condition)
            self.broadcast(word, args, gate)

    def argument(self, registers: dict[str, tuple[int, int]]) -> Argument:
        """A whole register (its bits, True) or one bit of it (a list of one, False)."""
        name = self.take(kind="ident")
        if name.text not in registers:
            raise self.fail(f"{name.text!r} is not a register of this kind", name)
        first, size = registers[name.text]
        if not self.accept("["):
            return list(range(first, first + size)), True
        index = self.take(kind="int")
        self.take("]")
        if int(index.text) >= size:
            raise self.fail(f"index {index.text} out of range for {name.text!r}", index)
        return [first + int(index.text)], False

    def broadcast(self, word: Token, args: list[Argument],
                  make: Callable[..., Operation]) -> None:
        """One operation per bit of the whole registers (one size), single bits repeated;
        a measurement's two arguments both whole registers or both single bits."""
        sizes = {len(bits) for bits, whole in args if whole}
        if len(sizes) > 1 or (word.text == "measure" and args[0][1] != args[1][1]):
            raise self.fail("cannot resolve broadcast: registers of different sizes", word)
        for k in range(sizes.pop() if sizes else 1):
            self.operations.append(make(*(bits[k] if whole else bits[0]
                                          for bits, whole in args)))

    # --- expressions -----------------------------------------------------------------

    def expressions(self, params: set[str] | None) -> list[float | None]:
        """`(e, e, …)`: their values (None inside a gate body, where `params` names the
        gate's parameters)."""
        self.take("(")
        out: list[float | None] = []
        while self.at.text != ")":
            if out:
                self.take(",")
            out.append(self.sum(params))
        self.take(")")
        return out

    def sum(self, params: set[str] | None) -> float | None:
        value = self.product(params)
        while self.at.text in ("+", "-") and self.at.kind == "symbol":
            op = self.take().text
            right = self.product(params)
            value = _apply(op, value, right)
        return value

    def product(self, params: set[str] | None) -> float | None:
        value = self.unary(params)
        while self.at.text in ("*", "/") and self.at.kind == "symbol":
            op = self.take()
            right = self.unary(params)
            if op.text == "/" and right == 0:
                raise self.fail("division by zero", op)
            value = _apply(op.text, value, right)
        return value

    def unary(self, params: set[str] | None) -> float | None:
        if self.accept("-"):
            value = self.unary(params)
            return None if value is None else -value
        if self.accept("+"):
            return self.unary(params)
        return self.power(params)

    def power(self, params: set[str] | None) -> float | None:
        base = self.atom(params)
        if self.accept("^"):
            return _apply("^", base, self.unary(params))
        return base

    def atom(self, params: set[str] | None) -> float | None:
        token = self.take()
        if token.kind in ("int", "real"):
            return float(token.text)
        if token.text == "pi":
            return math.pi
        if token.text in _FUNCTIONS:
            self.take("(")
            argument = self.sum(params)
            self.take(")")
            if argument is None:
                return None
            try:
                return _FUNCTIONS[token.text](argument)
            except (ValueError, OverflowError):
                raise self.fail(f"{token.text}({argument}) is undefined", token) from None
        if token.text == "(":
            value = self.sum(params)
            self.take(")")
            return value
        if token.kind == "ident" and params is not None and token.text in params:
            return None
        raise self.fail(f"{token.text or 'the end'!r} in an expression", token)

    # --- depth -----------------------------------------------------------------------

    def depth(self, qregs: tuple[Register, ...], cregs: tuple[Register, ...]) -> int:
        """The operations on the longest path through the wires (a barrier takes no
        layer but lines up its wires; a condition occupies its register's bits)."""
        n_qubits = sum(r.size for r in qregs)
        levels = [0] * (n_qubits + sum(r.size for r in cregs))
        for op in self.operations:
            wires = [*op.qubits, *(n_qubits + c for c in op.clbits)]
            if op.condition:
                first, size = self.cregs[op.condition.register]
                wires += [n_qubits + first + k for k in range(size)]
            level = max(levels[w] for w in wires) + (op.name != "barrier")
            for w in wires:
                levels[w] = level
        return max(levels, default=0)


def _apply(op: str, left: float | None, right: float | None) -> float | None:
    if left is None or right is None:
        return None
    if op == "+":
        return left + right
    if op == "-":
        return left - right
    if op == "*":
        return left * right
    if op == "/":
        return left / right
    try:
        return float(left ** right)
    except (OverflowError, ZeroDivisionError, TypeError):
        return math.nan
