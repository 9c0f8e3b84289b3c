"""Exit codes and progress, shared by every command (the CLI's and those a benchmark
contributes).

Progress goes to stderr: a bar on a terminal; elsewhere (CI, `nohup`, a Ray driver) a
line every few seconds (`DIAGBENCH_PROGRESS_SECONDS`, default 5) with the count, rate,
time left and errors, and a last one when the phase ends, if a line was shown; nothing
with `diagbench --quiet`. Phases of 20 items or fewer show nothing.

Exit codes: 0 success; 1 some item has errors (diagnostics, invalid renders,
failed calls above the allowed rate); 2 usage error; 3 some input could not be
used (the others are still processed); 4 internal error.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any, TextIO

import click

EXIT_OK, EXIT_DIAGNOSTICS, EXIT_USAGE, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3, 4


#: Where `diagbench --quiet` is kept (the click context's `meta`).
QUIET = "diagbench.quiet"
_SHOWN_ABOVE = 20


def progress_bar(length: int, label: str) -> Any:
    """Progress of a phase of `length` items on stderr: a bar on a terminal, lines
    elsewhere (see the module's docstring); `update(n, item)` counts an item whose
    `status` is "error" as an error."""
    context = click.get_current_context(silent=True)
    quiet = bool(context and context.meta.get(QUIET))
    if sys.stderr.isatty() or quiet or length <= _SHOWN_ABOVE:
        return click.progressbar(length=length, label=label, file=sys.stderr,
                                 hidden=quiet or not sys.stderr.isatty()
                                 or length <= _SHOWN_ABOVE)
    interval = float(os.environ.get("DIAGBENCH_PROGRESS_SECONDS", "5"))
    return ProgressLines(length, label, interval, sys.stderr)


class ProgressLines:
    """Progress as lines: one at most every `interval` seconds while items come in,
    and a last one at the end if any was written."""

    def __init__(self, length: int, label: str, interval: float, stream: TextIO,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.length, self.label, self.interval, self.stream = length, label, interval, stream
        self.clock = clock
        self.done = self.errors = self.written = 0
        self.start = self.last = clock()

    def __enter__(self) -> ProgressLines:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self.written:
            self._write(self.clock(), final=True)

    def update(self, n: int, item: object = None) -> None:
        self.done += n
        if getattr(item, "status", None) == "error":
            self.errors += 1
        now = self.clock()
        if now - self.last >= self.interval:
            self._write(now, final=False)

    def _write(self, now: float, final: bool) -> None:
        elapsed = now - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        share = 100 * self.done / self.length if self.length else 100.0
        if final:
            timing = f"in {duration(elapsed)}"
        else:
            left = (self.length - self.done) / rate if rate > 0 else None
            timing = f"ETA {duration(left) if left is not None else '?'}"
        errors = "1 error" if self.errors == 1 else f"{self.errors} errors"
        print(f"{self.label}: {self.done}/{self.length} ({share:.0f} %), {rate:.1f}/s, "
              f"{timing}, {errors}", file=self.stream, flush=True)
        self.last = now
        self.written += 1


def duration(seconds: float) -> str:
    """`seconds` for people: "42 s", "3 min 05 s", "2 h 07 min"."""
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    return f"{whole // 3600} h {whole % 3600 // 60:02d} min"
