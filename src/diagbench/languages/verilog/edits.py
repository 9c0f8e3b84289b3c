"""The Verilog edit (a counterfactual twin) and rewrite (a style twin), on the source's
tokens (comments, strings, numbers and directives kept as they are).

- `edit_design`: one binary bitwise operator changed (`&` → `|` → `^` → `&`), one
  operand rewired: an input port's name in an expression replaced by the next (by
  name, cyclically) of three or more input ports of its width, or — first, half the
  time (`rng`'s choice) — a one-bit input port added to the first module's header
  (`input wire extra,`; `extra_2` … where taken), which changes how many inputs the
  module has. Candidates are tried in `rng`'s order; the first that Yosys reads without
  an error and whose netlist differs (similarity under 1) is the edit. Two edits never
  undo each other: each change moves along a cycle of three or more, or adds a port.
- `rewrite_design`: every internal wire (a named net that is no module's port, module
  or instance name) renamed `n_NAME`, and the one-line continuous assignments
  (`assign …;`) of each module put in `rng`'s order; kept only when Yosys reads the
  same netlist (similarity 1).
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from diagbench.languages.record import Language

_TOKEN = re.compile(r"""
    (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>"(?:\\.|[^"\\\n])*")
  | (?P<number>\d*'[sS]?[bBoOdDhH]\s*[0-9a-fA-FxXzZ_?]+|\d[\d_]*(?:\.\d+)?)
  | (?P<directive>`[A-Za-z_]\w*)
  | (?P<system>\$[A-Za-z_]\w*)
  | (?P<escaped>\\\S+)
  | (?P<name>[A-Za-z_][\w$]*)
  | (?P<op>&&|\|\||~&|~\||~\^|\^~|<=|>=|==|!=|<<|>>|[&|^])
  | (?P<other>\s+|.)
""", re.X | re.S)
_CYCLE = {"&": "|", "|": "^", "^": "&"}
_OPERAND_END = re.compile(r"[\w)\]}]$")
_DECLARATION = re.compile(r"^\s*(module|input|output|inout|wire|reg|parameter|localparam)\b")
#: Candidates an edit tries at most.
TRIES = 12


def tokens(code: str) -> list[tuple[str, str]]:
    """(kind, text) of each token of `code`; their texts join to `code`."""
    return [(m.lastgroup or "other", m.group()) for m in _TOKEN.finditer(code)]


def _line_start(code_tokens: list[tuple[str, str]], k: int) -> str:
    """The text of the line token `k` is on, up to the token."""
    before = "".join(t for _, t in code_tokens[max(0, k - 60):k])
    return before.rsplit("\n", 1)[-1]


def _changes(code: str, language: Language) -> list[str]:
    """Every candidate edit of `code` (see the module's docstring)."""
    from diagbench.languages.verilog.model import Design

    [parsed] = language.read(code)
    design = parsed.diagram
    assert isinstance(design, Design)
    by_width: dict[int, list[str]] = {}
    for module in design.modules:
        for port in module.ports:
            if port.direction == "input" and port.name not in by_width.get(port.width, []):
                by_width.setdefault(port.width, []).append(port.name)
    rewire: dict[str, str] = {}
    for names in by_width.values():
        if len(names) >= 3:
            ordered = sorted(names)
            rewire |= {n: ordered[(k + 1) % len(ordered)] for k, n in enumerate(ordered)}
    found = tokens(code)
    out = []
    for k, (kind, text) in enumerate(found):
        before = "".join(t for _, t in found[max(0, k - 3):k]).rstrip()
        if kind == "op" and text in _CYCLE and _OPERAND_END.search(before):
            out.append((k, _CYCLE[text]))
        elif kind == "name" and text in rewire and not before.endswith(".") \
                and not _DECLARATION.match(_line_start(found, k)):
            out.append((k, rewire[text]))
    return ["".join(new if n == k else t for n, (_, t) in enumerate(found))
            for k, new in out]


def _port_added(code: str) -> str | None:
    """`code` with a one-bit input port first in its first module's ANSI header (None
    for a header without `input` declarations)."""
    found = tokens(code)
    names = {t for kind, t in found if kind == "name"}
    for k, (kind, text) in enumerate(found):
        if kind == "other" and text == ";":
            return None  # the first header ended without an input declaration
        if kind == "name" and text == "input":
            name = next(n for n in ("extra", *(f"extra_{i}" for i in range(2, len(names) + 2)))
                        if n not in names)
            return "".join(t for _, t in found[:k]) + f"input wire {name},\n  " + \
                "".join(t for _, t in found[k:])
    return None


def edit_design(language: Language, code: str, rng: random.Random) -> str | None:
    """One operator changed, one operand rewired or one input port added (see the
    module's docstring)."""
    if language.readable(code) is None:
        return None
    candidates = _changes(code, language)
    rng.shuffle(candidates)
    added = _port_added(code)
    if added is not None:
        candidates.insert(0 if rng.random() < 0.5 else len(candidates), added)
    for changed in candidates[:TRIES]:
        if language.readable(changed) is not None \
                and language.compare_code(code, changed, True).score < 1.0:
            return changed
    return None


def rewrite_design(language: Language, code: str, rng: random.Random) -> str | None:
    """Internal wires renamed and assignments reordered (see the module's docstring)."""
    from diagbench.languages.verilog.model import Design

    [parsed] = language.read(code)
    design = parsed.diagram
    if parsed.errors or not isinstance(design, Design):
        return None
    fixed = {m.name for m in design.modules} | {p.name for m in design.modules
                                                for p in m.ports}
    fixed |= {c.name for m in design.modules for c in m.cells}
    internal = {n.name for m in design.modules for n in m.nets if not n.hidden} - fixed
    words = {t for kind, t in tokens(code) if kind == "name"}
    renames = {n: f"n_{n}" for n in internal if f"n_{n}" not in words}
    found = tokens(code)
    renamed = "".join(
        renames[t] if kind == "name" and t in renames
        and not "".join(x for _, x in found[max(0, k - 2):k]).rstrip().endswith(".")
        else t for k, (kind, t) in enumerate(found))
    lines = renamed.split("\n")
    assigns = [k for k, line in enumerate(lines)
               if line.lstrip().startswith("assign ") and line.rstrip().endswith(";")
               and line.count(";") == 1]
    order = [lines[k] for k in assigns]
    rng.shuffle(order)
    for k, line in zip(assigns, order, strict=True):
        lines[k] = line
    rewritten = "\n".join(lines)
    if rewritten == code or language.readable(rewritten) is None \
            or language.compare_code(code, rewritten, True).score != 1.0:
        return None
    return rewritten
