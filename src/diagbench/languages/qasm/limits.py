"""What diagbench refuses before Qiskit is given an OpenQASM 2 source, each refusal an
error at its line and column (`Refused`), checked on diagbench's own tokens (`lexer`):

- `include` of any file but `qelib1.inc`: an include reads a file, and an untrusted
  source must not reach the file system (Qiskit serves `qelib1.inc` from memory;
  diagbench also gives Qiskit an empty include path, so no other file is found even
  if one slipped past this check);
- a source over `MAX_SOURCE_CHARS` characters; registers of more than `MAX_BITS`
  qubits (or classical bits) in all; a size written with more than 9 digits;
- over `MAX_OPERATIONS` operations, a statement on whole registers counting one per
  qubit of its largest register (a barrier: one) — counted before Qiskit builds them,
  so `qreg q[1000]; h q; h q; …` is refused without being built;
- brackets nested deeper than `MAX_NESTING` (an expression, `((((…))))`).
"""

from __future__ import annotations

from diagbench.languages.qasm.lexer import Token

MAX_SOURCE_CHARS = 500_000
MAX_BITS = 1024
MAX_OPERATIONS = 5_000
MAX_NESTING = 100
STANDARD_INCLUDE = "qelib1.inc"
_OPEN, _CLOSE = "([{", ")]}"


class Refused(Exception):
    """A source diagbench does not give to Qiskit, at a 1-based line and column."""

    def __init__(self, line: int, column: int, reason: str) -> None:
        super().__init__(reason)
        self.line, self.column, self.reason = line, column, reason


def check_size(source: str) -> None:
    """Refused when the source is too long to read."""
    if len(source) > MAX_SOURCE_CHARS:
        raise Refused(1, 1, f"a source of {len(source):,} characters, over the "
                      f"{MAX_SOURCE_CHARS:,}-character limit")


def check_tokens(tokens: list[Token]) -> None:
    """Refused at the first include, size or nesting the module's docstring refuses."""
    _nesting(tokens)
    bits = {"qreg": 0, "creg": 0}
    qregs: dict[str, int] = {}
    operations = 0
    k = 0
    while tokens[k].kind != "end":
        token = tokens[k]
        end = _statement_end(tokens, k)
        if token.text == "include":
            _include(tokens[k + 1])
        elif token.text in bits and _at(tokens, k + 1).kind == "ident" \
                and _at(tokens, k + 3).kind == "int":
            size = _size(tokens[k + 3])
            bits[token.text] += size
            if token.text == "qreg":
                qregs[tokens[k + 1].text] = size
            if bits[token.text] > MAX_BITS:
                kind = "qubits" if token.text == "qreg" else "classical bits"
                raise Refused(token.line, token.column, f"{bits[token.text]:,} {kind}, over "
                              f"the {MAX_BITS:,} diagbench reads")
        elif token.text not in ("gate", "opaque", "OPENQASM"):
            operations += 1 if token.text == "barrier" else max(
                [qregs.get(t.text, 1) for j, t in enumerate(tokens[k:end], k)
                 if t.kind == "ident" and tokens[j + 1].text != "["] or [1])
            if operations > MAX_OPERATIONS:
                raise Refused(token.line, token.column, f"over {MAX_OPERATIONS:,} "
                              "operations: a circuit this large is not read")
        k = end


def _at(tokens: list[Token], k: int) -> Token:
    return tokens[min(k, len(tokens) - 1)]


def _nesting(tokens: list[Token]) -> None:
    depth = 0
    for token in tokens:
        if token.kind == "symbol" and token.text in _OPEN:
            depth += 1
            if depth > MAX_NESTING:
                raise Refused(token.line, token.column, f"brackets nested over "
                              f"{MAX_NESTING} deep")
        elif token.kind == "symbol" and token.text in _CLOSE:
            depth = max(0, depth - 1)


def _include(name: Token) -> None:
    if name.kind == "string" and name.text.strip('"') == STANDARD_INCLUDE:
        return
    raise Refused(name.line, name.column, f"include of {name.text}: diagbench reads only "
                  f'the standard library "{STANDARD_INCLUDE}" (an include reads a file)')


def _size(token: Token) -> int:
    if len(token.text) > 9:
        raise Refused(token.line, token.column, f"a register of {len(token.text)} digits")
    return int(token.text)


def _statement_end(tokens: list[Token], k: int) -> int:
    """The index after the statement starting at `k`: after its `;` or, for a gate
    definition, after its closing `}` (the end token at the latest)."""
    braces = 0
    while tokens[k].kind != "end":
        text = tokens[k].text if tokens[k].kind == "symbol" else ""
        k += 1
        if text == "{":
            braces += 1
        elif text == "}":
            braces -= 1
            if braces <= 0:
                return k
        elif text == ";" and braces == 0:
            return k
    return k
