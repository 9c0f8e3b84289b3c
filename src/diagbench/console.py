"""Exit codes and progress, shared by every command (the CLI's and those a benchmark
contributes).

Progress goes to stderr: a bar on a terminal; elsewhere (CI, `nohup`, a Ray driver) a
line every few seconds (`DIAGBENCH_PROGRESS_SECONDS`, default 5) with the count, rate,
time left and errors, and a last one when the phase ends, if a line was shown; nothing
with `diagbench --quiet`. Phases of 20 items or fewer show nothing. The time left
(`Eta`) counts from the first item done (a slow start — an engine warming up, the
first call — is not taken for the pace) and is shown once 5 % of the items are done.

Exit codes: 0 success; 1 some item has errors (diagnostics, invalid renders, a run
whose failed calls pass --fail-on-error or whose every call failed, a build that falls
short of what was asked); 2 usage error; 3 some input could not be used (a missing or
unreadable file or image, an empty data set, a run whose data cannot be found; the
others are still processed); 4 internal error.
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
        eta = Eta(length)
        bar = click.progressbar(length=length, label=label, file=sys.stderr,
                                hidden=quiet or not sys.stderr.isatty()
                                or length <= _SHOWN_ABOVE, show_eta=False)
        bar.item_show_func = lambda _: eta.text(bar.pos)
        return bar
    interval = float(os.environ.get("DIAGBENCH_PROGRESS_SECONDS", "5"))
    return ProgressLines(length, label, interval, sys.stderr)


class Eta:
    """The time left of a phase of `length` items: the pace counted from the first item
    done, shown once 5 % of the items are done ("ETA ?" before)."""

    def __init__(self, length: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.length, self.clock = length, clock
        self.first: tuple[float, int] | None = None  # (when, items) at the first item done

    def text(self, done: int) -> str:
        now = self.clock()
        if self.first is None:
            if done:
                self.first = (now, done)
            return "ETA ?"
        since, at = self.first
        if done < max(1, 0.05 * self.length) or now <= since or done <= at:
            return "ETA ?"
        return f"ETA {duration((self.length - done) * (now - since) / (done - at))}"


class ProgressLines:
    """Progress as lines: one at most every `interval` seconds while items come in,
    and a last one at the end if any was written."""

    def __init__(self, length: int, label: str, interval: float, stream: TextIO,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.length, self.label, self.interval, self.stream = length, label, interval, stream
        self.clock = clock
        self.done = self.errors = self.written = 0
        self.start = self.last = clock()
        self.eta = Eta(length, clock)

    def __enter__(self) -> ProgressLines:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self.written:
            self._write(self.clock(), final=True)

    def update(self, n: int, item: object = None) -> None:
        self.done += n
        if self.eta.first is None:
            self.eta.text(self.done)
        if getattr(item, "status", None) == "error":
            self.errors += 1
        now = self.clock()
        if now - self.last >= self.interval:
            self._write(now, final=False)

    def _write(self, now: float, final: bool) -> None:
        elapsed = now - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        share = 100 * self.done / self.length if self.length else 100.0
        timing = f"in {duration(elapsed)}" if final else self.eta.text(self.done)
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
