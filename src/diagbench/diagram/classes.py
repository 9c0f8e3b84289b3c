"""The UML class-diagram model: classes and relations with their UML meaning.

A relation is stored by what it means, not by how a text draws it:
`A <|-- B` and `B --|> A` are the same `Relation("inheritance", "B", "A")`.

| kind | source | target | drawn |
|---|---|---|---|
| inheritance | child | parent | solid line, hollow triangle at the parent |
| realization | implementer | interface | dashed line, hollow triangle at the interface |
| composition | whole | part | solid line, filled diamond at the whole |
| aggregation | whole | part | solid line, hollow diamond at the whole |
| dependency | dependent | depended-on | dashed line, open arrow at the depended-on |
| association | one end | other end | solid line (an arrow at the target if `navigable`) |
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, get_args

from diagbench.diagram.graph import GraphDiagram

#: The class kinds and relation kinds of this model: a subset of the graph model's
#: `EntityKind` and `RelationType`, with the same meanings.
ClassKind = Literal["class", "interface", "abstract", "enum"]
RelationKind = Literal["inheritance", "realization", "composition", "aggregation",
                       "dependency", "association"]
CLASS_KINDS: tuple[ClassKind, ...] = get_args(ClassKind)
RELATION_KINDS: tuple[RelationKind, ...] = get_args(RelationKind)


@dataclass(frozen=True, slots=True)
class UmlClass:
    name: str
    kind: ClassKind = "class"
    attributes: tuple[str, ...] = ()
    methods: tuple[str, ...] = ()
    stereotypes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Relation:
    """`kind` from `source` to `target` in the sense of the table above."""

    kind: RelationKind
    source: str
    target: str
    navigable: bool = False  # association only: an arrowhead at the target
    label: str = ""

    def reversed(self) -> Relation:
        """The same relation pointing the other way (the prior-conflicting variant)."""
        return Relation(self.kind, self.target, self.source, self.navigable, self.label)


@dataclass(slots=True)
class ClassDiagram:
    classes: list[UmlClass] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    title: str | None = None

    @classmethod
    def from_graph(cls, graph: GraphDiagram) -> ClassDiagram:
        """The class view of a graph diagram: its classes (by displayed name; an entity of
        another kind is a class, so that no relation loses an end) with their members and
        stereotypes, and the relations of the kinds above, named by their ends' displayed
        names; an association drawn with one arrowhead is navigable towards its target."""
        names = {e.id: e.label for e in graph.entities}
        classes = [UmlClass(e.label, e.kind if e.kind in CLASS_KINDS else "class",
                            tuple(m.text for m in e.attributes),
                            tuple(m.text for m in e.methods), e.stereotypes)
                   for e in graph.entities]
        relations = [Relation(r.type, names.get(r.source, r.source),
                              names.get(r.target, r.target),
                              r.type == "association" and r.direction == "single", r.label)
                     for r in graph.relations if r.type in RELATION_KINDS]
        return cls(classes, relations, graph.title or None)

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.classes]

    def holds(self, kind: str, source: str, target: str) -> bool:
        """Whether the diagram depicts `kind` from `source` to `target`."""
        return any((r.kind == kind and (r.source, r.target) == (source, target))
                   or (r.kind == kind == "association" and not r.navigable
                       and (r.target, r.source) == (source, target))
                   for r in self.relations)
