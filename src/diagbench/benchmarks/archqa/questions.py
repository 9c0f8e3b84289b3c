"""diagbench's own question logic for the 24 SADU subtypes (paper 003_26afdd344a01d15b.txt
§2, Fig. 3): what each question asks, read from its text, and its answer computed from an
`Annotation`.

Each subtype is one template (a regular expression over the question's first part, before
"Required Output Format") and one function of the annotation. The definitions are ours,
written from what the question says:

- an entity "has a relation" with another when some relation joins them either way; an
  entity "has more than one relation" when at least two relations touch it (a relation
  from an entity to itself counts once); clusters are not entities;
- a cluster "contains" the entities its annotation includes (SADU lists the entities of
  nested clusters in the enclosing one too);
- "the relation between A and B" is a relation from A to B, else from B to A; its ER
  cardinalities are given in the order the question names A and B;
- relation types are directions (behavioural), UML types (structural) or identifying /
  non-identifying (ER);
- names are matched exactly; a name two elements share makes a question ambiguous.

`recompute` returns the answer in the published answer's shape (``[n]`` for counts, a
sorted list of names, ``[[card_a, card_b]]`` for ER cardinalities, ``[[source, target],
…]`` for relations) and, when the question has no single answer, why.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from diagbench.benchmarks.archqa.records import Annotation, Kind, Relation

_NAME = r"'(?P<{}>.*)'"


@dataclass(frozen=True, slots=True)
class Template:
    """A question subtype: its name, kind and the patterns of its wording."""

    subtype: str
    kind: Kind
    patterns: tuple[re.Pattern[str], ...]


def _t(subtype: str, kind: Kind, *patterns: str) -> Template:
    return Template(subtype, kind, tuple(re.compile(p, re.S) for p in patterns))


_E, _C = "(?P<{0}_kind>Entity|Cluster)", "(?P<{0}_kind>entity|cluster)"
_PAIR = (f"{_E.format('a')} '(?P<a>.*)' and {_E.format('b')} '(?P<b>.*)'")

TEMPLATES: tuple[Template, ...] = (
    _t("total_entity_number", "counting", r"How many entities are in the diagram\?"),
    _t("total_relation_number", "counting", r"How many relations are in the diagram\?"),
    _t("entities_have_more_than_one_relations", "counting",
       r"How many entities have more than one relation\?"),
    _t("total_cluster_number", "counting", r"How many clusters are in the diagram\?"),
    _t("how_many_entities_not_in_clusters", "counting",
       r"How many entities are not contained in any cluster\?"),
    _t("how_many_relations_have_label", "counting", r"How many relations have a label\?"),
    _t("how_many_clusters_have_clusters_within", "counting",
       r"How many clusters contain at least one sub-cluster \(nested clusters\)\?"),
    _t("how_many_entities_does_certain_cluster_have", "counting",
       r"How many entities are contained in Cluster " + _NAME.format("cluster") + r"\?"),
    _t("how_many_relation_types", "counting",
       r"How many relation types appear in the diagram\?"),
    _t("how_many_attributes_certain_entity_has", "counting",
       r"How many attributes does Entity " + _NAME.format("entity") + r" have\?"),
    _t("how_many_methods_certain_entity_has", "counting",
       r"How many methods does Entity " + _NAME.format("entity") + r" have\?"),
    _t("cluster_has_most_entities", "retrieval",
       r"Which cluster\(s\) contain the most entities\?"),
    _t("relation_statement", "retrieval",
       r"Which entity has a relation with Entity " + _NAME.format("entity") + r"\?"),
    _t("certain_cluster_contains_entity", "retrieval",
       r"Which entities are contained in cluster " + _NAME.format("cluster") + r"\?"),
    _t("label_on_the_relation", "retrieval",
       r"What is the label on the relation between " + _PAIR + r"\?"),
    _t("label_on_the_relation_source", "retrieval",
       f"Which {_C.format('a')} has a relation with label " + _NAME.format("label")
       + f" to {_E.format('b')} " + _NAME.format("b") + r"\?"),
    _t("label_on_the_relation_target", "retrieval",
       f"Which {_C.format('b')} has a relation with label " + _NAME.format("label")
       + f" from {_E.format('a')} " + _NAME.format("a") + r"\?",
       # SADU's generator words the cluster → cluster case "… to Cluster 'SOURCE'"
       "Which (?P<b_kind>cluster) has a relation with label " + _NAME.format("label")
       + " to (?P<a_kind>Cluster) " + _NAME.format("a") + r"\?"),
    _t("cluster_contains_certain_entity", "retrieval",
       r"Which cluster\(s\) contain Entity " + _NAME.format("entity") + r"\?"),
    _t("entity_contains_certain_attribute", "retrieval",
       r"What attributes does Entity " + _NAME.format("entity") + r" have\?"),
    _t("entity_contains_certain_method", "retrieval",
       r"What methods does Entity " + _NAME.format("entity")
       + r" have\? Please only the return function names\."),
    _t("type_on_the_relation", "retrieval",
       r"What is the directionality of the relation between " + _PAIR
       + r"\? \(e\.g\. single, double, and none\)",
       r"What is the type of the relation between " + _PAIR + r"\? \(e\.g\., association, "
       r"inheritance, composition, dependency, and aggregation\)",
       r"What is the cardinality on both sides of the relation between " + _PAIR
       + r"\? ?\(For each side of the relation, please return .*\)"),
    _t("relation_source", "retrieval",
       r"Which entity is the source in a relation to Entity " + _NAME.format("entity")
       + r"\?"),
    _t("relation_target", "retrieval",
       r"Which entity is the target in a relation from Entity " + _NAME.format("entity")
       + r"\?"),
    _t("which_relation_has_certain_label", "retrieval",
       r"Which relation\(s\) carry the label " + _NAME.format("label")
       + r"\? Please use format \[source entity, target entity\] to represent certain "
       r"relation\."),
)
SUBTYPES: dict[str, Template] = {t.subtype: t for t in TEMPLATES}
COUNTING = tuple(t.subtype for t in TEMPLATES if t.kind == "counting")
RETRIEVAL = tuple(t.subtype for t in TEMPLATES if t.kind == "retrieval")


def kind_of(subtype: str) -> Kind:
    """counting or retrieval (KeyError for a subtype SADU does not have)."""
    return SUBTYPES[subtype].kind


def stem(text: str) -> str:
    """The question without its output-format instructions."""
    return text.split("\nRequired Output Format", 1)[0].strip()


@dataclass(frozen=True, slots=True)
class Computed:
    """An answer recomputed from the annotation (None when there is none) and why the
    question has no single answer (None when it has)."""

    answer: Any
    problem: str | None = None


class _Lookup:
    """Names → ids of one annotation's entities and clusters."""

    def __init__(self, annotation: Annotation) -> None:
        self.a = annotation
        self.entities: dict[str, list[str]] = {}
        self.clusters: dict[str, list[str]] = {}
        for e in annotation.entities:
            self.entities.setdefault(e.name, []).append(e.id)
        for c in annotation.clusters:
            self.clusters.setdefault(c.name, []).append(c.id)

    def one(self, name: str, kind: str = "entity") -> tuple[str | None, str | None]:
        """The id named `name` (entity or cluster), or why there is not exactly one."""
        ids = (self.entities if kind.lower() == "entity" else self.clusters).get(name, [])
        if not ids:
            return None, f"no {kind.lower()} named {name!r} in the annotation"
        if len(ids) > 1:
            plural = "entities" if kind.lower() == "entity" else "clusters"
            return None, f"ambiguous name: {len(ids)} {plural} are named {name!r}"
        return ids[0], None

    def names(self, ids: list[str]) -> list[str]:
        return sorted(self.a.name(i) or "" for i in ids)

    def is_entity(self, ident: str) -> bool:
        return self.a.entity(ident) is not None


def _count(n: int) -> Computed:
    return Computed([n])


def _degree(a: Annotation) -> dict[str, int]:
    degree = {e.id: 0 for e in a.entities}
    for r in a.relations:
        for end in {r.source, r.target}:
            if end in degree:
                degree[end] += 1
    return degree


def _types(a: Annotation) -> set[str]:
    if a.family == "behavioral":
        return {r.direction for r in a.relations if r.direction}
    return {r.type for r in a.relations if r.type}


def _between(a: Annotation, x: str, y: str) -> tuple[list[Relation], bool]:
    """The relations from x to y, else those from y to x (and whether reversed)."""
    forward = [r for r in a.relations if (r.source, r.target) == (x, y)]
    if forward:
        return forward, False
    return [r for r in a.relations if (r.source, r.target) == (y, x)], True


def _pair(look: _Lookup, m: re.Match[str]) -> tuple[str | None, str | None, str | None]:
    x, problem = look.one(m["a"], m["a_kind"])
    if problem:
        return None, None, problem
    y, problem = look.one(m["b"], m["b_kind"])
    return x, y, problem


def _label_between(look: _Lookup, m: re.Match[str]) -> Computed:
    x, y, problem = _pair(look, m)
    if problem or x is None or y is None:
        return Computed(None, problem)
    relations, _ = _between(look.a, x, y)
    labels = sorted({r.label for r in relations if r.label})
    if not labels:
        return Computed(None, "no labelled relation between the two")
    if len(labels) > 1:
        return Computed(labels, f"{len(labels)} labelled relations join the two")
    return Computed(labels)


def _type_between(look: _Lookup, m: re.Match[str]) -> Computed:
    x, y, problem = _pair(look, m)
    if problem or x is None or y is None:
        return Computed(None, problem)
    relations, reversed_ = _between(look.a, x, y)
    if not relations:
        return Computed(None, "no relation between the two")
    values: list[Any] = []
    for r in relations:
        if look.a.family == "er":
            sides = [r.source_cardinality, r.target_cardinality]
            values.append(sides[::-1] if reversed_ else sides)
        else:
            values.append(r.direction if look.a.family == "behavioral" else r.type)
    distinct = [v for i, v in enumerate(values) if v not in values[:i]]
    problem = f"{len(distinct)} relations of different types join the two" \
        if len(distinct) > 1 else None
    return Computed(distinct, problem)


def _labelled_end(look: _Lookup, m: re.Match[str], want_source: bool) -> Computed:
    known = "b" if want_source else "a"
    ident, problem = look.one(m[known], m[f"{known}_kind"])
    if problem or ident is None:
        return Computed(None, problem)
    wanted_kind = m["a_kind" if want_source else "b_kind"].lower()
    ends = []
    for r in look.a.relations:
        if r.label != m["label"] or (r.target if want_source else r.source) != ident:
            continue
        end = r.source if want_source else r.target
        if look.is_entity(end) == (wanted_kind == "entity"):
            ends.append(end)
    if not ends:
        return Computed(None, "no relation with that label at that end")
    names = sorted(set(look.names(ends)))
    return Computed(names, None if len(names) == 1 else
                    f"{len(names)} elements match the label and end")


def _neighbours(look: _Lookup, name: str, sources: bool, targets: bool) -> Computed:
    ident, problem = look.one(name)
    if problem or ident is None:
        return Computed(None, problem)
    found = set()
    for r in look.a.relations:
        if not (look.is_entity(r.source) and look.is_entity(r.target)):
            continue
        if sources and r.target == ident:
            found.add(r.source)
        if targets and r.source == ident:
            found.add(r.target)
    names = look.names(sorted(found))
    if len(set(names)) < len(names):
        return Computed(sorted(set(names)), "ambiguous name: several answer entities share "
                        "a name, which the answer then lists more than once")
    return Computed(names)


def _in_cluster(look: _Lookup, name: str) -> Computed:
    ident, problem = look.one(name, "cluster")
    cluster = None if ident is None else look.a.cluster(ident)
    if problem or cluster is None:
        return Computed(None, problem)
    return Computed(look.names(list(cluster.entities)))


def _cluster_count(look: _Lookup, name: str) -> Computed:
    ident, problem = look.one(name, "cluster")
    cluster = None if ident is None else look.a.cluster(ident)
    if problem or cluster is None:
        return Computed(None, problem)
    return _count(len(cluster.entities))


def _members(look: _Lookup, name: str, what: str) -> Computed:
    ident, problem = look.one(name)
    entity = None if ident is None else look.a.entity(ident)
    if problem or entity is None:
        return Computed(None, problem)
    if what == "attributes":
        items = None if entity.attributes is None else [x.name for x in entity.attributes]
    else:
        items = None if entity.methods is None else list(entity.methods)
    if items is None:
        return Computed(None, f"the entity has no {what} list")
    return Computed(items)


def _most(a: Annotation) -> Computed:
    named = [c for c in a.clusters if c.name]
    if not named:
        return Computed(None, "no named cluster")
    top = max(len(c.entities) for c in named)
    return Computed(sorted(c.name for c in named if len(c.entities) == top))


def _containing(look: _Lookup, name: str) -> Computed:
    ident, problem = look.one(name)
    if problem or ident is None:
        return Computed(None, problem)
    names = sorted({c.name for c in look.a.clusters if ident in c.entities and c.name})
    return Computed(names) if names else Computed(None, "no cluster contains the entity")


def _with_label(look: _Lookup, label: str) -> Computed:
    pairs = sorted([look.a.name(r.source) or "", look.a.name(r.target) or ""]
                   for r in look.a.relations if r.label == label)
    if not pairs:
        return Computed(None, "no relation carries the label")
    return Computed(pairs)


_Answer = Callable[[_Lookup, re.Match[str]], Computed]
_LOGIC: dict[str, _Answer] = {
    "total_entity_number": lambda k, m: _count(len(k.a.entities)),
    "total_relation_number": lambda k, m: _count(len(k.a.relations)),
    "entities_have_more_than_one_relations":
        lambda k, m: _count(sum(d >= 2 for d in _degree(k.a).values())),
    "total_cluster_number": lambda k, m: _count(len(k.a.clusters)),
    "how_many_entities_not_in_clusters": lambda k, m: _count(sum(
        not any(e.id in c.entities for c in k.a.clusters) for e in k.a.entities)),
    "how_many_relations_have_label":
        lambda k, m: _count(sum(bool(r.label.strip()) for r in k.a.relations)),
    "how_many_clusters_have_clusters_within":
        lambda k, m: _count(sum(bool(c.clusters) for c in k.a.clusters)),
    "how_many_entities_does_certain_cluster_have": lambda k, m: _cluster_count(k, m["cluster"]),
    "how_many_relation_types": lambda k, m: _count(len(_types(k.a))),
    "how_many_attributes_certain_entity_has": lambda k, m: _len(_members(k, m["entity"],
                                                                         "attributes")),
    "how_many_methods_certain_entity_has":
        lambda k, m: _len(_members(k, m["entity"], "methods")),
    "cluster_has_most_entities": lambda k, m: _most(k.a),
    "relation_statement": lambda k, m: _neighbours(k, m["entity"], True, True),
    "certain_cluster_contains_entity": lambda k, m: _in_cluster(k, m["cluster"]),
    "label_on_the_relation": _label_between,
    "label_on_the_relation_source": lambda k, m: _labelled_end(k, m, True),
    "label_on_the_relation_target": lambda k, m: _labelled_end(k, m, False),
    "cluster_contains_certain_entity": lambda k, m: _containing(k, m["entity"]),
    "entity_contains_certain_attribute":
        lambda k, m: _sorted(_members(k, m["entity"], "attributes")),
    "entity_contains_certain_method":
        lambda k, m: _sorted(_members(k, m["entity"], "methods")),
    "type_on_the_relation": _type_between,
    "relation_source": lambda k, m: _neighbours(k, m["entity"], True, False),
    "relation_target": lambda k, m: _neighbours(k, m["entity"], False, True),
    "which_relation_has_certain_label": lambda k, m: _with_label(k, m["label"]),
}


def _len(c: Computed) -> Computed:
    return c if c.answer is None else Computed([len(c.answer)], c.problem)


def _sorted(c: Computed) -> Computed:
    return c if c.answer is None else Computed(sorted(c.answer), c.problem)


def match(subtype: str, text: str) -> re.Match[str] | None:
    """The question's wording matched against its subtype's template (None: no match)."""
    template = SUBTYPES.get(subtype)
    if template is None:
        return None
    question = stem(text)
    return next((m for p in template.patterns if (m := p.fullmatch(question))), None)


def recompute(annotation: Annotation, subtype: str, text: str) -> Computed:
    """The answer of the question `text` of `subtype` about `annotation`."""
    if subtype not in SUBTYPES:
        return Computed(None, f"unknown subtype {subtype!r}")
    found = match(subtype, text)
    if found is None:
        return Computed(None, "the question matches no template of its subtype")
    return _LOGIC[subtype](_Lookup(annotation), found)
