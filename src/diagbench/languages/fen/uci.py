"""A small client of Stockfish (GPL: run as a separate program, spoken to in UCI, the
Universal Chess Interface, never imported): the best moves of a position and the board
Stockfish reads from a FEN.

Deterministic: one thread, a fixed hash table cleared by `ucinewgame` before each
position, and a search bounded by a node count (or a depth), so the same position gives
the same lines on every run. `analyse` asks for two principal variations (`MultiPV 2`)
so that the margin between the best move and the second best can be measured. Only
give it positions the FEN reader accepts: Stockfish may crash or hang on illegal ones
(no king, …); it runs as a `render.process` warm process (an empty jail folder, a
minimal environment, its memory capped) and every answer is awaited with a time-out,
after which the process is killed and `UciError` raised.

`shared_stockfish` lends a Stockfish of the Python process to one caller at a time:
an idle one (started on first use, kept for the next board rather than one started
per board), or, while every one is lent, another one started (callers searching side
by side, each in its own thread, each get their own); after an error the one lent is
ended and the next caller gets another.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from types import TracebackType

from diagbench.render.process import ProcessDied, ProcessTimeout, WarmProcess

#: Where Debian installs Stockfish (its package puts it under /usr/games).
STOCKFISH = "/usr/games/stockfish"
HASH_MB = 16
#: Stockfish's address-space limit (its hash table is `HASH_MB`; one search thread).
MEMORY_BYTES = 1024**3


class UciError(RuntimeError):
    """Stockfish is missing, died, or did not answer in time."""


@dataclass(frozen=True, slots=True)
class Line:
    """One principal variation: its first `move` (UCI coordinates, "e2e4", "e7e8q"), its
    score from the side to move's view — centipawns (`cp`) or moves to mate (`mate`,
    negative: being mated) — and the depth searched."""

    move: str
    cp: int | None
    mate: int | None
    depth: int

    @property
    def value(self) -> int:
        """The score as one number: a mate in n is worth 100 000 − n centipawns (being
        mated in n: −100 000 + n)."""
        if self.mate is not None:
            return (100_000 - abs(self.mate)) * (1 if self.mate > 0 else -1)
        return self.cp or 0


@dataclass(frozen=True, slots=True)
class Display:
    """What Stockfish's `d` command prints of a position: its FEN and the squares of the
    pieces giving check."""

    fen: str
    checkers: tuple[str, ...]


def stockfish_path() -> str | None:
    """The Stockfish program, or None when it is not installed."""
    return shutil.which("stockfish") or shutil.which(STOCKFISH)


class Stockfish:
    """One Stockfish process (`with Stockfish() as engine: …`)."""

    def __init__(self, path: str | None = None, timeout: float = 30.0) -> None:
        program = path or stockfish_path()
        if program is None:
            raise UciError("Stockfish not found: install the stockfish package")
        self.timeout = timeout
        self._process = WarmProcess([program], memory_bytes=MEMORY_BYTES)
        self.name = ""
        self._send("uci")
        for line in self._until("uciok"):
            if line.startswith("id name "):
                self.name = line.removeprefix("id name ")
        self._send("setoption name Threads value 1")
        self._send(f"setoption name Hash value {HASH_MB}")

    def _send(self, command: str) -> None:
        if not self._process.running and self._process.started:
            raise UciError("Stockfish stopped")  # after a time-out: a new one is needed
        try:
            self._process.send(command.encode() + b"\n", self.timeout)
        except (ProcessDied, ProcessTimeout, OSError) as exc:
            self.close()
            raise UciError(f"Stockfish stopped: {exc}") from None

    def _until(self, prefix: str) -> list[str]:
        """The lines Stockfish prints up to and including the first starting with
        `prefix`."""
        out = []
        while True:
            try:
                line = self._process.read_line(self.timeout).decode("utf-8", "replace")
            except ProcessTimeout:
                raise UciError(f"Stockfish gave no {prefix!r} within {self.timeout:g} s") \
                    from None
            except ProcessDied:
                raise UciError(f"Stockfish stopped before {prefix!r}") from None
            out.append(line.rstrip("\r"))
            if line.startswith(prefix):
                return out

    def _position(self, fen: str) -> None:
        self._send("ucinewgame")
        self._send(f"position fen {fen.strip()}")

    def display(self, fen: str) -> Display:
        """The board Stockfish reads from `fen` (its `d` command)."""
        self._position(fen)
        self._send("d")
        lines = self._until("Checkers:")
        read = next((x.removeprefix("Fen: ") for x in lines if x.startswith("Fen: ")), "")
        return Display(read, tuple(lines[-1].removeprefix("Checkers:").split()))

    def analyse(self, fen: str, nodes: int | None = 200_000, depth: int | None = None,
                lines: int = 2) -> list[Line]:
        """The best `lines` moves of `fen` (best first) from a search of `nodes` nodes (or
        to `depth`): each move's last complete evaluation at the deepest iteration that
        gave them all. Fewer lines when there are fewer legal moves; none when there are
        none (mate or stalemate)."""
        self._send(f"setoption name MultiPV value {lines}")
        self._send("isready")
        self._until("readyok")
        self._position(fen)
        self._send(f"go depth {depth}" if depth is not None else f"go nodes {nodes}")
        by_depth: dict[int, dict[int, Line]] = {}
        output = self._until("bestmove")
        for text in output:
            words = text.split()
            if words[:1] != ["info"] or "pv" not in words or "score" not in words \
                    or "lowerbound" in words or "upperbound" in words:
                continue
            depth_searched = int(_after(words, "depth") or 0)
            kind, value = words[words.index("score") + 1:words.index("score") + 3]
            line = Line(words[words.index("pv") + 1], int(value) if kind == "cp" else None,
                        int(value) if kind == "mate" else None, depth_searched)
            by_depth.setdefault(depth_searched, {})[int(_after(words, "multipv") or 1)] = line
        best = output[-1].split()[1] if len(output[-1].split()) > 1 else "(none)"
        if best == "(none)" or not by_depth:
            return []
        wanted = max(len(found) for found in by_depth.values())
        deepest = max(d for d, found in by_depth.items() if len(found) == wanted)
        return [by_depth[deepest][k] for k in sorted(by_depth[deepest])]

    def close(self) -> None:
        if self._process.running:
            with contextlib.suppress(ProcessDied, ProcessTimeout):
                self._process.write(b"quit\n", 2)
        self._process.finish(2)

    def __enter__(self) -> Stockfish:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


_IDLE: dict[int, list[Stockfish]] = {}  # by the process id: a forked child starts its own
_IDLE_LOCK = threading.Lock()


@contextlib.contextmanager
def shared_stockfish() -> Iterator[Stockfish]:
    """An idle Stockfish of the process, or a new one while every one is lent (see the
    module), for this caller alone; UciError when it cannot be started. An error inside
    (a `UciError`, or anything cutting a search short) ends it."""
    with _IDLE_LOCK:
        idle = _IDLE.setdefault(os.getpid(), [])
        engine = idle.pop() if idle else None
    if engine is None:
        engine = Stockfish()
        atexit.register(engine.close)
    try:
        yield engine
    except BaseException:
        engine.close()
        raise
    with _IDLE_LOCK:
        _IDLE[os.getpid()].append(engine)


def end_idle() -> None:
    """End this process's idle Stockfish processes (a later search starts a new one)."""
    with _IDLE_LOCK:
        idle, _IDLE[os.getpid()] = _IDLE.get(os.getpid(), []), []
    for engine in idle:
        engine.close()


def _after(words: list[str], key: str) -> str | None:
    """The word after `key` in a UCI info line."""
    return words[words.index(key) + 1] if key in words else None
