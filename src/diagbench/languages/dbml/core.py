"""The reference DBML parser, @dbml/core, in one long-lived Node process.

`tools/dbml/dbml.mjs` reads one JSON request a line on its input and answers one JSON
line: @dbml/core's model of the source, or its diagnostics with line and column (the
fields are listed in that file). `DbmlCore` starts the process on first use and keeps
it warm for every later source; a process that ends, falls out of step or takes longer
than the time-out is killed and the next source starts a new one. Sources over
`MAX_CHARS` and answers over `MAX_ANSWER_BYTES` are refused without a process; Node
runs with a bounded heap as a `render.process` warm process (an empty jail folder that
is its home, a minimal environment, a time-out on every read). The parser's answers
to the last `KEPT_ANSWERS` sources are kept: a source read again (a build reads each
source, draws it, and its models read it to judge and ask) is answered without Node.

`shared()` is the process of this Python process (a forked child starts its own), used
by the reader `formats.dbml` and the DBML engine `render.dbml`.
"""

from __future__ import annotations

import atexit
import json
import shutil
import subprocess
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from diagbench.render.process import ProcessDied, ProcessTimeout, WarmProcess

TOOL = Path(__file__).resolve().parents[4] / "tools" / "dbml"
#: The largest source given to the parser (characters).
MAX_CHARS = 1_000_000
#: The largest answer read back (bytes of one JSON line).
MAX_ANSWER_BYTES = 64_000_000
#: Seconds one source may take (a warm process reads thousands of lines in milliseconds).
TIMEOUT = 20.0
#: Seconds the first source may take on top: Node starting and loading @dbml/core (about
#: 2 s of CPU; much longer on a busy machine).
START_TIMEOUT = 60.0
#: Node's heap limit (MB).
MAX_HEAP_MB = 1024
#: The sources whose answers are kept (the most recently read).
KEPT_ANSWERS = 256


class ParserMissing(RuntimeError):
    """Node or the pinned @dbml/core is not installed."""


@dataclass(frozen=True, slots=True)
class CoreDiagnostic:
    """One diagnostic of @dbml/core: its message, 1-based line and column (0: unknown)."""

    message: str
    line: int = 0
    column: int = 0


@dataclass(frozen=True, slots=True)
class CoreAnswer:
    """What @dbml/core made of one source: its `model` (dict, see tools/dbml/dbml.mjs;
    read, never changed: a kept answer is shared), or None and the `diagnostics` why
    not."""

    model: dict[str, Any] | None
    diagnostics: tuple[CoreDiagnostic, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return self.model is not None


@cache
def dbml_core_version() -> str:
    """The installed @dbml/core version; ParserMissing when Node or it is absent."""
    installed = TOOL / "node_modules" / "@dbml" / "core" / "package.json"
    if shutil.which("node") is None or not installed.is_file():
        raise ParserMissing("DBML is read by @dbml/core, which needs node and tools/dbml: "
                            "bash scripts/setup.sh installs them")
    version: str = json.loads(installed.read_text(encoding="utf-8"))["version"]
    return version


def _refused(reason: str) -> CoreAnswer:
    return CoreAnswer(None, (CoreDiagnostic(reason),))


class DbmlCore:
    """One warm @dbml/core process, reading one source at a time (thread-safe)."""

    def __init__(self, timeout: float = TIMEOUT) -> None:
        self.timeout = timeout
        self._node = WarmProcess(["node", f"--max-old-space-size={MAX_HEAP_MB}",
                                  str(TOOL / "dbml.mjs")])
        self._lock = threading.Lock()
        self._sequence = 0
        self._kept: OrderedDict[str, CoreAnswer] = OrderedDict()

    @property
    def process(self) -> subprocess.Popen[bytes] | None:
        """The running Node process, if any."""
        return self._node.process

    @property
    def started(self) -> int:
        """Processes started, for tests and benchmarks."""
        return self._node.started

    @property
    def asked(self) -> int:
        """Sources sent to Node (not those answered from the kept answers), for tests
        and benchmarks."""
        return self._sequence

    def read(self, code: str, timeout: float | None = None) -> CoreAnswer:
        """@dbml/core's answer for `code`; a refusal (a diagnostic without line) when it
        is too big, the parser is missing, times out or its process dies."""
        if len(code) > MAX_CHARS:
            return _refused(f"DBML source of {len(code):,} characters not read: over the "
                            f"{MAX_CHARS:,}-character limit")
        with self._lock:
            kept = self._kept.get(code)
            if kept is not None:
                self._kept.move_to_end(code)
                return kept
            try:
                return self._ask(code, self.timeout if timeout is None else timeout)
            except ParserMissing as exc:
                return _refused(str(exc))

    def read_many(self, codes: list[str], timeout: float | None = None) -> list[CoreAnswer]:
        """`read` of each source, in order, in the same warm process."""
        return [self.read(code, timeout) for code in codes]

    def _ask(self, code: str, timeout: float) -> CoreAnswer:
        dbml_core_version()
        self._sequence += 1
        ident = str(self._sequence)
        request = json.dumps({"id": ident, "code": code}).encode("utf-8") + b"\n"
        try:
            extra = START_TIMEOUT if self._node.ensure() else 0.0
            self._node.send(request, timeout + extra)
            answer = json.loads(self._node.read_line(timeout + extra, MAX_ANSWER_BYTES))
            if answer.get("id") != ident:
                raise ValueError("answer out of step")
        except ProcessTimeout:
            return _refused(f"@dbml/core took longer than {timeout:g} s: stopped")
        except (ProcessDied, OSError, ValueError):
            self._node.close()
            return _refused("@dbml/core's process stopped while reading this source")
        read = CoreAnswer(answer["model"]) if answer["ok"] else CoreAnswer(None, tuple(
            CoreDiagnostic(str(d["message"]), d["line"] or 0, d["column"] or 0)
            for d in answer["diagnostics"]))
        self._kept[code] = read  # the parser's answer (never a refusal) is kept
        if len(self._kept) > KEPT_ANSWERS:
            self._kept.popitem(last=False)
        return read

    def close(self) -> None:
        """Stop the process (the next source starts a new one)."""
        with self._lock:
            self._node.close()


_SHARED: list[DbmlCore] = []
_SHARED_LOCK = threading.Lock()


def shared() -> DbmlCore:
    """The warm @dbml/core process of this Python process, stopped at exit."""
    with _SHARED_LOCK:
        if not _SHARED:
            _SHARED.append(DbmlCore())
            atexit.register(_SHARED[0].close)
    return _SHARED[0]
