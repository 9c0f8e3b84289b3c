"""The value of a SPICE parameter expression (`{2*rval}`, `'vp/2'`, `1.5 * a`) when it is
arithmetic: numbers (with SPICE's scale suffixes), defined parameters, `+ - * /`, `**`
or `^`, unary signs and brackets. Evaluated by a small recursive-descent parser of
ours (nothing is handed to Python's `eval`); anything else (a function, a comparison,
an unknown name) gives None, and the reader keeps the expression's text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from diagbench.languages.spice.model import spice_number

_TOKENS = re.compile(r"\s*(\*\*|[-+*/^()]|(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?[a-zµ]*|"
                     r"[a-z_]\w*)")
#: How deep brackets and signs may nest.
MAX_DEPTH = 50


def evaluate(text: str, names: Callable[[str], float | None]) -> float | None:
    """The value of `text`, `names` giving each parameter's value (None: unknown)."""
    tokens: list[str] = []
    at = 0
    text = text.strip().lower()
    while at < len(text):
        found = _TOKENS.match(text, at)
        if found is None or not found.group(1):
            return None
        tokens.append(found.group(1))
        at = found.end()
    parser = _Parser(tokens, names)
    try:
        value = parser.sum(0)
    except (ValueError, ZeroDivisionError, OverflowError):
        return None
    return value if parser.at == len(tokens) else None


def evaluate_with(text: str, params: Mapping[str, str]) -> float | None:
    """`evaluate` with parameters given as their written values (each evaluated in
    turn, a cycle or a too deep chain giving None)."""
    def value(name: str, depth: int = 0) -> float | None:
        written = params.get(name)
        if written is None or depth > MAX_DEPTH:
            return None
        return evaluate(written.strip("{}'"), lambda n: value(n, depth + 1))

    return evaluate(text.strip("{}'"), value)


class _Parser:
    """sum := product (('+'|'-') product)*; product := power (('*'|'/') power)*;
    power := unary (('**'|'^') power)?; unary := ('+'|'-') unary | atom."""

    def __init__(self, tokens: list[str], names: Callable[[str], float | None]) -> None:
        self.tokens, self.names, self.at = tokens, names, 0

    def _peek(self) -> str:
        return self.tokens[self.at] if self.at < len(self.tokens) else ""

    def _take(self) -> str:
        token = self._peek()
        if not token:
            raise ValueError("the expression ends early")
        self.at += 1
        return token

    def sum(self, depth: int) -> float:
        value = self.product(depth)
        while self._peek() in ("+", "-"):
            value = value + self.product(depth) if self._take() == "+" \
                else value - self.product(depth)
        return value

    def product(self, depth: int) -> float:
        value = self.power(depth)
        while self._peek() in ("*", "/"):
            value = value * self.power(depth) if self._take() == "*" \
                else value / self.power(depth)
        return value

    def power(self, depth: int) -> float:
        value = self.unary(depth)
        if self._peek() in ("**", "^"):
            self._take()
            return float(value ** self.power(depth + 1))
        return value

    def unary(self, depth: int) -> float:
        if depth > MAX_DEPTH:
            raise ValueError("nested too deep")
        token = self._take()
        if token in ("+", "-"):
            value = self.unary(depth + 1)
            return value if token == "+" else -value
        if token == "(":
            value = self.sum(depth + 1)
            if self._take() != ")":
                raise ValueError("a bracket is not closed")
            return value
        number = spice_number(token)
        if number is None and self._peek() != "(":
            number = self.names(token)
        if number is None:
            raise ValueError(f"{token} has no value")
        return number
