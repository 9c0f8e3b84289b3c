"""The numbering state of `autonumber` statements in a sequence diagram."""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import count, repeat

_ARGS = re.compile(
    r'^(?:(?P<resume>resume)\s*)?(?P<start>\d+(?:[.;,:]\d+)*)?\s*(?P<step>\d+)?\s*'
    r'(?:"(?P<format>[^"]*)")?\s*$',
    re.IGNORECASE,
)
_INC = re.compile(r"^inc\s+(?P<level>[A-Za-z])$", re.IGNORECASE)
_DIGITS = re.compile(r"[0#]+")
_TAGS = re.compile(r"<[^>]*>")


class _Decimals(dict[int, str]):
    """`str(n)` of the numbers asked for, the first 1,024 kept (memory stays flat): a lookup
    costs a third of a conversion."""

    def __missing__(self, n: int) -> str:
        text = str(n)
        if len(self) < 1024:
            self[n] = text
        return text


_DECIMALS = _Decimals()


class Autonumber:
    """Tracks `autonumber` and gives each message its number (None when off).

    Supports start, step, format (`"<b>[000]"`: a run of 0/# is the number,
    zero-padded to its length), `stop`, `resume [step] [format]`, dotted
    multi-level starts (`1.1.1`, last level counts) and `inc A`/`inc B`.
    `numbers` gives the numbers of the next messages, up to the next command (a plain
    count runs in C, its numbers' text looked up: `next(numbers)` costs a fraction of a method
    call).
    """

    def __init__(self) -> None:
        self.active = False
        self.levels = [1]
        self.separator = "."
        self.step = 1
        self.format: str | None = None
        self.numbers: Iterator[str | None] = repeat(None)
        self._counter: Iterator[int] | None = None  # the plain count behind `numbers`

    def command(self, args: str) -> bool:
        """Apply the arguments of one `autonumber` line; False when they are not understood."""
        if self._counter is not None:  # the plain count's next number, back into `levels`
            self.levels[-1] = next(self._counter)
            self._counter = None
        understood = self._command(args.strip())
        if not self.active:
            self.numbers = repeat(None)
        elif len(self.levels) == 1 and self.format is None:
            self._counter = count(self.levels[-1], self.step)
            self.numbers = map(_DECIMALS.__getitem__, self._counter)
        else:
            self.numbers = iter(self._next, None)  # never None while active
        return understood

    def _command(self, args: str) -> bool:
        """`command` on the state as it stands."""
        if args.lower() == "stop":
            self.active = False
            return True
        inc = _INC.match(args)
        if inc:
            level = ord(inc.group("level").upper()) - ord("A")
            while len(self.levels) <= level:
                self.levels.append(1)
            self.levels[level] += 1
            self.levels[level + 1:] = [1] * (len(self.levels) - level - 1)
            return True
        m = _ARGS.match(args)
        if not m:
            return False
        self.active = True
        if m.group("start"):
            start = m.group("start")
            self.separator = next((c for c in start if not c.isdigit()), ".")
            self.levels = [int(x) for x in re.split(r"[.;,:]", start)]
        elif not m.group("resume"):
            self.levels = [1]
        if m.group("step"):
            self.step = int(m.group("step"))
        elif not m.group("resume"):
            self.step = 1
        if m.group("format") is not None or not m.group("resume"):
            self.format = m.group("format")
        return True

    def _next(self) -> str:
        """The next number when numbering is on, counting it (`levels` kept up to date)."""
        levels = self.levels
        last = levels[-1]
        levels[-1] = last + self.step
        if len(levels) == 1:
            prefix, number = "", str(last)
        else:
            prefix = self.separator.join(map(str, levels[:-1]))
            number = f"{prefix}{self.separator}{last}"
        if self.format is None:
            return number
        text = _TAGS.sub("", self.format)
        digits = _DIGITS.search(text)
        if digits is None:
            return text + number
        padded = number.zfill(digits.group().count("0")) if not prefix else number
        return text[: digits.start()] + padded + text[digits.end():]
