"""PlantUML: one language, many diagram kinds sharing its suffixes; the reader tells the
kind of each `@start… @end…` block from its statements, as PlantUML does."""

from __future__ import annotations

from diagbench.languages.record import Language


def recognises(text: str) -> bool:
    """A PlantUML source holds a `@start…` line."""
    return "@start" in text


LANGUAGE = Language(
    doc=__doc__ or "",
    name="plantuml",
    title="PlantUML",
    suffixes=(".puml", ".plantuml", ".pu", ".iuml", ".wsd"),
    domain="software",
    categories=("class", "sequence", "component", "usecase", "state"),
    kinds=("sequence", "class", "object", "component", "deployment", "usecase", "state",
           "er", "c4"),
    reader="diagbench.formats.plantuml.read:read_plantuml",
    engine="plantuml",
    statistics="diagbench.render.svg_stats:svg_statistics",
    similarity="diagbench.compare.graph:compare_texts",
    writer="diagbench.formats.plantuml.graph_writer:write_graph",
    examples=("plantuml-sequence.puml", "plantuml-class.puml", "plantuml-object.puml",
              "plantuml-component.puml", "plantuml-deployment.puml", "plantuml-usecase.puml",
              "plantuml-state.puml", "plantuml-er.puml", "plantuml-c4.puml"),
    recognises=recognises,
)
