"""A parser of Python literals — strings, numbers, True/False/None, lists, tuples, dicts
and sets — for answers a scorer once read with `eval` (SADU's scorer, paper 003). It
never evaluates anything: text that is not a literal raises ValueError, where `eval`
would either raise too (names, syntax errors) or run code (calls, arithmetic, which no
answer needs).

>>> parse_literal("['Customer', \\"Order\\"]")
['Customer', 'Order']
>>> parse_literal("('a', 1), [2.5, -3]")
(('a', 1), [2.5, -3])
>>> parse_literal("[Customer, Order]")
Traceback (most recent call last):
ValueError: not a literal at 1: 'Customer, Order]'
"""

from __future__ import annotations

import re
from typing import Any

_NUMBER = re.compile(r"[+-]?(?:0[xX][0-9a-fA-F_]+|(?:\d[\d_]*)?\.?\d[\d_]*(?:[eE][+-]?\d+)?)")
_ESCAPES = {"\\": "\\", "'": "'", '"': '"', "a": "\a", "b": "\b", "f": "\f", "n": "\n",
            "r": "\r", "t": "\t", "v": "\v", "\n": ""}
_KEYWORDS = {"True": True, "False": False, "None": None}


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.depth = 0

    def fail(self) -> ValueError:
        return ValueError(f"not a literal at {self.i}: {self.text[self.i:self.i + 40]!r}")

    def space(self) -> None:
        # inside brackets any whitespace; at the top level spaces, tabs (and line
        # continuations) only, as Python's tokenizer allows
        while self.i < len(self.text):
            c = self.text[self.i]
            if c in " \t\f" or (self.depth and c in "\r\n"):
                self.i += 1
            elif c == "\\" and self.text[self.i + 1:self.i + 2] == "\n":
                self.i += 2
            else:
                return

    def peek(self) -> str:
        self.space()
        return self.text[self.i:self.i + 1]

    def expect(self, char: str) -> None:
        if self.peek() != char:
            raise self.fail()
        self.i += 1

    def top(self) -> Any:
        value = self.sequence("", tuple_if_comma=True)
        while self.i < len(self.text) and self.text[self.i] in " \t\f\r\n":
            self.i += 1
        if self.i != len(self.text):
            raise self.fail()
        return value

    def sequence(self, close: str, tuple_if_comma: bool) -> Any:
        """Comma-separated values up to `close` ('' at the top level)."""
        items = []
        comma = False
        while self.peek() != close and not (close == "" and self.i >= len(self.text)):
            items.append(self.value())
            if self.peek() != ",":
                break
            self.i += 1
            comma = True
        if tuple_if_comma and (comma or not items):
            if not items and close == "":
                raise self.fail()
            return tuple(items)
        if tuple_if_comma:
            return items[0]
        return items

    def value(self) -> Any:
        c = self.peek()
        if c in "[({":
            self.i += 1
            self.depth += 1
            if c == "[":
                result: Any = self.sequence("]", tuple_if_comma=False)
            elif c == "(":
                result = self.sequence(")", tuple_if_comma=True)
            else:
                result = self.braces()
            self.depth -= 1
            self.expect({"[": "]", "(": ")", "{": "}"}[c])
            return result
        if c in "+-" or c.isdigit() or c == ".":
            return self.number()
        word = re.match(r"[A-Za-z_]\w*", self.text[self.i:])
        if word and word.group() in _KEYWORDS and \
                not self.text[self.i + word.end():].lstrip(" \t").startswith(("'", '"')):
            self.i += word.end()
            return _KEYWORDS[word.group()]
        if word or c in "'\"":
            return self.strings()
        raise self.fail()

    def braces(self) -> Any:
        if self.peek() == "}":
            return {}
        first = self.value()
        if self.peek() == ":":
            result: dict[Any, Any] = {}
            key = first
            while True:
                self.expect(":")
                value = self.value()
                try:
                    result[key] = value
                except TypeError:
                    raise self.fail() from None
                if self.peek() != ",":
                    return result
                self.i += 1
                if self.peek() == "}":
                    return result
                key = self.value()
        items = [first]
        while self.peek() == ",":
            self.i += 1
            if self.peek() == "}":
                break
            items.append(self.value())
        try:
            return set(items)
        except TypeError:
            raise self.fail() from None

    def number(self) -> int | float:
        m = _NUMBER.match(self.text, self.i)
        if not m or not m.group().lstrip("+-"):
            raise self.fail()
        text = m.group().replace("_", "")
        self.i = m.end()
        if re.match(r"[A-Za-z_]", self.text[self.i:self.i + 1]):
            raise self.fail()  # 1j, 1L, 3abc
        if text.lstrip("+-").lower().startswith("0x"):
            return int(text, 16)
        if re.fullmatch(r"[+-]?0\d+", text):
            raise self.fail()  # 012 is a syntax error
        return float(text) if any(ch in text for ch in ".eE") else int(text)

    def strings(self) -> str:
        """One string literal or several adjacent ones (concatenated)."""
        parts: list[str] = []
        while True:
            m = re.match(r"([rRuU]?)('''|\"\"\"|'|\")", self.text[self.i:])
            if not m:
                break
            raw = bool(m.group(1)) and m.group(1) in "rR"
            quote = m.group(2)
            self.i += m.end()
            parts.append(self.body(quote, raw))
            self.space()
        if not parts:
            raise self.fail()
        return "".join(parts)

    def body(self, quote: str, raw: bool) -> str:
        out: list[str] = []
        while True:
            if self.i >= len(self.text):
                raise self.fail()
            if self.text.startswith(quote, self.i):
                self.i += len(quote)
                return "".join(out)
            c = self.text[self.i]
            if c == "\n" and len(quote) == 1:
                raise self.fail()
            if c == "\\" and self.i + 1 < len(self.text):
                nxt = self.text[self.i + 1]
                if raw:
                    out.append(c + nxt)
                    self.i += 2
                    continue
                if nxt in _ESCAPES:
                    out.append(_ESCAPES[nxt])
                    self.i += 2
                    continue
                width = {"x": 2, "u": 4, "U": 8}.get(nxt)
                if width:
                    digits = self.text[self.i + 2:self.i + 2 + width]
                    if len(digits) != width or not re.fullmatch(r"[0-9a-fA-F]+", digits):
                        raise self.fail()
                    out.append(chr(int(digits, 16)))
                    self.i += 2 + width
                    continue
                octal = re.match(r"[0-7]{1,3}", self.text[self.i + 1:])
                if octal:
                    out.append(chr(int(octal.group(), 8)))
                    self.i += 1 + octal.end()
                    continue
                out.append(c + nxt)  # an unknown escape stays as written
                self.i += 2
                continue
            out.append(c)
            self.i += 1


def parse_literal(text: str) -> Any:
    """The Python literal `text` (leading spaces and tabs allowed, as `eval` allows);
    ValueError when it is not one."""
    return _Parser(text.lstrip(" \t")).top()
