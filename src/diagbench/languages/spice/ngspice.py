"""ngspice (Debian's, a separate program) as the oracle of diagbench's SPICE reader: it
is given only the lines the reader accepted (title, elements, `.subckt`/`.ends`,
`.model`, `.param`, `.global`, `.options`; never a `.control` block, an `.include` or
a `.lib`, which the reader refuses, nor an analysis), followed by a control block of
ours that prints ngspice's own expanded `listing`, and run in batch mode (`-b`, no
init file `-n`) sandboxed by `render.programs` (an empty folder that is its home, a
minimal environment, a time-out). `ngspice_listing` gives the elements ngspice read
(name and the words after it) or its error; `disagreements`, where they and the
reader differ.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from diagbench.languages.spice.model import canonical_number, spice_number
from diagbench.languages.spice.read import read_netlist
from diagbench.render.programs import program, program_version, run_program

#: What we append: the listing of the expanded circuit, then the end.
CONTROL = ".control\nlisting expand\n.endc\n.end\n"
_LISTED = re.compile(r"^\s*(\d+) : (.*)$")


@dataclass(frozen=True, slots=True)
class Listed:
    """One element line of ngspice's listing: its name and the words after it."""

    name: str
    words: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class OracleAnswer:
    """ngspice's reading: `ok` when it read the circuit, its listed elements, and its
    message when not."""

    ok: bool
    elements: tuple[Listed, ...] = ()
    message: str = ""


def ngspice_version() -> str:
    """ngspice's version ("42")."""
    return program_version("ngspice", "--version", r"ngspice-(\S+)")


def oracle_deck(text: str) -> str:
    """The netlist ngspice is given: the reader's accepted lines and our listing."""
    _, lines = read_netlist(text)
    kept = [line for line in lines[1:] if line.strip().lower() != ".end"]
    return "\n".join([lines[0] if lines else "netlist", *kept]) + "\n" + CONTROL


def ngspice_listing(text: str, timeout: float = 30.0) -> OracleAnswer:
    """ngspice's own expanded listing of the accepted part of `text` (its deck on its
    standard input), or why it refused it."""
    deck = oracle_deck(text)
    done = run_program([program("ngspice"), "-n", "-b"], timeout,
                       stdin=deck.encode("utf-8"))
    out = done.stdout.decode("utf-8", "replace")
    err = done.stderr.decode("utf-8", "replace")
    listed = [m.group(2) for m in map(_LISTED.match, out.splitlines())
              if m and m.group(1) != "1"]  # line 1 is the title
    errors = [line.strip() for line in (err + out).splitlines()
              if "error" in line.lower() and not _LISTED.match(line)
              and not line.startswith(("Circuit: ", "\t"))]  # the title, echoed
    if errors or not listed:  # (its exit status is 1 whenever no analysis runs)
        return OracleAnswer(False, (), errors[0] if errors else f"exit {done.returncode}")
    elements = []
    for line in listed:
        words = line.split()
        if not words or words[0].startswith("."):
            continue
        elements.append(Listed(words[0], tuple(words[1:])))
    return OracleAnswer(True, tuple(elements))


def disagreements(text: str, timeout: float = 30.0) -> list[str]:
    """Where ngspice's listing of `text` and the reader's expanded components differ
    (names, nodes in pin order, and for R, C, L and the controlled sources the value
    as a number; for D, Q, M and J the model): [] when they agree; ngspice's refusal
    when it refuses what the reader accepted."""
    parsed, _ = read_netlist(text)
    answer = ngspice_listing(text, timeout)
    if not answer.ok:
        return [f"ngspice refused: {answer.message}"]
    listed = {e.name: e.words for e in answer.elements}
    ours = {c.name: c for c in parsed.diagram.flat()}
    out = [f"{name}: listed by ngspice only" for name in listed.keys() - ours.keys()]
    out += [f"{name}: read by the reader only" for name in ours.keys() - listed.keys()]
    for name in sorted(ours.keys() & listed.keys()):
        c, words = ours[name], listed[name]
        n = len(c.nodes)
        said = words[n] if len(words) > n else ""
        if words[:n] != c.nodes:
            out.append(f"{name}: nodes {c.nodes} read, {words[:n]} listed")
        elif c.letter in "rclegfh":
            if c.letter in "fh":  # after the controlling source
                said = words[n + 1] if len(words) > n + 1 else ""
            said = said.removeprefix(f"{c.letter}=")
            number = spice_number(said.strip("{}'"))
            if number is None or canonical_number(number) != c.value:
                out.append(f"{name}: value {c.value} read, {said} listed")
        elif c.letter in "dqmj" and said != c.value:
            out.append(f"{name}: model {c.value} read, {said} listed")
    return sorted(out)
