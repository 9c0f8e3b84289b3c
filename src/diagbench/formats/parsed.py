"""The one record every reader returns per diagram: `Parsed`."""

from __future__ import annotations

from dataclasses import Field, dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from diagbench.formats.diagnostics import Diagnostic


class Diagram(Protocol):
    """What every model a reader returns is (`diagbench.diagram`: sequence, graph,
    alignment, map, board, score, …): a dataclass that counts what its engine draws."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    def counts(self) -> dict[str, int]: ...


D = TypeVar("D", bound=Diagram, covariant=True)


@dataclass(frozen=True, slots=True)
class Parsed(Generic[D]):
    """One diagram of a source: its model, and what could not be read.

    `index` is its position in the file (0-based), `first_line` the 1-based line where
    its body starts, `language` the language it was read as, `kind` the diagram kind
    ("sequence", "class", "component", "c4", "er", …; "empty" or "unknown" when
    nothing was recognised), `diagram` the model, whose `counts()` give what the
    engine draws. A sequence reader returns `Parsed[SequenceDiagram]`, a graph reader
    `Parsed[GraphDiagram]`, a reader of both `Parsed[Diagram]`.
    """

    index: int
    first_line: int
    language: str
    kind: str
    diagram: D
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity == "error")

    def counts(self) -> dict[str, int]:
        return self.diagram.counts()
