"""Mermaid: flowchart, class, ER and state diagrams; the kind is the diagram's header
(`flowchart`/`graph`, `classDiagram`, `erDiagram`, `stateDiagram`)."""

from __future__ import annotations

from diagbench.languages.record import Language

LANGUAGE = Language(
    doc=__doc__ or "",
    name="mermaid",
    title="Mermaid",
    suffixes=(".mmd", ".mermaid"),
    domain="software",
    categories=("class", "state", "er", "flowchart"),
    kinds=("flowchart", "class", "er", "state"),
    reader="diagbench.formats.mermaid:read_mermaid",
    engine="mermaid",
    statistics="diagbench.render.graph_svg:mermaid_statistics",
    similarity="diagbench.compare.graph:compare_texts",
    writer="diagbench.formats.mermaid.writer:write_mermaid",
    examples=("mermaid-flowchart.mmd", "mermaid-class.mmd", "mermaid-er.mmd",
              "mermaid-state.mmd"),
    recognises=None,  # the language of a source no other language recognises
)
