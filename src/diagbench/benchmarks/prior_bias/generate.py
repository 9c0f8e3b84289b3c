"""Generate the benchmark's instances deterministically (paper 002 §3.1, Appendix D).

Per relation, from the vocabulary's prior pairs shuffled by the seed:

- prior-conform: two classes, the relation drawn as the names suggest;
- 2-reverse: the same two classes, the arrow reversed;
- 3-reverse: two prior pairs sharing one class (a chain or a branch), both
  arrows reversed;
- 3-mixed: the same three classes, one arrow as the prior says, one reversed
  (only the reversed one is queried);
- prior-free: each prior-conform diagram with its names cut to their capital
  letters (GoldenRetriever → GR); a diagram whose abbreviations collide, or
  that repeats an earlier one, is rejected.

Each depicted edge is queried both ways ("does r hold from a to b?", and from
b to a), so every condition has as many True as False labels. Matched
instances — prior-conform/2-reverse, 3-reverse/3-mixed, prior-conform/
prior-free — share names, edge structure and layout (the same class is
written first on each edge line). Every instance passes `check_instance`
(the four constraints); candidates that fail are counted by reason.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field, replace

from diagbench.benchmarks.prior_bias.vocabulary import RELATIONS, PriorRelation, Vocabulary
from diagbench.diagram.classes import ClassDiagram, Relation, UmlClass
from diagbench.formats.plantuml.classes import write_class_diagram

CONDITIONS = ("prior-free", "prior-conform", "2-reverse", "3-reverse", "3-mixed")
CONFLICT = ("2-reverse", "3-reverse", "3-mixed")


@dataclass(frozen=True, slots=True)
class Diagram:
    id: str
    diagram: ClassDiagram
    first: dict[frozenset[str], str]

    def source(self) -> str:
        return write_class_diagram(self.diagram, self.first)


@dataclass(frozen=True, slots=True)
class Instance:
    id: str
    diagram: str
    relation: str
    condition: str
    classes: tuple[str, ...]
    query: tuple[str, str]
    gold: bool
    matched: str | None = None


@dataclass(slots=True)
class Build:
    diagrams: dict[str, Diagram] = field(default_factory=dict)
    instances: list[Instance] = field(default_factory=list)
    rejected: Counter = field(default_factory=Counter)
    serial: Counter = field(default_factory=Counter)  # diagrams numbered per relation × condition


def abbreviate(name: str) -> str:
    """The capital letters of a name (its first letter when it has none): `GoldenRetriever` → GR."""
    return "".join(re.findall(r"[A-Z]", name)) or name[:1].upper()


def check_instance(instance: Instance, diagram: ClassDiagram, vocabulary: Vocabulary,
                   matched: ClassDiagram | None) -> list[str]:
    """The constraints of §3.1 that `instance` breaks (empty: it is valid).

    (i) the queried relation and ordered pair exist as specified: both classes are
    drawn, linked by one relation of that type, and the gold label is what the
    diagram depicts; (ii) outside prior-free, the names come from the vocabulary
    and its prior for the pair is unambiguous; (iii) no other relation of type r
    links the queried pair, none is drawn twice, and class names are unique;
    (iv) a matched instance has the same class names (abbreviated, for prior-free)
    and edge structure.
    """
    broken = []
    r, (a, b) = instance.relation, instance.query
    linking = [x for x in diagram.relations if x.kind == r and {x.source, x.target} == {a, b}]
    if a not in diagram.names or b not in diagram.names or not linking:
        broken.append("(i) queried pair not linked by the relation")
    elif diagram.holds(r, a, b) != instance.gold:
        broken.append("(i) gold label disagrees with the diagram")
    if instance.condition != "prior-free":
        if not set(diagram.names) <= vocabulary.names(r):
            broken.append("(ii) class name outside the vocabulary")
        elif vocabulary.prior(r, a, b) is None:
            broken.append("(ii) no prior for the queried pair")
    edges = [frozenset((x.source, x.target)) for x in diagram.relations if x.kind == r]
    if len(linking) > 1 or len(edges) != len(set(edges)):
        broken.append("(iii) another relation of the same type links the classes")
    if len(set(diagram.names)) != len(diagram.names):
        broken.append("(iii) two classes share a name")
    rename = abbreviate if instance.condition == "prior-free" else str
    if matched is not None and _structure(matched, rename) != _structure(diagram, str):
        broken.append("(iv) matched diagram differs in names or edge structure")
    return broken


def _structure(diagram: ClassDiagram, rename) -> tuple:
    """Names and undirected edges (the matched prior-conform one abbreviated for prior-free)."""
    return (sorted(map(rename, diagram.names)),
            sorted((x.kind, tuple(sorted((rename(x.source), rename(x.target)))))
                   for x in diagram.relations))


def generate(vocabulary: Vocabulary, per_cell: int, seed: int = 0) -> Build:
    """Up to `per_cell` instances per relation × condition (fewer when the vocabulary
    runs out: the shortfall shows in the counts)."""
    build = Build(rejected=Counter(vocabulary.rejected))
    for relation in RELATIONS:
        rng = random.Random(f"{seed}:{relation}")
        pairs = list(vocabulary.pairs[relation])
        rng.shuffle(pairs)
        _two_class(build, vocabulary, relation, pairs, per_cell)
        _three_class(build, vocabulary, relation, pairs, per_cell, rng)
    return build


def _diagram(build: Build, relation: PriorRelation, condition: str, edges: list[Relation],
             first: dict[frozenset[str], str]) -> Diagram:
    ordered = []  # each edge's first-written class, then the other: the same for matched ones
    for e in edges:
        top = first[frozenset((e.source, e.target))]
        ordered += [top, e.target if top == e.source else e.source]
    names = list(dict.fromkeys(ordered))
    prefix = f"{relation[:3]}-{condition}"
    build.serial[prefix] += 1
    ident = f"{prefix}-{build.serial[prefix]:05d}"
    return Diagram(ident, ClassDiagram([UmlClass(n) for n in names], edges), first)


def _queries(diagram: Diagram, relation: str, condition: str, edges: list[Relation]
             ) -> list[Instance]:
    out: list[Instance] = []
    for edge in edges:
        for a, b in ((edge.source, edge.target), (edge.target, edge.source)):
            out.append(Instance(f"{diagram.id}-q{len(out)}", diagram.id, relation, condition,
                                tuple(diagram.diagram.names), (a, b),
                                diagram.diagram.holds(relation, a, b)))
    return out


def _accept(build: Build, vocabulary: Vocabulary, diagram: Diagram,
            instances: list[Instance], matched: Diagram | None = None) -> bool:
    """Keep `diagram` and its instances when every instance is valid; else count why."""
    for instance in instances:
        broken = check_instance(instance, diagram.diagram, vocabulary,
                                matched.diagram if matched else None)
        if broken:
            build.rejected[f"{instance.condition}: {broken[0]}"] += 1
            return False
    build.diagrams[diagram.id] = diagram
    build.instances += instances
    return True


def _matched(instances: list[Instance], partners: list[Instance]) -> list[Instance]:
    by_query = {p.query: p.id for p in partners}
    return [replace(i, matched=by_query.get(i.query)) for i in instances]


def _two_class(build: Build, vocabulary: Vocabulary, relation: PriorRelation,
               pairs: list[tuple[str, str]], per_cell: int) -> None:
    seen_free: set[tuple] = set()
    counts: Counter[str] = Counter()
    for source, target in pairs:
        if counts["prior-conform"] >= per_cell:
            break
        first = {frozenset((source, target)): source}
        conform_edge = [Relation(relation, source, target)]
        conform = _diagram(build, relation, "prior-conform", conform_edge, first)
        reverse = _diagram(build, relation, "2-reverse", [conform_edge[0].reversed()], first)
        c_inst = _queries(conform, relation, "prior-conform", conform_edge)
        r_inst = _queries(reverse, relation, "2-reverse", reverse.diagram.relations)
        c_inst, r_inst = _matched(c_inst, r_inst), _matched(r_inst, c_inst)
        if not (_accept(build, vocabulary, conform, c_inst)
                and _accept(build, vocabulary, reverse, r_inst, conform)):
            continue
        counts["prior-conform"] += len(c_inst)
        if counts["prior-free"] < per_cell:
            counts["prior-free"] += _prior_free(build, vocabulary, relation, conform, c_inst,
                                                seen_free)
    _trim(build, relation, ("prior-conform", "2-reverse", "prior-free"), per_cell)


def _prior_free(build: Build, vocabulary: Vocabulary, relation: PriorRelation, conform: Diagram,
                conform_instances: list[Instance], seen: set[tuple]) -> int:
    short = {n: abbreviate(n) for n in conform.diagram.names}
    if len(set(short.values())) != len(short):
        build.rejected["prior-free: abbreviations collide within the diagram"] += 1
        return 0
    edges = [Relation(e.kind, short[e.source], short[e.target]) for e in conform.diagram.relations]
    key = tuple((e.kind, e.source, e.target) for e in edges)
    if key in seen:
        build.rejected["prior-free: same diagram as an earlier one after abbreviation"] += 1
        return 0
    seen.add(key)
    first = {frozenset(short[a] for a in pair): short[top] for pair, top in conform.first.items()}
    free = _diagram(build, relation, "prior-free", edges, first)
    instances = [Instance(f"{free.id}-q{k}", free.id, relation, "prior-free",
                          tuple(free.diagram.names), (short[i.query[0]], short[i.query[1]]),
                          i.gold, i.id) for k, i in enumerate(conform_instances)]
    return len(instances) if _accept(build, vocabulary, free, instances, conform) else 0


def _three_class(build: Build, vocabulary: Vocabulary, relation: PriorRelation,
                 pairs: list[tuple[str, str]], per_cell: int, rng: random.Random) -> None:
    """Two prior pairs sharing exactly one class: a chain (Dog → Mammal → Animal) or a
    branch (Library ◇ Book, Bookshelf ◇ Book)."""
    made = 0
    used: set[frozenset[str]] = set()
    for k, (s1, t1) in enumerate(pairs):
        for s2, t2 in pairs[k + 1:]:
            if made >= per_cell:
                break
            names = {s1, t1, s2, t2}
            if len(names) != 3 or frozenset(names) in used:
                continue
            used.add(frozenset(names))
            made += _three_class_pair(build, vocabulary, relation, (s1, t1), (s2, t2), rng)
    _trim(build, relation, ("3-reverse", "3-mixed"), per_cell)


def _three_class_pair(build: Build, vocabulary: Vocabulary, relation: PriorRelation,
                      e1: tuple[str, str], e2: tuple[str, str], rng: random.Random) -> int:
    first = {frozenset(e1): e1[0], frozenset(e2): e2[0]}
    prior = [Relation(relation, *e1), Relation(relation, *e2)]
    if rng.random() < 0.5:
        prior.reverse()
    both = [e.reversed() for e in prior]
    mixed = [prior[0], prior[1].reversed()]
    rev = _diagram(build, relation, "3-reverse", both, first)
    mix = _diagram(build, relation, "3-mixed", mixed, first)
    r_inst = _queries(rev, relation, "3-reverse", both)
    m_inst = _queries(mix, relation, "3-mixed", [mixed[1]])
    r_inst, m_inst = _matched(r_inst, m_inst), _matched(m_inst, r_inst)
    if _accept(build, vocabulary, rev, r_inst) and _accept(build, vocabulary, mix, m_inst, rev):
        return len(m_inst)
    return 0


def _trim(build: Build, relation: str, conditions: tuple[str, ...], per_cell: int) -> None:
    """Keep the first `per_cell` instances of each cell; drop diagrams left without any."""
    counts: Counter = Counter()
    kept = []
    for instance in build.instances:
        cell = (instance.relation, instance.condition)
        if instance.relation == relation and instance.condition in conditions:
            counts[cell] += 1
            if counts[cell] > per_cell:
                continue
        kept.append(instance)
    ids = {i.id for i in kept}
    build.instances = [i if i.matched is None or i.matched in ids else replace(i, matched=None)
                       for i in kept]
    used = {i.diagram for i in build.instances}
    build.diagrams = {k: d for k, d in build.diagrams.items() if k in used}
