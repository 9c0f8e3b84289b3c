"""Generate the benchmark's instances deterministically (paper 002 §3.1, Appendix D).

Per relation, from the vocabulary's prior pairs shuffled by the seed:

- prior-conform: two classes, the relation drawn as the names suggest;
- 2-reverse: the same two classes, the arrow reversed;
- 3-reverse: two prior pairs sharing one class (a chain or a branch), both
  arrows reversed;
- 3-mixed: the same three classes, one arrow as the prior says, one reversed
  (only the reversed one is queried);
- prior-free: each prior-conform instance with its names cut to their capital
  letters (GoldenRetriever → GR); one whose abbreviations collide, or that
  repeats an earlier instance (diagram and query), is rejected. While the
  cell is not full, each prior-conform diagram is then abbreviated again with
  its query reversed (an instance the paper's deduplication also keeps).

One base instance is one diagram with one query, as the paper counts them
(Appendix D): each diagram asks about its (reversed, in 3-class diagrams)
edge, forwards and backwards in turn, so every cell has as many True as False
labels. `queries="both"` asks each depicted edge both ways instead (a
diagram then gives 2 instances, 4 for 3-reverse). Matched instances —
prior-conform/2-reverse, 3-reverse/3-mixed, prior-conform/prior-free — share
names, edge structure, layout (the same class is written first on each edge
line) and query; a matched group is kept whole or not at all, so no cell
exceeds its target. Every instance passes `check_instance` (the four
constraints); every candidate that fails is counted, once per broken
constraint.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from diagbench.benchmarks.prior_bias.vocabulary import RELATIONS, PriorRelation, Vocabulary
from diagbench.diagram.classes import ClassDiagram, Relation, UmlClass
from diagbench.formats.plantuml.classes import write_class_diagram

CONDITIONS = ("prior-free", "prior-conform", "2-reverse", "3-reverse", "3-mixed")
CONFLICT = ("2-reverse", "3-reverse", "3-mixed")
Queries = Literal["one", "both"]
#: Cells to fill: condition → relation → base instances.
Sizes = Mapping[str, Mapping[str, int]]
#: Table 1 of paper 002 (Appendix D); prior-free is what its deduplication left.
PAPER_SIZES: dict[str, dict[str, int]] = {
    "prior-free": {"aggregation": 338, "composition": 373, "dependency": 1044,
                   "inheritance": 1401},
    **{c: {"aggregation": 1200, "composition": 1200, "dependency": 1300, "inheritance": 2300}
       for c in ("prior-conform", "2-reverse", "3-reverse", "3-mixed")}}


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
    counts: Counter = field(default_factory=Counter)  # instances per (condition, relation)

    def fits(self, relation: str, sizes: Sizes, *groups: list[Instance]) -> bool:
        """Whether every cell these instances fall in stays within its size."""
        wanted = Counter((i.condition, relation) for group in groups for i in group)
        return all(self.counts[cell] + n <= sizes[cell[0]][relation]
                   for cell, n in wanted.items())

    def full(self, relation: str, sizes: Sizes, *conditions: str) -> bool:
        return any(self.counts[c, relation] >= sizes[c][relation] for c in conditions)


def diagram_of(instance: str) -> str:
    """The original diagram an instance asks about: its id without the question's
    number (``DIAGRAM-qK`` → ``DIAGRAM``; a twin's, ``DIAGRAM-qK~FAMILY``, its
    original's)."""
    return instance.rpartition("-q")[0] or instance


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


def uniform(per_cell: int) -> dict[str, dict[str, int]]:
    """The same size in every cell."""
    return {c: dict.fromkeys(RELATIONS, per_cell) for c in CONDITIONS}


def generate(vocabulary: Vocabulary, sizes: Sizes, seed: int = 0, queries: Queries = "one"
             ) -> Build:
    """Up to `sizes[condition][relation]` instances per cell (fewer when the vocabulary
    runs out: the shortfall shows in the counts)."""
    build = Build(rejected=Counter(vocabulary.rejected))
    for relation in RELATIONS:
        rng = random.Random(f"{seed}:{relation}")
        pairs = list(vocabulary.pairs[relation])
        rng.shuffle(pairs)
        _two_class(build, vocabulary, relation, pairs, sizes, queries)
        _three_class(build, vocabulary, relation, pairs, sizes, queries, rng)
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


def _queries(diagram: Diagram, relation: str, condition: str,
             asked: list[tuple[str, str]]) -> list[Instance]:
    return [Instance(f"{diagram.id}-q{k}", diagram.id, relation, condition,
                     tuple(diagram.diagram.names), (a, b), diagram.diagram.holds(relation, a, b))
            for k, (a, b) in enumerate(asked)]


def _asked(edge: Relation, queries: Queries, forwards: bool) -> list[tuple[str, str]]:
    """The ordered pairs asked about `edge`: both ways, or one way (`forwards`: source to
    target)."""
    there, back = (edge.source, edge.target), (edge.target, edge.source)
    if queries == "both":
        return [there, back]
    return [there if forwards else back]


def _valid(build: Build, vocabulary: Vocabulary, diagram: Diagram,
           instances: list[Instance], matched: Diagram | None = None) -> bool:
    """Whether every instance of `diagram` is valid; else count each broken constraint."""
    broken = dict.fromkeys(b for instance in instances
                           for b in check_instance(instance, diagram.diagram, vocabulary,
                                                   matched.diagram if matched else None))
    for reason in broken:
        build.rejected[f"{instances[0].condition}: {reason}"] += 1
    return not broken


def _keep(build: Build, *groups: tuple[Diagram, list[Instance]]) -> None:
    for diagram, instances in groups:
        build.diagrams[diagram.id] = diagram
        build.instances += instances
        build.counts.update((i.condition, i.relation) for i in instances)


def _matched(instances: list[Instance], partners: list[Instance]) -> list[Instance]:
    by_query = {p.query: p.id for p in partners}
    return [replace(i, matched=by_query.get(i.query)) for i in instances]


def _two_class(build: Build, vocabulary: Vocabulary, relation: PriorRelation,
               pairs: list[tuple[str, str]], sizes: Sizes, queries: Queries) -> None:
    conforms: list[tuple[Diagram, list[Instance]]] = []
    for source, target in pairs:
        if build.full(relation, sizes, "prior-conform", "2-reverse"):
            break
        first = {frozenset((source, target)): source}
        edge = Relation(relation, source, target)
        asked = _asked(edge, queries, build.counts["prior-conform", relation] % 2 == 0)
        conform = _diagram(build, relation, "prior-conform", [edge], first)
        reverse = _diagram(build, relation, "2-reverse", [edge.reversed()], first)
        c_inst = _queries(conform, relation, "prior-conform", asked)
        r_inst = _queries(reverse, relation, "2-reverse", asked)
        c_inst, r_inst = _matched(c_inst, r_inst), _matched(r_inst, c_inst)
        if not build.fits(relation, sizes, c_inst, r_inst):
            break
        if _valid(build, vocabulary, conform, c_inst) \
                and _valid(build, vocabulary, reverse, r_inst, conform):
            _keep(build, (conform, c_inst), (reverse, r_inst))
            conforms.append((conform, c_inst))
    seen: set[tuple] = set()
    for conform, c_inst in conforms:  # each prior-conform instance abbreviated
        _prior_free(build, vocabulary, relation, conform,
                    [(i.query, i.id) for i in c_inst], seen, sizes)
    if queries == "one":  # then, while the cell is not full, its diagram asked the other way
        for conform, c_inst in conforms:
            _prior_free(build, vocabulary, relation, conform,
                        [((i.query[1], i.query[0]), None) for i in c_inst], seen, sizes)


def _prior_free(build: Build, vocabulary: Vocabulary, relation: PriorRelation, conform: Diagram,
                asked: list[tuple[tuple[str, str], str | None]], seen: set[tuple],
                sizes: Sizes) -> None:
    """`conform` with its names abbreviated, asked the queries of `asked` (each with the
    prior-conform instance it matches, if any)."""
    if build.full(relation, sizes, "prior-free"):
        return
    short = {n: abbreviate(n) for n in conform.diagram.names}
    if len(set(short.values())) != len(short):
        build.rejected["prior-free: abbreviations collide within the diagram"] += 1
        return
    edges = [Relation(e.kind, short[e.source], short[e.target]) for e in conform.diagram.relations]
    key = (tuple((e.kind, e.source, e.target) for e in edges),
           tuple((short[a], short[b]) for (a, b), _ in asked))
    if key in seen:
        build.rejected["prior-free: same instance as an earlier one after abbreviation"] += 1
        return
    seen.add(key)
    first = {frozenset(short[a] for a in pair): short[top] for pair, top in conform.first.items()}
    free = _diagram(build, relation, "prior-free", edges, first)
    instances = [Instance(f"{free.id}-q{k}", free.id, relation, "prior-free",
                          tuple(free.diagram.names), (short[a], short[b]),
                          conform.diagram.holds(relation, a, b), matched)
                 for k, ((a, b), matched) in enumerate(asked)]
    if build.fits(relation, sizes, instances) \
            and _valid(build, vocabulary, free, instances, conform):
        _keep(build, (free, instances))


def _three_class(build: Build, vocabulary: Vocabulary, relation: PriorRelation,
                 pairs: list[tuple[str, str]], sizes: Sizes, queries: Queries,
                 rng: random.Random) -> None:
    """Two prior pairs sharing exactly one class: a chain (Dog → Mammal → Animal) or a
    branch (Library ◇ Book, Bookshelf ◇ Book). Each pair is combined with its next
    partner in turn (round robin), so that the diagrams spread over the vocabulary."""
    with_name: dict[str, list[int]] = {}
    for k, pair in enumerate(pairs):
        for name in pair:
            with_name.setdefault(name, []).append(k)
    partners = [sorted({j for name in pair for j in with_name[name] if j > k
                        and len({*pair, *pairs[j]}) == 3}) for k, pair in enumerate(pairs)]
    used: set[frozenset[str]] = set()
    for turn in range(max(map(len, partners), default=0)):
        for k, others in enumerate(partners):
            if build.full(relation, sizes, "3-reverse", "3-mixed"):
                return
            if turn >= len(others):
                continue
            names = frozenset({*pairs[k], *pairs[others[turn]]})
            if names not in used:
                used.add(names)
                _three_class_pair(build, vocabulary, relation, pairs[k], pairs[others[turn]],
                                  sizes, queries, rng)


def _three_class_pair(build: Build, vocabulary: Vocabulary, relation: PriorRelation,
                      e1: tuple[str, str], e2: tuple[str, str], sizes: Sizes,
                      queries: Queries, rng: random.Random) -> None:
    first = {frozenset(e1): e1[0], frozenset(e2): e2[0]}
    prior = [Relation(relation, *e1), Relation(relation, *e2)]
    if rng.random() < 0.5:
        prior.reverse()
    both = [e.reversed() for e in prior]
    mixed = [prior[0], prior[1].reversed()]
    forwards = build.counts["3-mixed", relation] % 2 == 0
    rev = _diagram(build, relation, "3-reverse", both, first)
    mix = _diagram(build, relation, "3-mixed", mixed, first)
    r_asked = [q for e in (both if queries == "both" else both[1:])
               for q in _asked(e, queries, forwards)]
    r_inst = _queries(rev, relation, "3-reverse", r_asked)
    m_inst = _queries(mix, relation, "3-mixed", _asked(mixed[1], queries, forwards))
    r_inst, m_inst = _matched(r_inst, m_inst), _matched(m_inst, r_inst)
    if build.fits(relation, sizes, r_inst, m_inst) \
            and _valid(build, vocabulary, rev, r_inst) \
            and _valid(build, vocabulary, mix, m_inst, rev):
        _keep(build, (rev, r_inst), (mix, m_inst))
