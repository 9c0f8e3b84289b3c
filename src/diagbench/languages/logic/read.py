"""diagbench's strict reader of Boolean expressions (`.bool`), into the gates schemdraw
draws (`model.Circuit`).

A file holds one circuit: one output a line, `NAME = expression`, or one bare
expression (STRUDEL's files: one expression, the output unnamed). Blank lines and
comments (`#` or `//` to the end of the line) are skipped. The grammar is the one
schemdraw's `logicparse` draws (pyparsing's infix notation), with its precedence, from
the tightest: `not` (`~`, `¬`); `and`, `nand` (`&`, `∧`); `or`, `nor` (`|`, `∨`, `+`);
`xor`, `xnor` (`⊕`, `⊻`). Operator words and `true`/`false` are read in any case (`AND`,
as STRUDEL's renderer lower-cases them); a name is an ASCII letter or `_`, then letters,
digits or `_`. A chain of one operator (`a nand b nand c`) is one gate of as many
inputs; parentheses make their content one input of its own.

Refused, each with its line and column, where schemdraw would draw something else than
the expression says: two operators of one level mixed without parentheses (`a and b
nand c`: schemdraw draws one AND of three inputs), a double negation (`not not a`,
`not (not a)`: schemdraw draws no gate for it), an output without a gate (`Y = a`).
Refused as too large to draw or tabulate: parentheses nested over `MAX_NESTING` deep,
over `MAX_GATES` gates, `MAX_INPUTS` input terminals (a chain of one operator is one
gate of any number of inputs), `MAX_VARIABLES` variables (a truth table of 2ⁿ rows) or
`MAX_OUTPUTS` outputs, a name over `MAX_NAME` characters or a line over `MAX_LINE`.
Output names are distinct and no output is also a variable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.parsed import Parsed
from diagbench.languages.logic.model import (
    CONSTANTS,
    INVERTED,
    Circuit,
    Gate,
    Input,
    Node,
    Output,
    gates,
    terminals,
)

MAX_NESTING = 32
MAX_GATES = 200
MAX_INPUTS = 256
MAX_VARIABLES = 16
MAX_OUTPUTS = 8
MAX_NAME = 64
MAX_LINE = 20_000

#: The operator families, lowest precedence first: each token's gate type.
LEVELS: tuple[dict[str, str], ...] = (
    {"xor": "xor", "⊕": "xor", "⊻": "xor", "xnor": "xnor"},
    {"or": "or", "|": "or", "∨": "or", "+": "or", "nor": "nor"},
    {"and": "and", "&": "and", "∧": "and", "nand": "nand"},
)
NOT_TOKENS = frozenset({"not", "~", "¬"})
KEYWORDS = frozenset({"and", "nand", "or", "nor", "xor", "xnor", "not", *CONSTANTS})
_TOKEN = re.compile(r"(?P<comment>#|//)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
                    r"|(?P<symbol>[()=&∧|∨+⊕⊻~¬])")
_SPACE = re.compile(r"\s*")


class LogicSyntaxError(ValueError):
    """What stops a line being read, at its 1-based `column`."""

    def __init__(self, reason: str, column: int) -> None:
        super().__init__(reason)
        self.reason, self.column = reason, column


@dataclass(frozen=True, slots=True)
class Token:
    """One token: its text (an operator word or constant lower-cased) and 1-based column."""

    text: str
    column: int
    name: bool = False  # a name (a variable's or an output's), not an operator


def tokens(line: str) -> list[Token]:
    """The tokens of one line, up to a comment (LogicSyntaxError for a line over
    `MAX_LINE` characters, at the first character that starts no token, a name over
    `MAX_NAME` characters, or parentheses too deep)."""
    if len(line) > MAX_LINE:
        raise LogicSyntaxError(f"a line of {len(line):,} characters, over the {MAX_LINE:,} "
                               "read", MAX_LINE + 1)
    out: list[Token] = []
    position, nesting = 0, 0
    while True:
        position = _SPACE.match(line, position).end()  # type: ignore[union-attr]  # \s*
        if position == len(line):
            break
        found = _TOKEN.match(line, position)
        if found is None:
            raise LogicSyntaxError(f"unexpected character {line[position]!r}", position + 1)
        if found.group("comment"):
            break
        column, text = position + 1, found.group(0)
        if found.group("name"):
            if len(text) > MAX_NAME:
                raise LogicSyntaxError(f"a name of {len(text):,} characters, over the "
                                       f"{MAX_NAME} read", column)
            keyword = text.lower() in KEYWORDS
            out.append(Token(text.lower() if keyword else text, column, name=not keyword))
        else:
            nesting += {"(": 1, ")": -1}.get(text, 0)
            if nesting > MAX_NESTING:
                raise LogicSyntaxError(f"parentheses nested over {MAX_NESTING} deep", column)
            out.append(Token(text, column))
        position = found.end()
    return out


class _Parser:
    """Recursive descent over one line's expression tokens (depth bounded by
    `MAX_NESTING`, checked by `tokens`)."""

    def __init__(self, items: list[Token], end: int) -> None:
        self.items, self.at, self.end = items, 0, end

    def peek(self) -> Token | None:
        return self.items[self.at] if self.at < len(self.items) else None

    def fail(self, reason: str) -> LogicSyntaxError:
        token = self.peek()
        found = f"{token.text!r}" if token else "the end of the line"
        return LogicSyntaxError(f"{reason}, found {found}",
                                token.column if token else self.end)

    def expression(self) -> Node:
        node = self.level(0)
        if self.peek() is not None:
            raise self.fail("expected an operator or the end of the line")
        return node

    def level(self, k: int) -> Node:
        if k == len(LEVELS):
            return self.unary()
        family = LEVELS[k]
        operands = [self.level(k + 1)]
        kind: str | None = None
        while (token := self.peek()) is not None and not token.name and token.text in family:
            this = family[token.text]
            if kind is not None and this != kind:
                raise LogicSyntaxError(
                    f"{kind!r} and {this!r} mixed without parentheses (schemdraw would "
                    f"draw one {kind.upper()} gate): add parentheses", token.column)
            kind = this
            self.at += 1
            operands.append(self.level(k + 1))
        return Gate(kind, tuple(operands)) if kind else operands[0]

    def unary(self) -> Node:
        token = self.peek()
        if token is None or token.name or token.text not in NOT_TOKENS:
            return self.primary()
        self.at += 1
        after = self.peek()
        if after is not None and not after.name and after.text in NOT_TOKENS:
            raise LogicSyntaxError("a double negation (schemdraw draws no gate for it): "
                                   "leave both out", token.column)
        operand = self.primary()
        if isinstance(operand, Input):
            return Gate("not", (operand,))
        if operand.type == "not":
            raise LogicSyntaxError("a double negation (schemdraw draws no gate for it): "
                                   "leave both out", token.column)
        return Gate(INVERTED[operand.type], operand.inputs)

    def primary(self) -> Node:
        token = self.peek()
        if token is not None and token.name:
            self.at += 1
            return Input(token.text)
        if token is not None and token.text in CONSTANTS:
            self.at += 1
            return Input(token.text, constant=True)
        if token is not None and token.text == "(":
            self.at += 1
            node = self.level(0)
            closing = self.peek()
            if closing is None or closing.text != ")":
                raise self.fail("expected ')'")
            self.at += 1
            return node
        raise self.fail("expected a name, true, false, 'not' or '('")


def parse_line(line: str) -> tuple[str | None, Gate]:
    """(output name or None, its gate) of one line that holds an output
    (LogicSyntaxError when it does not read)."""
    items = tokens(line)
    name: str | None = None
    if len(items) >= 2 and items[1].text == "=":
        if not items[0].name:
            raise LogicSyntaxError(f"an output's name, not {items[0].text!r}, goes before '='",
                                   items[0].column)
        name, items = items[0].text, items[2:]
    equals = next((t for t in items if t.text == "="), None)
    if equals is not None:
        raise LogicSyntaxError("'=' only after an output's name at the start of a line",
                               equals.column)
    end = items[-1].column + len(items[-1].text) if items else 1
    node = _Parser(items, end).expression()
    if isinstance(node, Input):
        raise LogicSyntaxError(f"{node.name!r} alone is no gate: an output needs one at least",
                               items[0].column)
    return name, node


def expression_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) of each line of `text` that holds an expression (not blank,
    not only a comment)."""
    return [(number, line)
            for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), 1)
            if line.strip() and not line.lstrip().startswith(("#", "//"))]


def read_bool(text: str) -> list[Parsed[Circuit]]:
    """The circuit of a `.bool` file (one `Parsed`, never raising): its outputs read
    without error, and a diagnostic for each line that does not read and for each limit
    or naming rule broken."""
    outputs: list[Output] = []
    lines: list[tuple[int, str]] = []
    problems: list[Diagnostic] = []
    found = expression_lines(text)
    if len(found) > MAX_OUTPUTS:
        number, line = found[MAX_OUTPUTS]
        return [Parsed(0, 1, "logic", "logic", Circuit(()), (Diagnostic(
            number, line, f"{len(found)} outputs, over the {MAX_OUTPUTS} read"),))]
    for number, line in found:
        try:
            name, gate = parse_line(line)
        except LogicSyntaxError as exc:
            problems.append(Diagnostic(number, line, exc.reason, "error", exc.column))
            continue
        outputs.append(Output(name or "", gate))
        lines.append((number, line))
    circuit = Circuit(tuple(outputs))
    problems += _rules(circuit, lines)
    if not lines and not problems:
        problems.append(Diagnostic(1, text[:120], "no Boolean expression"))
    return [Parsed(0, 1, "logic", "logic", circuit, tuple(problems))]


def _rules(circuit: Circuit, lines: list[tuple[int, str]]) -> list[Diagnostic]:
    """The file's naming rules and limits broken, each at the line that breaks it."""
    out: list[Diagnostic] = []
    seen: set[str] = set()
    variables = set(circuit.variables())
    for output, (number, line) in zip(circuit.outputs, lines, strict=True):
        if not output.name and len(lines) > 1:
            out.append(Diagnostic(number, line, "an output without a name: with several "
                                  "outputs each is written NAME = expression", column=1))
        elif output.name in seen:
            out.append(Diagnostic(number, line, f"output {output.name!r} given twice", column=1))
        elif output.name in variables:
            out.append(Diagnostic(number, line, f"output {output.name!r} is also an input",
                                  column=1))
        seen.add(output.name)
    first = lines[0] if lines else (1, "")
    count = sum(1 for o in circuit.outputs for _ in gates(o.gate))
    inputs = sum(1 for o in circuit.outputs for _ in terminals(o.gate))
    for what, have, limit in (("gates", count, MAX_GATES),
                              ("input terminals", inputs, MAX_INPUTS),
                              ("variables", len(variables), MAX_VARIABLES)):
        if have > limit:
            out.append(Diagnostic(first[0], first[1], f"{have} {what}, over the {limit} "
                                  "read (a larger circuit is not drawn)"))
    return out
