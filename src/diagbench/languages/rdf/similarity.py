"""Image-to-code similarity of knowledge graphs (RDF/XML): the F1 of the gold graph's
triples that the predicted graph has, with prefixes expanded and blank nodes matched.

Both codes are read by RDFLib (the language's reader); each triple is compared in its
N-Triples form, so prefixes, typed-node abbreviations, attribute or element
properties and the order of statements do not matter. Blank nodes are matched by
RDFLib's canonicalisation (`rdflib.compare.to_canonical_graph`, which names each blank
node after the triples around it where it must be told from others): isomorphic
graphs score 1, and a changed triple next to such a blank node may rename it, so that
its other triples count as changed too. The score is 𝟙[valid] · triple F1; a
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
    canonicalisation."""
    from rdflib import Graph
    from rdflib.compare import to_canonical_graph
    from rdflib.plugins.serializers.nt import _nt_row

    if not graph.triples:
        return []
    text = "".join(f"{s.key} {p.key} {o.key} .\n" for s, p, o in graph.triples)
    with ill_typed_kept():
        canonical = to_canonical_graph(Graph().parse(data=text, format="nt"))
    rows = (_nt_row(t).removesuffix(" .\n") for t in canonical)
    return sorted(tuple(row.split(" ", 2)) for row in rows)


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
