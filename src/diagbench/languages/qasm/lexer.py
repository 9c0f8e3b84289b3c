"""OpenQASM 2's tokens (the language's paper, Cross et al. 2017, arXiv:1707.03429,
§3 and Appendix A), read by diagbench itself, with the line and column of each: the
ground under the independent reader (`spec`) and under the limits checked before
Qiskit is given a source (`limits`).

Tokens: identifiers (a letter, then letters, digits and `_`), whole numbers, reals
(`1.5`, `.5`, `2.`, `1e-05`, `3.2E+4`), strings (`"…"` on one line), the symbols
`; , ( ) [ ] { } + - * / ^ == ->`, white space and `//` comments to the end of the line.
Anything else is an error at its line and column (`LexError`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(r"""
    (?P<space>[ \t\r\n\f\v]+|//[^\n]*)
  | (?P<real>(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|[0-9]+[eE][-+]?[0-9]+)
  | (?P<int>[0-9]+)
  | (?P<ident>[A-Za-z][A-Za-z0-9_]*)
  | (?P<string>"[^"\n]*")
  | (?P<symbol>==|->|[;,()\[\]{}+\-*/^])
""", re.VERBOSE)


class LexError(Exception):
    """A character that starts no token, at a 1-based line and column."""

    def __init__(self, line: int, column: int, reason: str) -> None:
        super().__init__(reason)
        self.line, self.column, self.reason = line, column, reason


@dataclass(frozen=True, slots=True)
class Token:
    """One token: its kind ("ident", "int", "real", "string", "symbol", "end"), its
    text, and the 1-based line and column of its first character."""

    kind: str
    text: str
    line: int
    column: int


def tokens(source: str) -> list[Token]:
    """The tokens of `source`, ending with an "end" token (LexError on a stray
    character)."""
    out: list[Token] = []
    line, line_start, k = 1, 0, 0
    while k < len(source):
        match = _TOKEN.match(source, k)
        if match is None:
            raise LexError(line, k - line_start + 1,
                           f"{source[k]!r} starts no OpenQASM 2 token")
        kind = match.lastgroup or ""
        text = match.group()
        if kind != "space":
            out.append(Token(kind, text, line, k - line_start + 1))
        newlines = text.count("\n")
        if newlines:
            line += newlines
            line_start = k + text.rindex("\n") + 1
        k = match.end()
    out.append(Token("end", "", line, k - line_start + 1))
    return out
