"""The one record every reader returns per diagram: `Parsed`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from diagbench.diagram.alignment import SequenceSet
from diagbench.diagram.chess import Board
from diagbench.diagram.geomap import GeoMap
from diagbench.diagram.graph import GraphDiagram
from diagbench.diagram.music import Score
from diagbench.diagram.sequence import SequenceDiagram
from diagbench.formats.diagnostics import Diagnostic

#: The models a reader returns.
Diagram = SequenceDiagram | GraphDiagram | SequenceSet | GeoMap | Board | Score
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
