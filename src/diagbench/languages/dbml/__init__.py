"""DBML: database schemas (tables, references, groups, notes), drawn through Graphviz by
the `dbml` engine. Its styles: Graphviz's (`languages.dot.styles`), ranks top to
bottom, the `fdp` layout, wider spacing."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from diagbench.languages.record import Drawn, GraphDialect, GraphLanguage
from diagbench.languages.styled import DrawerStyles

if TYPE_CHECKING:
    from diagbench.diagram.graph import GraphDiagram
    from diagbench.formats.parsed import Diagram, Parsed
    from diagbench.render.engines import Engine

#: Its drawing styles (`languages.dot.styles`), handed to its engine in the source's
#: envelope (`languages.styled`).
STYLES = ("top-to-bottom", "fdp", "spacious")
_START = re.compile(r"^\s*(?:Table|Project|Enum|Ref|TableGroup)\b", re.M)


def recognises(text: str) -> bool:
    """A DBML source has a `Table`/`Project`/`Enum`/`Ref`/`TableGroup` line and a brace,
    and no Mermaid arrow."""
    return _START.search(text) is not None and "{" in text and "-->" not in text


class Dbml(DrawerStyles, GraphLanguage):
    """DBML as a `Language`: its parts, each importing what it uses when first called."""

    DRAWER_STYLES = STYLES

    def recognises(self, text: str) -> bool:
        return recognises(text)

    def make_engine(self, jobs: int = 2, timeout: float = 20.0) -> Engine:
        from diagbench.languages.dbml.engine import DbmlEngine

        return DbmlEngine(jobs=jobs, timeout=timeout)

    def read(self, text: str) -> Sequence[Parsed[Diagram]]:
        from diagbench.languages.dbml.read import read_dbml

        return read_dbml(text)

    def release(self) -> None:
        """End @dbml/core's warm Node process."""
        from diagbench.languages.dbml.core import shared

        shared().close()

    def drawn(self, kind: str, svg: str) -> Drawn:
        from diagbench.render.graph_svg import graphviz_statistics

        return Drawn(graphviz_statistics(svg))

    def write(self, diagram: GraphDiagram) -> str:
        from diagbench.languages.dbml.read import write_dbml

        return write_dbml(diagram)


LANGUAGE = Dbml(
    doc=__doc__ or "",
    name="dbml",
    title="DBML",
    suffixes=(".dbml",),
    domain="software",
    categories=("er",),
    kinds=("er",),
    engine="dbml",
    examples=("dbml-er.dbml",),
    dialect=GraphDialect(er_ports=True),
)
