"""The model of one RDF graph as diagbench reads it: its triples of terms, each term
with its N-Triples form (its identity) and the label its drawing shows."""

from __future__ import annotations

from dataclasses import dataclass

#: rdf:type, whose objects are the graph's classes.
RDF_TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"


@dataclass(frozen=True, slots=True)
class Term:
    """One RDF term: `kind` ("uri", "bnode" or "literal"), `key` its N-Triples form (a
    blank node's label as the parser named it) and `label`, the text drawn for it (a
    prefixed name where the document binds the namespace, a literal's lexical form,
    "" for a blank node)."""

    kind: str
    key: str
    label: str


@dataclass(frozen=True, slots=True)
class KnowledgeGraph:
    """The triples of an RDF graph (sorted by their N-Triples form) and the prefixes the
    document binds (prefix, namespace)."""

    triples: tuple[tuple[Term, Term, Term], ...] = ()
    prefixes: tuple[tuple[str, str], ...] = ()

    kind = "knowledge-graph"

    @property
    def nodes(self) -> tuple[Term, ...]:
        """The distinct subjects and objects, one drawn node each, in first-seen order."""
        seen: dict[str, Term] = {}
        for s, _, o in self.triples:
            seen.setdefault(s.key, s)
            seen.setdefault(o.key, o)
        return tuple(seen.values())

    def classes(self) -> tuple[Term, ...]:
        """The distinct objects of rdf:type triples."""
        seen: dict[str, Term] = {}
        for _, p, o in self.triples:
            if p.key == RDF_TYPE:
                seen.setdefault(o.key, o)
        return tuple(seen.values())

    def counts(self) -> dict[str, int]:
        nodes = self.nodes
        return {"triples": len(self.triples),
                "subjects": len({s.key for s, _, _ in self.triples}),
                "predicates": len({p.key for _, p, _ in self.triples}),
                "objects": len({o.key for _, _, o in self.triples}),
                "classes": len(self.classes()),
                "literals": sum(1 for n in nodes if n.kind == "literal"),
                "blank_nodes": sum(1 for n in nodes if n.kind == "bnode"),
                "nodes": len(nodes)}
