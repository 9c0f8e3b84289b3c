"""Image-to-code similarity of knowledge graphs (RDF/XML): the F1 of the gold graph's
triples that the predicted graph has, with prefixes expanded and blank nodes matched.

Both codes are read by RDFLib (the language's reader); each triple is compared in its
N-Triples form, so prefixes, typed-node abbreviations, attribute or element
properties and the order of statements do not matter. Blank nodes are matched by
RDFLib's canonicalisation (`rdflib.compare.to_canonical_graph`, which names each blank
node after the triples around it where it must be told from others): isomorphic
graphs score 1, and a changed triple next to such a blank node may rename it, so that
its other triples count as changed too. Past 100 blank nodes (where RDFLib's
canonicalisation slows to minutes), blank nodes are named by three rounds of
Weisfeiler–Lehman refinement instead, which names isomorphic graphs' blank nodes
alike too. The score is 𝟙[valid] · triple F1; a
prediction that does not read scores 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from diagbench.compare.graph import Match, match, model_of
from diagbench.formats.parsed import Diagram, Parsed
from diagbench.languages.rdf.model import KnowledgeGraph
from diagbench.languages.rdf.read import ill_typed_kept
from diagbench.scoring import metrics

#: Graphs with more blank nodes have them named by `refined_triples` (RDFLib's
#: canonicalisation takes seconds from a few hundred on).
CANONICAL_BLANK_NODES = 100


@dataclass(frozen=True, slots=True)
class TripleComparison:
    """The comparison of a predicted graph with the gold one: its `triples` matched
    (as `relations`) and the drawn nodes matched by their terms (as `entities`)."""

    valid: bool
    relations: Match
    entities: Match
    gold_counts: dict[str, int] = field(default_factory=dict)
    pred_counts: dict[str, int] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    kind = "knowledge-graph"

    @property
    def score(self) -> float:
        return self.relations.f1 if self.valid else 0.0

    @property
    def counts_score(self) -> float:
        return metrics.strudel_count_score(self.valid, self.gold_counts, self.pred_counts)

    def as_dict(self) -> dict[str, Any]:
        return {"status": "ok", "kind": self.kind, "valid": self.valid,
                "triples": self.relations.as_dict(), "nodes": self.entities.as_dict(),
                "score": round(self.score, 6), "counts_score": round(self.counts_score, 6),
                "warnings": list(self.warnings)}


def canonical_triples(graph: KnowledgeGraph) -> list[tuple[str, ...]]:
    """The graph's triples in N-Triples form, blank nodes named by RDFLib's
    canonicalisation (by `refined_triples` past `CANONICAL_BLANK_NODES` of them)."""
    from rdflib import Graph
    from rdflib.compare import to_canonical_graph
    from rdflib.plugins.serializers.nt import _nt_row

    if graph.counts()["blank_nodes"] > CANONICAL_BLANK_NODES:
        return refined_triples(graph)
    if not graph.triples:
        return []
    text = "".join(f"{s.key} {p.key} {o.key} .\n" for s, p, o in graph.triples)
    with ill_typed_kept():
        canonical = to_canonical_graph(Graph().parse(data=text, format="nt"))
    rows = (_nt_row(t).removesuffix(" .\n") for t in canonical)
    return sorted(tuple(row.split(" ", 2)) for row in rows)


def refined_triples(graph: KnowledgeGraph, rounds: int = 3) -> list[tuple[str, ...]]:
    """The graph's triples, each blank node named after its neighbourhood by `rounds`
    of Weisfeiler–Lehman refinement (a name from the triples around it, then from its
    neighbours' names): isomorphic graphs get the same triples, in time linear in
    the graph."""
    import hashlib

    names = {t.key: "_:b" for s, _, o in graph.triples for t in (s, o) if t.kind == "bnode"}
    for _ in range(rounds):
        around: dict[str, list[str]] = {b: [] for b in names}
        for s, p, o in graph.triples:
            if s.key in names:
                around[s.key].append(f">{p.key} {names.get(o.key, o.key)}")
            if o.key in names:
                around[o.key].append(f"<{p.key} {names.get(s.key, s.key)}")
        names = {b: "_:" + hashlib.blake2b("|".join(sorted(around[b])).encode("utf-8"),
                                           digest_size=8).hexdigest() for b in names}
    return sorted((names.get(s.key, s.key), p.key, names.get(o.key, o.key))
                  for s, p, o in graph.triples)


def compare_graphs(gold_read: Parsed[Diagram], pred_read: Parsed[Diagram] | None,
                   valid: bool) -> TripleComparison:
    """Compare a predicted RDF/XML code with its gold code (both read by RDFLib)."""
    gold, _, _ = model_of(gold_read)
    pred, _, warnings = model_of(pred_read)
    graphs = [g if isinstance(g, KnowledgeGraph) and not w else KnowledgeGraph()
              for g, w in ((gold, ()), (pred, warnings))]
    g_triples, p_triples = (canonical_triples(g) for g in graphs)
    g_nodes, p_nodes = ([(s,) for s, _, _ in t] + [(o,) for _, _, o in t]
                        for t in (g_triples, p_triples))
    return TripleComparison(valid, match(g_triples, p_triples),
                            match(sorted(set(g_nodes)), sorted(set(p_nodes))),
                            graphs[0].counts(), graphs[1].counts(), warnings)
