"""The facts STRUDEL's task types ask of a knowledge graph, read off its triples:
the class of a resource (identification), how many triples the graph has and how many
have the predicate rdf:type (quantification), and which object a resource has for a
predicate (structural analysis). Resources and predicates are named as the drawing
labels them; a question is asked only where it has one answer (a resource with one
class, a predicate with one object that is not a blank node), at most `PER_KIND` of
each kind."""

from __future__ import annotations

from collections import defaultdict

from diagbench.diagram.facts import Fact
from diagbench.languages.rdf.model import RDF_TYPE, KnowledgeGraph, Term

PER_KIND = 3


def graph_facts(graph: KnowledgeGraph) -> list[Fact]:
    facts = [Fact("quantification", "triples", "How many triples (edges) does the knowledge "
                  "graph have?", len(graph.triples)),
             Fact("quantification", "predicate:rdf:type", "How many triples have the "
                  "predicate rdf:type?", sum(1 for _, p, _ in graph.triples
                                              if p.key == RDF_TYPE))]
    objects: dict[tuple[str, str], list[Term]] = defaultdict(list)
    for s, p, o in graph.triples:
        if s.kind == "uri":
            objects[s.label, p.label].append(o)
    single = [(s, p, found[0]) for (s, p), found in objects.items()
              if len(found) == 1 and found[0].kind != "bnode" and found[0].label.strip()]
    typed = {p.label for _, p, _ in graph.triples if p.key == RDF_TYPE}
    classes = [(s, o.label) for s, p, o in single if p in typed and o.kind == "uri"]
    facts += [Fact("identification", "class", f"What is the class (rdf:type) of {s}?", c)
              for s, c in classes[:PER_KIND]]
    facts += [Fact("structural", "object", f"Which object does {s} have for the predicate "
                   f"{p}?", o.label) for s, p, o in
              [t for t in single if t[1] not in typed][:PER_KIND]]
    return facts
