"""PlantUML's namespaces in class diagrams (`plantuml.namespaces`): each case a form the
differential test of the graph reader found read differently from PlantUML, with the
entities and clusters PlantUML draws (read off its SVG, `data-qualified-name`s in the
comments), and the same counts checked against PlantUML in one warm batch."""

from __future__ import annotations

import pytest

from diagbench.formats.plantuml.read import read_plantuml
from tests.graph_corpus import render_statistics

#: (source, entities, clusters) as PlantUML draws them
CASES = [
    # a link inside a package naming a class declared later elsewhere creates it there:
    # Sales.Product, Sales.Stock, Stock.Stock
    ("package Sales {\n class Product\n Product --> Stock\n}\n"
     "package Stock {\n class Stock\n}\n", 3, 2),
    # ... but a name declared once before is found from any package: A.X, B.Y
    ("package A {\n class X\n}\npackage B {\n X --> Y\n}\n", 2, 2),
    # a name declared in two packages is not found from outside them: P1.A, P2.A, P2.B, A
    ("package P1 {\n class A\n}\npackage P2 {\n class A\n A --> B\n}\nA --> B\n", 4, 2),
    # a declaration never reuses: N.X, N.Y, Y
    ("namespace N {\n class X\n X --> Y\n}\nclass Y\n", 3, 1),
    # dotted names make packages: A, A.B, A.B.C, D
    ("class A.B.C\nA.B.C --> D\n", 2, 2),
    # a qualified name is absolute when its first part is a top-level package: P.X, R.Q.Y
    ("package P {\n class X\n}\npackage R {\n P.X --> Q.Y\n}\n", 2, 3),
    # a package named with dots, quoted or not, or a namespace: com, com.example
    ('package "com.example" {\n class A\n}\n', 1, 2),
    ("namespace a.b {\n class X\n}\nnamespace c {\n namespace d {\n  class Y\n }\n}\n", 2, 4),
    # extends / implements name their parents as declarations do: in the current package
    ("class A extends B implements C, D\npackage P {\n class E extends F\n}\nclass F\n", 7, 1),
    # a package written twice is one package
    ("package P {\n class A\n}\npackage P {\n class B\n}\n", 2, 1),
    # a package alias is its name: LN.A
    ('package "Long Name" as LN {\n class A\n}\nLN.A --> B\n', 2, 1),
    # a class's display name is not its name: L, Long, X
    ('class "Long" as L\nLong --> X\n', 3, 0),
    # a member line refers as a link does
    ("package P {\n class A\n}\nA : +field int\nP.A : +other int\n", 1, 1),
    # a package holding only a note is drawn; one holding nothing is not
    ('package O {\n note "n" as N1\n}\nclass A\n', 1, 1),
    ("package O {\n package I {\n }\n}\nclass A\n", 1, 1),
    # set separator none: names are never split, and found anywhere by their full name
    ("set separator none\nclass A.B.C\npackage P {\n class Q.R\n}\n", 2, 1),
    ("set separator none\npackage P {\n class X\n}\npackage Q {\n X --> Y\n}\nclass Y\n",
     2, 2),
    ("set separator none\npackage Pk {\n class A\n A --> Pk.A\n}\nD --> Pk.A\n", 3, 1),
    # another separator: A, A::B and its A::B::C; A.B a class of its own
    ("set separator ::\nclass A::B::C\nclass A.B\n", 2, 2),
    ("set namespaceSeparator ::\nclass A::B\npackage P {\n class C.D\n}\n", 2, 2),
    # quoted names holding a stereotype, and a brace with no space before it
    ('package P {\n class "Name <<stereo>>" as N\n enum E{\n  A\n }\n}\n', 2, 1),
]


def _counts(source: str) -> tuple[int, int]:
    [parsed] = read_plantuml(f"@startuml\n{source}@enduml\n")
    counts = parsed.counts()
    return counts["entities"], counts["clusters"]


@pytest.mark.parametrize(("source", "entities", "clusters"), CASES)
def test_namespaces_resolve_as_plantuml_does(source, entities, clusters):
    assert _counts(source) == (entities, clusters)


@pytest.mark.differential
def test_the_cases_are_what_plantuml_draws():
    stats = render_statistics([f"@startuml\n{s}@enduml\n" for s, _, _ in CASES])
    for (source, entities, clusters), s in zip(CASES, stats, strict=True):
        assert s is not None, source
        assert (s["entities"], s["clusters"]) == (entities, clusters), source
