"""The reference BPMN model, bpmn-moddle, in one long-lived Node process.

`tools/bpmn/read.mjs` reads one JSON request a line on its input and answers one JSON
line: bpmn-moddle's model of the document, its warnings, or its error with line and
column (the fields are listed in that file). `Moddle` starts the process on first use
(a `render.process` warm process: an empty jail folder that is its home, a minimal
environment, a bounded heap, a time-out on every read) and keeps it warm for every
later document; a process that ends, falls out of step or takes longer than the
time-out is killed and the next document starts a new one. Documents over `MAX_CHARS`
are refused without a process. `shared()` is the process of this Python process.
"""

from __future__ import annotations

import atexit
import json
import shutil
import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from diagbench.render.process import ProcessDied, ProcessTimeout, WarmProcess

TOOL = Path(__file__).resolve().parents[4] / "tools" / "bpmn"
#: The largest document read (characters).
MAX_CHARS = 2_000_000
#: The largest answer read back (bytes of one JSON line).
MAX_ANSWER_BYTES = 64_000_000
#: Seconds one document may take, and on top for the first (Node starting).
TIMEOUT = 20.0
START_TIMEOUT = 60.0
#: Node's heap limit (MB).
MAX_HEAP_MB = 1024


class ToolMissing(RuntimeError):
    """Node or the pinned BPMN tool (tools/bpmn) is not installed."""


@dataclass(frozen=True, slots=True)
class ModdleDiagnostic:
    """An error or warning of bpmn-moddle: its message, 1-based line and column (0:
    not given)."""

    message: str
    line: int = 0
    column: int = 0


@dataclass(frozen=True, slots=True)
class ModdleAnswer:
    """What bpmn-moddle made of one document: its `model` (dict, see
    tools/bpmn/read.mjs) and warnings, or None and the `errors` why not."""

    model: dict[str, Any] | None
    errors: tuple[ModdleDiagnostic, ...] = ()
    warnings: tuple[ModdleDiagnostic, ...] = ()


@cache
def tool_version(package: str) -> str:
    """The installed version of `package` in tools/bpmn; ToolMissing when it or Node is
    absent."""
    installed = TOOL / "node_modules" / package / "package.json"
    if shutil.which("node") is None or not installed.is_file():
        raise ToolMissing(f"BPMN needs node and {package} in tools/bpmn: "
                          "bash scripts/setup.sh installs them")
    version: str = json.loads(installed.read_text(encoding="utf-8"))["version"]
    return version


def _diagnostics(items: list[dict[str, Any]]) -> tuple[ModdleDiagnostic, ...]:
    return tuple(ModdleDiagnostic(str(d["message"]), d["line"] or 0, d["column"] or 0)
                 for d in items)


def _refused(reason: str) -> ModdleAnswer:
    return ModdleAnswer(None, (ModdleDiagnostic(reason),))


class Moddle:
    """One warm bpmn-moddle process, reading one document at a time (thread-safe)."""

    def __init__(self, timeout: float = TIMEOUT) -> None:
        self.timeout = timeout
        self._node = WarmProcess(["node", f"--max-old-space-size={MAX_HEAP_MB}",
                                  str(TOOL / "read.mjs")])
        self._lock = threading.Lock()
        self._sequence = 0

    @property
    def started(self) -> int:
        """Processes started, for tests and benchmarks."""
        return self._node.started

    def read(self, code: str) -> ModdleAnswer:
        """bpmn-moddle's answer for `code`; a refusal when it is too big, the tool is
        missing, or its process times out or dies."""
        if len(code) > MAX_CHARS:
            return _refused(f"BPMN document of {len(code):,} characters not read: over "
                            f"the {MAX_CHARS:,}-character limit")
        with self._lock:
            try:
                tool_version("bpmn-moddle")
            except ToolMissing as exc:
                return _refused(str(exc))
            return self._ask(code)

    def _ask(self, code: str) -> ModdleAnswer:
        self._sequence += 1
        ident = str(self._sequence)
        request = json.dumps({"id": ident, "code": code}).encode("utf-8") + b"\n"
        try:
            wait = self.timeout + (START_TIMEOUT if self._node.ensure() else 0.0)
            self._node.send(request, wait)
            answer = json.loads(self._node.read_line(wait, MAX_ANSWER_BYTES))
            if answer.get("id") != ident:
                raise ValueError("answer out of step")
        except ProcessTimeout:
            return _refused(f"bpmn-moddle took longer than {self.timeout:g} s: stopped")
        except (ProcessDied, OSError, ValueError):
            self.close()
            return _refused("bpmn-moddle's process stopped while reading this document")
        if not answer["ok"]:
            return ModdleAnswer(None, _diagnostics(answer["diagnostics"]))
        return ModdleAnswer(answer["model"], warnings=_diagnostics(answer["warnings"]))

    def close(self) -> None:
        """Stop the process (the next document starts a new one)."""
        self._node.close()


_SHARED: list[Moddle] = []
_SHARED_LOCK = threading.Lock()


def shared() -> Moddle:
    """The warm bpmn-moddle process of this Python process, stopped at exit."""
    with _SHARED_LOCK:
        if not _SHARED:
            _SHARED.append(Moddle())
            atexit.register(_SHARED[0].close)
    return _SHARED[0]
