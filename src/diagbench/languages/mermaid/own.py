"""Mermaid's own parser in one warm Node + Chromium process: the page mermaid-cli renders
with (`tools/mermaid/render.mjs --serve`) answers, source after source, with the
diagram's database Mermaid fills when it parses (`mermaid.mermaidAPI.getDiagramFromText`:
a Gantt chart's tasks with the dates Mermaid computed, a mind map's node tree; see
`database` in that file) or with its drawing (SVG), through the same page.

`MermaidOwn` starts the process on first use and keeps it warm; a process that ends or
takes longer than the time-out is killed and the next source starts a new one. The
browser has no network and Mermaid runs with `securityLevel: "strict"` (as for
rendering, `render.mermaid`); its clock is in UTC, so that the dates Mermaid computes
(days of 24 hours) are the same on every machine. `shared()` is the process of this
Python process.
"""

from __future__ import annotations

import atexit
import json
import threading
from dataclasses import dataclass
from typing import Any

from diagbench.render.chromium import CHROMIUM_ENV, chromium
from diagbench.render.mermaid import TOOL, mermaid_cli_version
from diagbench.render.node_browser import START_SECONDS
from diagbench.render.process import ProcessDied, ProcessTimeout, WarmProcess
from diagbench.render.result import EngineMissing

#: The largest source given to Mermaid (characters).
MAX_CHARS = 1_000_000
#: Seconds one source may take (a warm page parses a chart in milliseconds).
TIMEOUT = 20.0
#: The largest answer read back (bytes of one JSON line).
MAX_ANSWER_BYTES = 64_000_000


@dataclass(frozen=True, slots=True)
class OwnAnswer:
    """What Mermaid made of one source: its diagram type (`kind`: "gantt", "mindmap",
    "flowchart-v2", …) and database (`db`, a dict) or drawing (`svg`), or the `error`
    (Mermaid's own message) and the `line` it names (0: none)."""

    kind: str = ""
    db: dict[str, Any] | None = None
    svg: str = ""
    error: str = ""
    line: int = 0

    @property
    def ok(self) -> bool:
        return not self.error


class MermaidOwn:
    """One warm page of Mermaid, asked one source at a time (thread-safe)."""

    def __init__(self, timeout: float = TIMEOUT) -> None:
        self.timeout = timeout
        self._node = WarmProcess(["node", str(TOOL / "render.mjs"), "--serve"],
                                 stderr="keep",
                                 extra_env={CHROMIUM_ENV: chromium(), "TZ": "UTC"})
        self._lock = threading.Lock()
        self._sequence = 0

    @property
    def started(self) -> int:
        """Processes started, for tests and benchmarks."""
        return self._node.started

    def read(self, code: str) -> OwnAnswer:
        """The diagram's database Mermaid fills when it parses `code`."""
        return self._request("read", code)

    def svg(self, code: str) -> OwnAnswer:
        """Mermaid's drawing of `code`, from the same page."""
        return self._request("svg", code)

    def _request(self, op: str, code: str) -> OwnAnswer:
        if len(code) > MAX_CHARS:
            return OwnAnswer(error=f"Mermaid source of {len(code):,} characters not read: "
                                   f"over the {MAX_CHARS:,}-character limit")
        try:
            mermaid_cli_version()
        except EngineMissing as exc:
            return OwnAnswer(error=str(exc))
        with self._lock:
            return self._ask(op, code)

    def _ask(self, op: str, code: str) -> OwnAnswer:
        self._sequence += 1
        ident = str(self._sequence)
        request = json.dumps({"id": ident, "op": op, "code": code,
                              "timeout_ms": int(self.timeout * 1000)}).encode() + b"\n"
        try:
            # a fresh browser: wait until its page is ready
            if self._node.ensure() and \
                    not json.loads(self._node.read_line(START_SECONDS)).get("ready"):
                raise ValueError("no ready line")
            self._node.send(request, self.timeout)
            answer = json.loads(self._node.read_line(self.timeout + START_SECONDS / 4,
                                                     MAX_ANSWER_BYTES))
            if answer.get("id") != ident:
                raise ValueError("answer out of step")
        except ProcessTimeout:
            return OwnAnswer(error=f"Mermaid took longer than {self.timeout:g} s: stopped")
        except (ProcessDied, OSError, ValueError):
            why = (self._node.stderr_tail().strip().splitlines() or [""])[-1][:200]
            self.close()
            return OwnAnswer(error="Mermaid's process stopped while reading this source"
                                   + (f": {why}" if why else ""))
        if not answer["ok"]:
            return OwnAnswer(error=answer["error"] or "Mermaid refused the source",
                             line=answer["line"] or 0)
        return OwnAnswer(answer.get("kind", ""), answer.get("db"), answer.get("svg", ""))

    def close(self) -> None:
        """Stop the process (the next source starts a new one)."""
        self._node.close()


_SHARED: list[MermaidOwn] = []
_SHARED_LOCK = threading.Lock()


def shared() -> MermaidOwn:
    """The warm Mermaid page of this Python process, stopped at exit."""
    with _SHARED_LOCK:
        if not _SHARED:
            _SHARED.append(MermaidOwn())
            atexit.register(_SHARED[0].close)
    return _SHARED[0]
