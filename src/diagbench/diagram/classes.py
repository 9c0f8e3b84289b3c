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

CLASS_KINDS = ("class", "interface", "abstract", "enum")
RELATION_KINDS = ("inheritance", "realization", "composition", "aggregation", "dependency",
                  "association")


@dataclass(frozen=True, slots=True)
class UmlClass:
    name: str
    kind: str = "class"
    attributes: tuple[str, ...] = ()
    methods: tuple[str, ...] = ()
    stereotypes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Relation:
    """`kind` from `source` to `target` in the sense of the table above."""

    kind: str
    source: str
    target: str
    navigable: bool = False  # association only: an arrowhead at the target
    label: str = ""

    @property
    def directed(self) -> bool:
        return self.kind != "association" or self.navigable

    def reversed(self) -> Relation:
        """The same relation pointing the other way (the prior-conflicting variant)."""
        return Relation(self.kind, self.target, self.source, self.navigable, self.label)


@dataclass(slots=True)
class ClassDiagram:
    classes: list[UmlClass] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    title: str | None = None

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.classes]

    def holds(self, kind: str, source: str, target: str) -> bool:
        """Whether the diagram depicts `kind` from `source` to `target`."""
        return any((r.kind == kind and (r.source, r.target) == (source, target))
                   or (r.kind == kind == "association" and not r.navigable
                       and (r.target, r.source) == (source, target))
                   for r in self.relations)
