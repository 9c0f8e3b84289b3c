"""Python literals — strings, bytes, numbers, True/False/None, lists, tuples, dicts and
sets — in answers a scorer once read with `eval` (SADU's scorer, paper 003), read by
the standard library's `ast.literal_eval`, which never evaluates anything.

It accepts what `eval` accepts of literals, including what a hand-written reader would
miss: complex numbers (`1j`), bytes, `set()`, `0o`/`0b` integers, blank lines before the
literal. Text that is not a literal raises ValueError, as do literals nested past
Python's parser limit and integers over its digit limit.

>>> parse_literal("['Customer', \\"Order\\"]")
['Customer', 'Order']
>>> parse_literal("('a', 1), [2.5, -3]")
(('a', 1), [2.5, -3])
>>> parse_literal("[Customer, Order]")
Traceback (most recent call last):
ValueError: not a literal: '[Customer, Order]'
"""

from __future__ import annotations

import ast
from typing import Any


def parse_literal(text: str) -> Any:
    """The Python literal `text` (leading spaces and tabs allowed, as `eval` allows);
    ValueError when it is not one."""
    try:
        return ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        # a name or call (ValueError), an unhashable key (TypeError), a syntax error,
        # nesting past the parser's limit
        raise ValueError(f"not a literal: {text[:40]!r}") from None
