"""Another writing of the same ABC tune (`Abc.rewrite`): the unit note length halved
(`L:1/8` → `L:1/16`) and every written length doubled (`A` → `A2`, `B3/2` → `B3`,
`c/` → `c`), so that every note keeps its duration and abcm2ps draws the same score.

A tune is rewritten only when its header sets `L:` and its body does not change it
(the default unit depends on the meter); otherwise there is no rewrite (None).
Left as written: annotations, decorations, inline fields, comments, field lines
(`w:` lyrics, `V:`), a chord's notes (its length after `]` is doubled), tuplet
numbers (`(3`), endings (`|1`, `[2`) and the bar counts of multi-measure rests (`Z4`).
"""

from __future__ import annotations

import re
from fractions import Fraction

_FIELD_LINE = re.compile(r"^[A-Za-z+]:")
_UNIT = re.compile(r"^L:\s*1/(\d+)\s*$")
_LENGTH = re.compile(r"\d*(?:/\d+|/+)?")
_SKIP = {'"': '"', "!": "!", "+": "+"}


def halve_unit(tune: str) -> str | None:
    """`tune` with its unit note length halved and its lengths doubled, or None (see the
    module's docstring)."""
    lines = tune.split("\n")
    body = next((k + 1 for k, line in enumerate(lines) if line.startswith("K:")), None)
    units = [k for k, line in enumerate(lines[:body]) if _UNIT.match(line)]
    if body is None or len(units) != 1 or any(
            line.startswith("L:") or "[L:" in line for line in lines[body:]):
        return None
    unit = _UNIT.match(lines[units[0]])
    assert unit is not None
    lines[units[0]] = f"L:1/{2 * int(unit.group(1))}"
    for k in range(body, len(lines)):
        if not _FIELD_LINE.match(lines[k]) and not lines[k].startswith("%"):
            lines[k] = _doubled(lines[k])
    return "\n".join(lines)


def _doubled(line: str) -> str:
    """One line of music with every note's, rest's and chord's length doubled."""
    out: list[str] = []
    k = 0
    while k < len(line):
        char = line[k]
        if char in _SKIP or (char == "[" and re.match(r"\[[A-Za-z]:", line[k:])):
            close = line.find(_SKIP.get(char, "]"), k + 1)
            end = len(line) if close < 0 else close + 1
        elif char == "%":
            end = len(line)
        elif char == "[" and line.find("]", k) > 0 and not line[k + 1:k + 2].isdigit():
            end = line.find("]", k) + 1  # a chord: its notes as written, its length doubled
            length = _LENGTH.match(line, end)
            assert length is not None
            out.append(line[k:end] + _twice(length.group()))
            k = length.end()
            continue
        elif char == "(" or char in "|:[" or char in "ZX":  # tuplet, ending, bar count
            end = k + 1
            while end < len(line) and (line[end].isdigit() or (
                    line[end] in ",-:" and char == "(" and end + 1 < len(line)
                    and line[end + 1].isdigit())):
                end += 1
        elif char in "ABCDEFGabcdefgzx":
            end = k + 1
            while end < len(line) and line[end] in ",'":
                end += 1
            length = _LENGTH.match(line, end)
            assert length is not None
            out.append(line[k:end] + _twice(length.group()))
            k = length.end()
            continue
        else:
            end = k + 1
        out.append(line[k:end])
        k = end
    return "".join(out)


def _twice(length: str) -> str:
    """A written length doubled: "" → "2", "3/2" → "3", "/" → "", "//" → "/"."""
    number, _, rest = length.partition("/")
    value = Fraction(int(number or 1))
    if "/" in length:
        value /= int(rest) if rest.isdigit() else 2 ** (length.count("/"))
    value *= 2
    if value.denominator == 1:
        return "" if value == 1 else str(value.numerator)
    return ("" if value.numerator == 1 else str(value.numerator)) + f"/{value.denominator}"
