"""Image-to-code score on parsed diagrams (paper 004_34f8485b6a3a0424.txt §5.1, fixed):
which entities and which relations of the ground truth the prediction has.

Both scripts are read by their language's reader (any software language: PlantUML,
Mermaid, DOT, DBML), and their elements are matched as multisets:

- an **entity** by its displayed name under `scoring.name_keys.graph_element_key` (NFKC,
  case-folded, only letters and digits kept: ``Order Item`` = ``order_item``) and its
  kind (`Entity.kind`; a participant's kind in a sequence diagram); an unnamed
  pseudo-state (``[*]``) is named after its kind;
- a **relation** by its two ends (the normalised names of the entities — or
  clusters — it links), its drawn direction ("single", "double", "none"), its
  type (`Relation.type`; "message" in a sequence diagram) and its label, normalised as
  names are (an unlabelled relation matches only an unlabelled one). The ends are
  ordered (source → target in the sense of the type) unless the relation is drawn
  without any direction, when `A -- B` equals `B -- A`.

The score is `scoring.metrics.image_to_code_score`: 0 when the prediction does not
render (the caller says whether it does: rendering is not this package's job), else
the mean of entity F1 and relation F1 (a sequence diagram is scored by
`compare.sequence_code`, which sees the order of its messages too). STRUDEL's counts-only score
(`strudel_count_score`, per-kind counts of entities and relation types) is given
beside it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, TypeVar

from diagbench.compare.scored import Scored
from diagbench.diagram.graph import GraphDiagram
from diagbench.diagram.sequence import SequenceDiagram
from diagbench.formats.parsed import Diagram, Parsed
from diagbench.scoring import metrics
from diagbench.scoring.name_keys import graph_element_key

Key = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Match:
    """How many elements each side has and how many are matched, with P, R, F1."""

    gold: int
    pred: int
    matched: int
    missing: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()

    @property
    def scores(self) -> tuple[float, float, float]:
        return metrics.set_f1(self.matched, self.gold, self.pred)

    @property
    def f1(self) -> float:
        return self.scores[2]

    def as_dict(self) -> dict[str, Any]:
        precision, recall, f1 = self.scores
        return {"gold": self.gold, "pred": self.pred, "matched": self.matched,
                "precision": round(precision, 6), "recall": round(recall, 6),
                "f1": round(f1, 6), "missing": list(self.missing), "extra": list(self.extra)}


@dataclass(frozen=True, slots=True)
class GraphComparison:
    """The comparison of one prediction with its ground truth."""

    kind: str
    valid: bool
    entities: Match
    relations: Match
    gold_counts: dict[str, int] = field(default_factory=dict)
    pred_counts: dict[str, int] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    @property
    def score(self) -> float:
        return metrics.image_to_code_score(self.valid, self.entities.f1, self.relations.f1)

    @property
    def counts_score(self) -> float:
        return metrics.strudel_count_score(self.valid, self.gold_counts, self.pred_counts)

    def as_dict(self) -> dict[str, Any]:
        return {"status": "ok", "kind": self.kind, "valid": self.valid,
                "entities": self.entities.as_dict(), "relations": self.relations.as_dict(),
                "score": round(self.score, 6), "counts_score": round(self.counts_score, 6),
                "warnings": list(self.warnings)}


def elements(diagram: Any) -> tuple[list[Key], list[Key]]:
    """The entity keys and relation keys of a `GraphDiagram` or `SequenceDiagram`."""
    if isinstance(diagram, SequenceDiagram):
        names = {p.id: graph_element_key(p.name or p.id) for p in diagram.participants}
        entities: list[Key] = [(str(p.kind), names[p.id]) for p in diagram.participants]
        relations: list[Key] = []
        for m in diagram.messages:
            a, b = names.get(m.sender, graph_element_key(m.sender)), names.get(m.receiver,
                                                                       graph_element_key(m.receiver))
            direction = "double" if m.bidirectional else "single"
            if m.bidirectional:
                a, b = sorted((a, b))
            relations.append(_relation_key("message", direction, a, b, m.label))
        return entities, relations
    if not isinstance(diagram, GraphDiagram):
        return [], []
    labels: dict[str, str] = {}
    for c in diagram.clusters:
        labels[c.id] = graph_element_key(c.label)
    entities = []
    for e in diagram.entities:
        name = graph_element_key(e.name or ("" if not e.name and e.kind in _UNNAMED else e.id))
        labels[e.id] = name or e.kind
        entities.append((e.kind, labels[e.id]))
    relations = []
    for r in diagram.relations:
        a, b = labels.get(r.source, graph_element_key(r.source)), labels.get(r.target,
                                                                    graph_element_key(r.target))
        if r.direction == "none":
            a, b = sorted((a, b))
        relations.append(_relation_key(r.type, r.direction, a, b, r.label))
    return entities, relations


def _relation_key(kind: str, direction: str, source: str, target: str, label: str) -> Key:
    """A relation's key: its type, direction and ends, and its normalised label if any."""
    label = graph_element_key(label)
    return (kind, direction, source, target, label) if label else (kind, direction, source,
                                                                   target)


_UNNAMED = frozenset({"start", "end", "fork", "join", "choice", "history", "deep_history",
                      "entry_point", "exit_point", "junction"})


def match(gold: list[Key], pred: list[Key]) -> Match:
    """The multiset match of two lists of keys."""
    g, p = Counter(gold), Counter(pred)
    common = g & p
    return Match(len(gold), len(pred), sum(common.values()),
                 tuple(sorted("/".join(k) for k in (g - p).elements())),
                 tuple(sorted("/".join(k) for k in (p - g).elements())))


def type_counts(diagram: Any) -> dict[str, int]:
    """STRUDEL's statistics of a diagram: how many entities of each kind and relations
    of each type (names and ends ignored)."""
    entities, relations = elements(diagram)
    counts = Counter(f"entity:{k[0]}" for k in entities)
    counts.update(f"relation:{k[0]}" for k in relations)
    return dict(sorted(counts.items()))


def compare_models(gold: Any, pred: Any | None, valid: bool, kind: str = "",
                   warnings: tuple[str, ...] = ()) -> GraphComparison:
    """Compare two parsed diagrams (`pred` None: nothing was read from the prediction)."""
    ge, gr = elements(gold)
    pe, pr = elements(pred) if pred is not None else ([], [])
    return GraphComparison(kind or getattr(gold, "kind", "sequence"), valid, match(ge, pe),
                           match(gr, pr), type_counts(gold),
                           type_counts(pred) if pred is not None else {}, warnings)


def model_of(parsed: Parsed[Diagram] | None) -> tuple[Any | None, str, tuple[str, ...]]:
    """(model, kind, warnings: its first errors) of one diagram read (None: nothing was
    read)."""
    if parsed is None:
        return None, "empty", ("no diagram",)
    warnings = tuple(f"line {d.line}: {d.reason}" for d in parsed.errors[:3])
    return parsed.diagram, parsed.kind, warnings


M = TypeVar("M")


def model_as(parsed: Parsed[Diagram] | None, model_type: type[M], what: str
             ) -> tuple[M | None, tuple[str, ...]]:
    """The model of one diagram read if it is a `model_type` read without errors, else
    None and why (its first errors, or "no WHAT")."""
    model, _, warnings = model_of(parsed)
    if warnings or not isinstance(model, model_type):
        return None, warnings or (f"no {what}",)
    return model, ()


def compare_graphs(gold: Parsed[Diagram], pred: Parsed[Diagram] | None, valid: bool
                   ) -> GraphComparison:
    """Compare a predicted diagram with its ground truth, both read by their language."""
    gold_model, kind, _ = model_of(gold)
    pred_model, _, warnings = model_of(pred)
    return compare_models(gold_model, pred_model, valid, kind, warnings)


def element_matches(comparison: Scored) -> tuple[Match, Match] | None:
    """The entity and relation matches of a graph-shaped comparison; None for one of
    another shape (an alignment, a board, a score, a map)."""
    entities = getattr(comparison, "entities", None)
    relations = getattr(comparison, "relations", None)
    if isinstance(entities, Match) and isinstance(relations, Match):
        return entities, relations
    return None
