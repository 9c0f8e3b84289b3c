"""The syntax fixes of paper §3.2.3, applied to a prediction before comparing.

The authors repaired these by hand so that scripts rendered, and did not count
them as errors: `..>` arrows, names with special characters left unquoted
(`participant UE#1`, `actor P-CSCF`), notes over more participants than
PlantUML allows, `note bottom of A B`. Here they are applied automatically
and each one is listed. (Actor vs participant needs no rewrite: kinds are
never counted, and the comparison lists them.)
"""

from __future__ import annotations

import re

from diagbench.diagram.sequence import PARTICIPANT_KINDS
from diagbench.formats.plantuml.sequence_syntax import MESSAGE

_DECLARATION = re.compile(
    r"^(?P<indent>\s*)(?P<kind>" + "|".join(PARTICIPANT_KINDS) + r")\s+"
    r"(?P<name>[^\s\"]*[^\w\s\"@.][^\s\"]*?)(?:\s+as\s+(?P<alias>[\w.@]+))?(?P<rest>\s.*)?$"
)
_NOTE_OVER = re.compile(r"^(?P<head>\s*[hr]?note\s+over\s+)(?P<targets>[^:#]+?)"
                        r"(?P<tail>\s*(?:#\S+\s*)?(?::.*)?)$")
_NOTE_BESIDE_TWO = re.compile(
    r"^(?P<head>\s*[hr]?note\s+)(?:top|bottom)\s+of\s+(?P<a>[\w.@\"]+)\s+(?P<b>[\w.@\"]+)"
    r"(?P<tail>\s*(?::.*)?)$")
_NOTE_START = re.compile(r"^\s*(?:[hr]?note|ref)\b", re.IGNORECASE)
_NOTE_END = re.compile(r"^\s*end\s?(?:[hr]?note|ref)\s*$", re.IGNORECASE)
_DOTTED_ARROW = re.compile(r"\.\.>|<\.\.")
#: Found in every text where `_fix_note` rewrites a line (over three or more targets, or
#: beside two): without it and without renames or dotted arrows, nothing changes
_NOTE_FIXABLE = re.compile(r"note\s+(?:over\s+[^:#\n]*,[^:#\n]*,|(?:top|bottom)\s+of\s)")


def normalize_prediction(text: str) -> tuple[str, list[str]]:
    """The prediction with the §3.2.3 fixes applied, and one entry per fix."""
    lines = text.split("\n")
    fixes: list[str] = []
    renames = _quote_special_names(text, lines, fixes)
    # without renames or dotted arrows, only lines that name a note (or ref) can start,
    # end or change anything
    notes_only = not renames and "..>" not in text and "<.." not in text  # _DOTTED_ARROW
    if notes_only and not _NOTE_FIXABLE.search(text):
        return text, fixes
    in_note = False
    # (found in the lower-cased text: a note fix looks at lines that name them in any case)
    for k in _lines_with(("note", "ref"), text.lower()) if notes_only else range(len(lines)):
        line = lines[k]
        if in_note:  # free text: leave it as written
            in_note = not _NOTE_END.match(line)
            continue
        in_note = bool(_NOTE_START.match(line)) and ":" not in line
        head, sep, tail = line.partition(":")
        new_head = head
        for name, alias in renames.items():
            if name in new_head:
                new_head = re.sub(rf"(?<![\w.@#\"-]){re.escape(name)}(?![\w.@#\"])", alias,
                                  new_head)
        if _DOTTED_ARROW.search(new_head):
            fixed = new_head.replace("..>", "-->").replace("<..", "<--")
            if MESSAGE.match(fixed.strip() + sep + tail):  # only where it makes a message
                new_head = fixed
                fixes.append(f"line {k + 1}: dotted arrow written '..>': read as '-->'")
        line = new_head + sep + tail
        line = _fix_note(line, k, fixes)
        lines[k] = line
    return "\n".join(lines), fixes


def _lines_with(words: tuple[str, ...], text: str) -> list[int]:
    """The numbers (from 0) of the lines of `text` that hold any of `words`, in order."""
    starts = []
    for word in words:
        at = text.find(word)
        while at != -1:
            starts.append(at)
            at = text.find(word, at + 1)
    found: list[int] = []
    line = previous = 0
    for at in sorted(starts):
        line += text.count("\n", previous, at)
        previous = at
        if not found or found[-1] != line:
            found.append(line)
    return found


def _quote_special_names(text: str, lines: list[str], fixes: list[str]) -> dict[str, str]:
    """Quote declared names with special characters in `lines` (those of `text`); return
    {name: alias} to use elsewhere."""
    renames: dict[str, str] = {}
    for k in _lines_with(PARTICIPANT_KINDS, text):  # _DECLARATION needs one
        line = lines[k]
        m = _DECLARATION.match(line)
        if not m:
            continue
        name = m.group("name")
        alias = m.group("alias") or re.sub(r"[^\w.@]", "", name) or f"P{k + 1}"
        lines[k] = (f'{m.group("indent")}{m.group("kind")} "{name}" as {alias}'
                    f'{m.group("rest") or ""}')
        renames[name] = alias
        fixes.append(f"line {k + 1}: name {name!r} needs quotes: read as \"{name}\" as {alias}")
    return renames


def _fix_note(line: str, k: int, fixes: list[str]) -> str:
    if "note" not in line.lower():
        return line
    m = _NOTE_OVER.match(line)
    if m:
        targets = [t.strip() for t in m.group("targets").split(",") if t.strip()]
        if len(targets) > 2:
            fixes.append(f"line {k + 1}: note over {len(targets)} participants: "
                         f"read as over {targets[0]}, {targets[-1]}")
            return f"{m.group('head')}{targets[0]}, {targets[-1]}{m.group('tail')}"
        return line
    m = _NOTE_BESIDE_TWO.match(line)
    if m:
        fixes.append(f"line {k + 1}: note beside two participants: "
                     f"read as over {m.group('a')}, {m.group('b')}")
        return f"{m.group('head')}over {m.group('a')}, {m.group('b')}{m.group('tail')}"
    return line
