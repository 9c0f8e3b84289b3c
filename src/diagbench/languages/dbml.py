"""DBML: database schemas (tables, references, groups, notes), drawn through Graphviz by
the `dbml` engine."""

from __future__ import annotations

import re

from diagbench.languages.record import Language

_START = re.compile(r"^\s*(?:Table|Project|Enum|Ref|TableGroup)\b", re.M)


def recognises(text: str) -> bool:
    """A DBML source has a `Table`/`Project`/`Enum`/`Ref`/`TableGroup` line and a brace,
    and no Mermaid arrow."""
    return _START.search(text) is not None and "{" in text and "-->" not in text


LANGUAGE = Language(
    doc=__doc__ or "",
    name="dbml",
    title="DBML",
    suffixes=(".dbml",),
    domain="software",
    categories=("er",),
    kinds=("er",),
    reader="diagbench.formats.dbml:read_dbml",
    engine="dbml",
    statistics="diagbench.render.graph_svg:graphviz_statistics",
    similarity="diagbench.compare.graph:compare_texts",
    writer="diagbench.formats.dbml:write_dbml",
    examples=("dbml-er.dbml",),
    recognises=recognises,
)
