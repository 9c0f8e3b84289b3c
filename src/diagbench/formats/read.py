"""Read any supported diagram source: which language it is, and that language's reader.

`READERS` maps a language to its reader, `"module:function"`, imported when first used
(so that importing this module stays light). A reader takes the whole text of a file
and returns one `Parsed` per diagram it holds, never raising on bad input: what it
cannot read becomes a `Diagnostic`. Adding a language is one line in `READERS` (and
its suffixes in `SUFFIXES`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from diagbench.formats.diagnostics import Diagnostic
from diagbench.references import load

#: language → "module:function" taking the text and returning list[Parsed].
READERS: dict[str, str] = {
    "plantuml": "diagbench.formats.plantuml.read:read_plantuml",
    "mermaid": "diagbench.formats.mermaid:read_mermaid",
    "dot": "diagbench.formats.dot:read_dot",
    "dbml": "diagbench.formats.dbml:read_dbml",
}
#: file suffix → language.
SUFFIXES: dict[str, str] = {
    **dict.fromkeys((".puml", ".plantuml", ".pu", ".iuml", ".wsd"), "plantuml"),
    **dict.fromkeys((".dot", ".gv"), "dot"),
    **dict.fromkeys((".mmd", ".mermaid"), "mermaid"),
    ".dbml": "dbml",
}
_DOT_START = re.compile(r"^\s*(?:strict\s+)?(?:di)?graph\b", re.I)
_DBML_START = re.compile(r"^\s*(?:Table|Project|Enum|Ref|TableGroup)\b", re.M)


@dataclass(frozen=True, slots=True)
class Parsed:
    """One diagram of a source: its model, and what could not be read.

    `index` is its position in the file (0-based), `first_line` the 1-based line where
    its body starts, `language` the language it was read as, `kind` the diagram kind
    ("sequence", "class", "component", "c4", "er", …; "empty" or "unknown" when
    nothing was recognised), `diagram` the model (`SequenceDiagram` or
    `GraphDiagram`), whose `counts()` give what the engine draws.
    """

    index: int
    first_line: int
    language: str
    kind: str
    diagram: Any
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity == "error")

    def counts(self) -> dict[str, int]:
        counts: dict[str, int] = self.diagram.counts()
        return counts


def language_of(path: Path | None, text: str) -> str:
    """The language of a source: by its file suffix, else by its first statement."""
    if path is not None and path.suffix.lower() in SUFFIXES:
        return SUFFIXES[path.suffix.lower()]
    if "@start" in text:
        return "plantuml"
    if _DOT_START.match(text):
        return "dot"
    if _DBML_START.search(text) and "{" in text and "-->" not in text:
        return "dbml"
    return "mermaid"


def reader(language: str) -> Callable[[str], list[Parsed]]:
    """The reader function of `language` (KeyError when none is registered)."""
    function: Callable[[str], list[Parsed]] = load(READERS[language])
    return function


def read(text: str, language: str) -> list[Parsed]:
    """Every diagram of `text` read as `language`."""
    return reader(language)(text)
