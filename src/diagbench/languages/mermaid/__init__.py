"""Mermaid: flowchart, class, ER and state diagrams, Gantt charts and mind maps; the kind
is the diagram's header (`flowchart`/`graph`, `classDiagram`, `erDiagram`,
`stateDiagram`, `gantt`, `mindmap`).

Flowchart, class, ER and state diagrams are read into the graph model by diagbench's
readers (`formats.mermaid`). Gantt charts and mind maps are read by Mermaid's own parser,
in the warm Chromium page mermaid-cli renders with (`own.py`): the diagram's database
Mermaid fills — a chart's sections and tasks with the start and end dates Mermaid
computed (after `after`, `until`, `excludes weekends` and durations), dependencies,
milestones and critical/done/active tags; a mind map's node tree with labels, shapes and
icons — and Mermaid's own error, with its line, for a source it refuses.

Its styles are Mermaid's own, an `init` directive put first (after a front matter):
the forest and neutral themes and the hand-drawn look (with the base theme, so
that a Gantt chart, which has no hand-drawn look, is drawn another way too).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from diagbench.languages.record import Drawn, GraphDialect, GraphLanguage

if TYPE_CHECKING:
    from diagbench.compare.scored import Scored
    from diagbench.diagram.facts import Fact
    from diagbench.diagram.graph import GraphDiagram
    from diagbench.formats.parsed import Diagram, Parsed
    from diagbench.languages.mermaid.gantt import Gantt
    from diagbench.languages.mermaid.mindmap import MindMap

#: The kinds read by Mermaid's own parser.
OWN_KINDS = ("gantt", "mindmap")
#: The configuration each style gives Mermaid, in an `init` directive.
#: (Not the dark theme: its light lines vanish on the white page the images have.)
STYLES = {"theme-forest": '{"theme": "forest"}', "theme-neutral": '{"theme": "neutral"}',
          "hand-drawn": '{"look": "handDrawn", "theme": "base"}'}
_FRONT_MATTER = re.compile(r"\A\s*---[ \t]*\n.*?\n---[ \t]*\n", re.S)


class Mermaid(GraphLanguage):
    """Mermaid as a `Language`: its parts, each importing what it uses when first called."""

    def read(self, text: str) -> Sequence[Parsed[Diagram]]:
        from diagbench.languages.mermaid.reading import own_kind, read_own

        kind = own_kind(text)
        if kind is not None:
            return [read_own(text, kind)]
        from diagbench.formats.mermaid import read_mermaid

        return read_mermaid(text)

    def release(self) -> None:
        """End the warm page of Mermaid's own parser (Node and its browser)."""
        from diagbench.languages.mermaid.own import shared

        shared().close()

    def prepare(self, source: str, kind: str, marked: bool, style: str = "") -> str:
        """`style`: with its `init` directive first (after a front matter, which must open
        the source)."""
        from diagbench.languages.styled import known

        if not known(style, STYLES):
            return source
        front = _FRONT_MATTER.match(source)
        at = front.end() if front else 0
        return f"{source[:at]}%%{{init: {STYLES[style]}}}%%\n{source[at:]}"

    def styles(self) -> tuple[str, ...]:
        return tuple(STYLES)

    def drawn(self, kind: str, svg: str) -> Drawn:
        if kind == "gantt":
            from diagbench.languages.mermaid.drawing import gantt_statistics

            return Drawn(gantt_statistics(svg))
        if kind == "mindmap":
            from diagbench.languages.mermaid.drawing import mindmap_statistics

            return Drawn(mindmap_statistics(svg))
        from diagbench.render.graph_svg import mermaid_statistics

        return Drawn(mermaid_statistics(svg))

    def write(self, diagram: GraphDiagram | Gantt | MindMap) -> str:
        from diagbench.languages.mermaid.gantt import Gantt, write_gantt
        from diagbench.languages.mermaid.mindmap import MindMap, write_mindmap

        if isinstance(diagram, Gantt):
            return write_gantt(diagram)
        if isinstance(diagram, MindMap):
            return write_mindmap(diagram)
        from diagbench.formats.mermaid.writer import write_mermaid

        return write_mermaid(diagram)

    def compare(self, gold: Parsed[Diagram], pred: Parsed[Diagram] | None,
                valid: bool) -> Scored:
        from diagbench.languages.mermaid import similarity

        if gold.kind == "gantt":
            return similarity.compare_gantt(gold, pred, valid)
        if gold.kind == "mindmap":
            return similarity.compare_mindmaps(gold, pred, valid)
        return super().compare(gold, pred, valid)

    def facts(self, diagram: Diagram) -> list[Fact]:
        from diagbench.languages.mermaid.facts import gantt_facts, mindmap_facts
        from diagbench.languages.mermaid.gantt import Gantt
        from diagbench.languages.mermaid.mindmap import MindMap

        if isinstance(diagram, Gantt):
            return gantt_facts(diagram)
        if isinstance(diagram, MindMap):
            return mindmap_facts(diagram)
        return []

    def edit(self, code: str, rng: random.Random) -> str | None:
        """A Gantt chart with one task's dates moved, a mind map with one node moved to
        another parent; of the other kinds, one relation left out."""
        from diagbench.languages.mermaid import changes
        from diagbench.languages.mermaid.gantt import Gantt
        from diagbench.languages.mermaid.mindmap import MindMap

        read = self.read(code)
        diagram = read[0].diagram if len(read) == 1 and not read[0].errors else None
        if isinstance(diagram, Gantt):
            return changes.move_task(diagram, rng)
        if isinstance(diagram, MindMap):
            return changes.move_node(diagram, rng)
        return super().edit(code, rng)

    def rewrite(self, code: str, rng: random.Random) -> str | None:
        """A Gantt chart with every date written out; a mind map indented otherwise."""
        from diagbench.languages.mermaid import changes
        from diagbench.languages.mermaid.gantt import Gantt
        from diagbench.languages.mermaid.mindmap import MindMap

        read = self.read(code)
        diagram = read[0].diagram if len(read) == 1 and not read[0].errors else None
        if isinstance(diagram, Gantt):
            return changes.rewrite_gantt(diagram)
        if isinstance(diagram, MindMap):
            return changes.rewrite_mindmap(diagram)
        return None

    def nodes(self, counts: Mapping[str, int]) -> int:
        """Entities of a graph, task bars of a Gantt chart, nodes of a mind map."""
        return next((counts[k] for k in ("entities", "tasks", "nodes") if k in counts), 0)


LANGUAGE = Mermaid(
    doc=__doc__ or "",
    name="mermaid",
    title="Mermaid",
    suffixes=(".mmd", ".mermaid"),
    domain="software",
    categories=("class", "state", "er", "flowchart", "gantt", "mind-map"),
    kinds=("flowchart", "class", "er", "state", "gantt", "mindmap"),
    engine="mermaid",
    browser=True,
    examples=("mermaid-flowchart.mmd", "mermaid-class.mmd", "mermaid-er.mmd",
              "mermaid-state.mmd", "mermaid-gantt.mmd", "mermaid-mindmap.mmd"),
    fallback=True,
    dialect=GraphDialect(flowchart=("flowchart", "process"), er_label="has"),
    libraries=("apted", "defusedxml"),
)
