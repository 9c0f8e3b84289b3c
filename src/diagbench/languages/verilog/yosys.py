"""Yosys and Icarus Verilog, run as separate programs on untrusted Verilog.

Yosys (ISC) reads a source with the recipe `read_verilog; proc; opt` and writes its
netlist as JSON (`write_json`); Icarus Verilog (GPL, `iverilog -t null`) elaborates it
as a second opinion. Each run is `render.programs.run_program`'s: no shell, an empty
temporary folder that is its working folder and HOME, a minimal environment and a
time-out; `prlimit` caps its address space (`MEMORY_BYTES`).

Verilog can read files: `` `include "f" `` and `$readmemh("f", mem)` / `$readmemb`,
which Yosys evaluates while it elaborates (an absolute path reaches any file the user
can read). `unsafe` refuses a source that names either, pastes tokens (`` `` ``) or
uses a macro glued to a name (`$read`M`, with `` `define M memh ``): the two ways a
macro could spell `$readmemh` without writing it; before any program sees it. The
programs then run in a folder holding nothing but the source.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from diagbench.formats.diagnostics import Diagnostic
from diagbench.render.programs import program, program_version, run_program

#: The name the source has in the programs' folder (their messages say `design.v:3:`).
SOURCE = "design.v"
#: Seconds one program may run on one source.
TIMEOUT = 20.0
#: The address space a program may use (bytes).
MEMORY_BYTES = 2 << 30
#: What Yosys runs on a source (the reader's normalisation).
RECIPE = "read_verilog -noblackbox design.v; proc; opt"
_FILE_READS = re.compile(r"`\s*include\b|readmem|``", re.I)
_MACRO = re.compile(r"`[A-Za-z_]\w*")
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$`\\")
_MESSAGE = re.compile(r"^design\.v:(\d+): (ERROR|Warning): (.*)$", re.M)
_BARE_ERROR = re.compile(r"^ERROR: (.*)$", re.M)
_IVERILOG = re.compile(r"^design\.v:(\d+): (?:error: |syntax error)(.*)$", re.M)


@dataclass(frozen=True, slots=True)
class YosysRun:
    """What Yosys made of one source: its JSON netlist (None when it failed) and its
    messages as diagnostics (errors, then its warnings), with their source lines."""

    netlist: dict[str, Any] | None
    diagnostics: tuple[Diagnostic, ...]


def unsafe(lines: list[str]) -> Diagnostic | None:
    """The first place that reads a file (`` `include ``, `$readmemh`, `$readmemb`) or
    may spell one (see `_glued`), as an error at its line; None when there is none."""
    text = "\n".join(lines)
    found = _FILE_READS.search(text)
    if found is not None:
        what = found.group(0).lower()
        why = ("`include reads a file" if "include" in what else
               "$readmemh/$readmemb read a file" if what == "readmem" else
               "token pasting (``) may spell a file read")
        return _at(lines, found.start(), why)
    glued = _glued(text)
    if glued is not None:
        return _at(lines, glued, "a macro written against a name (`$read`M`) may spell a "
                   "file read")
    return None


def _glued(text: str) -> int | None:
    """Where a macro is used glued to a name before or after it (`$read`M`, `` `R`M ``,
    `` `R(x)memh ``), which Yosys's preprocessor joins into one token; None when no
    macro is. Whitespace and comments separate tokens, so such a use is the only way
    a macro spells a name it does not hold."""
    for use in _MACRO.finditer(text):
        if use.start() and text[use.start() - 1] in _NAME_CHARS:
            return use.start()
        end = _closed(text, use.end()) if text[use.end():use.end() + 1] == "(" else use.end()
        if end < len(text) and text[end] in _NAME_CHARS:
            return use.start()
    return None


def _closed(text: str, start: int) -> int:
    """The offset after the parenthesised list that opens at `start` (the text's end
    when it is not closed)."""
    depth = 0
    for k in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[k], 0)
        if depth == 0:
            return k + 1
    return len(text)


def _at(lines: list[str], offset: int, why: str) -> Diagnostic:
    """A refusal at the line and column of `offset` in the joined `lines`."""
    before = "\n".join(lines)[:offset]
    number = before.count("\n") + 1
    return Diagnostic(number, lines[number - 1], f"refused: {why}, which diagbench does "
                      "not allow", column=offset - (before.rfind("\n") + 1) + 1)


def _limited(command: list[str]) -> list[str]:
    """`command` under `prlimit`'s cap on its address space."""
    return [program("prlimit"), f"--as={MEMORY_BYTES}", "--", *command]


def run_yosys(files: dict[str, str], commands: str, outputs: tuple[str, ...],
              timeout: float = TIMEOUT) -> tuple[subprocess.CompletedProcess[bytes],
                                                 dict[str, bytes]]:
    """Run Yosys's `commands` (a script) in a folder holding only `files` (name → text:
    a source `unsafe` accepted, as `design.v`, or JSON netlists); its run and the files
    it wrote that `outputs` names. `subprocess.TimeoutExpired` past `timeout`."""
    with tempfile.TemporaryDirectory(prefix="diagbench-yosys-") as jail:
        for name, text in files.items():
            Path(jail, name).write_text(text, encoding="utf-8")
        done = run_program(_limited([program("yosys"), "-q", "-p", commands]), timeout,
                           jail=jail)
        written = {name: Path(jail, name).read_bytes() for name in outputs
                   if Path(jail, name).is_file()}
    return done, written


def diagnostics(messages: str, lines: list[str]) -> list[Diagnostic]:
    """Yosys's errors (first) and warnings as diagnostics: `design.v:LINE: ERROR: …` at
    its line; an error without a line at line 1."""
    found = []
    for line, level, message in _MESSAGE.findall(messages):
        number = max(1, int(line))
        text = lines[number - 1] if number <= len(lines) else ""
        found.append(Diagnostic(number, text, f"Yosys: {message.strip()}",
                                "error" if level == "ERROR" else "warning"))
    if not any(d.severity == "error" for d in found):
        for message in _BARE_ERROR.findall(messages):
            found.append(Diagnostic(1, lines[0] if lines else "", f"Yosys: {message.strip()}"))
    return sorted(found, key=lambda d: d.severity != "error")


def read_netlist(source: str, timeout: float = TIMEOUT) -> YosysRun:
    """Yosys's netlist of a source (`RECIPE`, then `write_json`), or why not."""
    lines = source.split("\n")
    try:
        done, written = run_yosys({SOURCE: source}, f"{RECIPE}; write_json netlist.json",
                                  ("netlist.json",), timeout)
    except subprocess.TimeoutExpired:
        return YosysRun(None, (Diagnostic(1, lines[0], f"Yosys: timed out after {timeout:g} s "
                                          "(a design too large to read)"),))
    messages = (done.stderr + done.stdout).decode("utf-8", "replace")
    found = diagnostics(messages, lines)
    if done.returncode or "netlist.json" not in written:
        if not any(d.severity == "error" for d in found):
            why = "ran out of memory or crashed" if done.returncode < 0 or \
                "alloc" in messages else f"exited with {done.returncode}"
            found.insert(0, Diagnostic(1, lines[0], f"Yosys {why} (a design too large or "
                                       "too deeply nested)"))
        return YosysRun(None, tuple(found))
    try:
        netlist = json.loads(written["netlist.json"])
    except json.JSONDecodeError as exc:
        return YosysRun(None, (Diagnostic(1, lines[0], f"Yosys wrote no JSON: {exc}"),))
    return YosysRun(netlist, tuple(found))


def icarus_opinion(source: str, timeout: float = TIMEOUT) -> list[Diagnostic]:
    """Icarus Verilog's errors on a source (`iverilog -t null`), as warnings: Yosys,
    which draws, reads Verilog with some SystemVerilog in it (a function's output
    argument, an empty generate branch) that Icarus 11 rejects."""
    lines = source.split("\n")
    with tempfile.TemporaryDirectory(prefix="diagbench-iverilog-") as jail:
        Path(jail, SOURCE).write_text(source, encoding="utf-8")
        try:
            done = run_program(_limited([program("iverilog"), "-t", "null", "-o",
                                         "/dev/null", SOURCE]), timeout, jail=jail)
        except subprocess.TimeoutExpired:
            return [Diagnostic(1, lines[0], f"Icarus Verilog: timed out after {timeout:g} s",
                               "warning")]
    messages = (done.stderr + done.stdout).decode("utf-8", "replace")
    found = []
    for line, message in _IVERILOG.findall(messages)[:5]:
        number = max(1, int(line))
        text = lines[number - 1] if number <= len(lines) else ""
        found.append(Diagnostic(number, text, "Icarus Verilog rejects it: "
                                + (message.strip() or "syntax error"), "warning"))
    return found


@cache
def versions() -> str:
    """"Yosys 0.23 + Icarus Verilog 11.0", as the programs say."""
    yosys = program_version("yosys", "-V", r"Yosys (\S+)")
    icarus = program_version("iverilog", "-V", r"version (\S+)")
    return f"Yosys {yosys} + Icarus Verilog {icarus}"
