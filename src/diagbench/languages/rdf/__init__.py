"""RDF/XML: knowledge graphs (STRUDEL's Computer Science & AI domain), read by RDFLib,
drawn by Graphviz from the graph read.

**Reader.** RDFLib's RDF/XML parser (`format="xml"`) with a fixed base URI, after a
safety pass: defusedxml refuses every external entity or DTD (`<!ENTITY f SYSTEM
"file:///…">`, an `http://` entity), so nothing outside the text is read or asked;
internal entities are allowed, expanding to at most 2,000,000 characters; graphs over
5,000 triples are refused. The model keeps each triple's terms in N-Triples form, with the
labels the drawing shows (prefixed names under the document's own prefixes).
`diagbench parse --json` counts `triples`, `subjects`, `predicates`, `objects`,
`classes` (objects of rdf:type), `literals`, `blank_nodes` and the drawn `nodes`.
Errors are RDFLib's own (or expat's), with line and column.

**Engine.** The graph read is drawn as DOT (one node per distinct subject or object,
one edge per triple labelled with its predicate) and rendered by the sandboxed
Graphviz engine; the SVG's nodes by kind and edges are its drawn statistics. Its
styles are Graphviz's (`languages.dot.styles`): ranks top to bottom, the `neato` and
`fdp` layouts.

**Similarity.** Triple F1 with prefixes expanded and blank nodes matched by RDFLib's
canonicalisation. **Facts**: the class of a resource, how many triples have the
predicate rdf:type, which object a resource has for a predicate.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from diagbench.languages.record import Drawn, Language, expect
from diagbench.languages.styled import DrawerStyles

if TYPE_CHECKING:
    from diagbench.compare.scored import Scored
    from diagbench.diagram.facts import Fact
    from diagbench.formats.parsed import Diagram, Parsed
    from diagbench.render.engines import Engine

#: Its drawing styles (`languages.dot.styles`), handed to its engine in the source's
#: envelope (`languages.styled`).
STYLES = ("top-to-bottom", "neato", "fdp")
_RDF_ROOT = re.compile(r"<rdf:RDF\b|xmlns(?::\w+)?=[\"']http://www\.w3\.org/1999/02/"
                       r"22-rdf-syntax-ns#[\"']")


def recognises(text: str) -> bool:
    """An XML text whose first 4,000 characters open `rdf:RDF` or bind RDF's namespace."""
    head = text.removeprefix("\ufeff").lstrip()[:4000]
    return head.startswith("<") and _RDF_ROOT.search(head) is not None


class RdfXml(DrawerStyles, Language):
    """RDF/XML as a `Language`: its parts, each importing what it uses when first called."""

    DRAWER_STYLES = STYLES

    def recognises(self, text: str) -> bool:
        return recognises(text)

    def read(self, text: str) -> Sequence[Parsed[Diagram]]:
        from diagbench.languages.rdf.read import read_rdfxml

        return read_rdfxml(text)

    def make_engine(self, jobs: int = 2, timeout: float = 20.0) -> Engine:
        from diagbench.languages.rdf.draw import make_engine

        return make_engine(jobs, timeout)

    def drawn(self, kind: str, svg: str) -> Drawn:
        from diagbench.languages.rdf.draw import drawn_statistics

        return Drawn(drawn_statistics(svg))

    def compare(self, gold: Parsed[Diagram], pred: Parsed[Diagram] | None,
                valid: bool) -> Scored:
        from diagbench.languages.rdf.similarity import compare_graphs

        return compare_graphs(gold, pred, valid)

    def facts(self, diagram: Diagram) -> list[Fact]:
        from diagbench.languages.rdf.facts import graph_facts
        from diagbench.languages.rdf.model import KnowledgeGraph

        return graph_facts(expect(diagram, KnowledgeGraph))

    def generate(self, rng: random.Random, complexity: str) -> str:
        from diagbench.languages.rdf.synth import generate

        return generate(rng, complexity)

    def edit(self, code: str, rng: random.Random) -> str | None:
        from diagbench.languages.rdf.synth import edited

        changed = edited(code, rng)
        return None if changed is None else self.readable(changed)

    def rewrite(self, code: str, rng: random.Random) -> str | None:
        from diagbench.languages.rdf.synth import rewritten

        return rewritten(code, rng)


LANGUAGE = RdfXml(
    doc=__doc__ or "",
    name="rdf",
    title="RDF/XML",
    suffixes=(".rdf",),
    domain="computer-science",
    categories=("knowledge-graph",),
    kinds=("knowledge-graph",),
    engine="rdf-graphviz",
    examples=("research-group.rdf",),
    node_limits=(2, 80),
    size="nodes",
    libraries=("rdflib", "defusedxml"),
)
