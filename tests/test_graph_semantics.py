"""The same class relations written in PlantUML and in Mermaid read to the same meaning:
composition and aggregation from the whole (the diamond's end) to the part, inheritance
and realization from the child to the parent (the triangle's end), with the
cardinality written at each end kept at that end."""

from __future__ import annotations

import pytest

from diagbench.languages import read

#: (PlantUML link, Mermaid link, expected (type, source, target)) — both sides written
#: in both orders.
CASES = [
    ("Car *-- Engine", "Car *-- Engine", ("composition", "Car", "Engine")),
    ("Engine --* Car", "Engine --* Car", ("composition", "Car", "Engine")),
    ("Garage o-- Car", "Garage o-- Car", ("aggregation", "Garage", "Car")),
    ("Car --o Garage", "Car --o Garage", ("aggregation", "Garage", "Car")),
    ("Animal <|-- Dog", "Animal <|-- Dog", ("inheritance", "Dog", "Animal")),
    ("Dog --|> Animal", "Dog --|> Animal", ("inheritance", "Dog", "Animal")),
    ("Shape <|.. Circle", "Shape <|.. Circle", ("realization", "Circle", "Shape")),
    ("Circle ..> Pen", "Circle ..> Pen", ("dependency", "Circle", "Pen")),
]


def _meaning(text: str, language: str) -> tuple[str, str, str]:
    [parsed] = read(text, language)
    [relation] = parsed.diagram.relations
    return relation.type, relation.source, relation.target


@pytest.mark.parametrize(("plantuml", "mermaid", "expected"), CASES)
def test_plantuml_and_mermaid_mean_the_same(plantuml, mermaid, expected):
    assert _meaning(f"@startuml\n{plantuml}\n@enduml\n", "plantuml") == expected
    assert _meaning(f"classDiagram\n{mermaid}\n", "mermaid") == expected


def test_cardinality_stays_at_its_end():
    for text, language in (('@startuml\nCar "1" *-- "4" Wheel\n@enduml\n', "plantuml"),
                           ('classDiagram\nCar "1" *-- "4" Wheel\n', "mermaid"),
                           ('classDiagram\nWheel "4" --* "1" Car\n', "mermaid")):
        [parsed] = read(text, language)
        [r] = parsed.diagram.relations
        ends = {r.source: r.source_cardinality, r.target: r.target_cardinality}
        assert (r.type, r.source, ends) == ("composition", "Car", {"Car": "1", "Wheel": "4"})


#: Blocks whose every line a sequence diagram could hold but one (a layout direction, a
#: direction inside an arrow, a link with no head): PlantUML draws them as description
#: diagrams; and their sequence twins.
KINDS = [
    "@startuml\nleft to right direction\nactor A\nA --> A\n@enduml\n",
    "@startuml\ntop to bottom direction\nactor \"Shop Person\" as S\nS --> S : buys\n@enduml\n",
    "@startuml\nactor A\nA -up-> B\n@enduml\n",
    "@startuml\nactor A\nA --> A : uses\nA -- A : <<include>>\n@enduml\n",  # `--`: no sequence
    "@startuml\nactor A\nA --> A\n@enduml\n",
    "@startuml\nactor \"Shop Person\" as S\nS --> S : buys\n@enduml\n",
]


def test_the_diagram_kind_is_the_one_plantuml_draws(tmp_path):
    from diagbench.render.plantuml_pipe import PlantUMLEngine
    from diagbench.render.svg_stats import svg_statistics

    results = PlantUMLEngine(jobs=1).render(KINDS, tmp_path, "svg")
    for text, result in zip(KINDS, results, strict=True):
        assert result.ok and result.image is not None, result.error
        drawn = svg_statistics(result.image.read_text(encoding="utf-8"))["diagram_type"]
        [parsed] = read(text, "plantuml")
        assert (parsed.kind == "sequence") == (drawn == "sequence"), (text, parsed.kind, drawn)


def test_the_class_model_is_a_view_of_the_graph_model():
    from diagbench.diagram.classes import Relation, UmlClass
    from tests.class_view import parse_class_diagram

    view = parse_class_diagram('@startuml\nclass "Golden Retriever" as GR <<pet>>\n'
                               "abstract class Animal {\n  +name : String\n  +eat()\n}\n"
                               "GR --|> Animal\nAnimal <-- Owner : walks\nOwner -- Park\n"
                               "note right of Park : not a class\n@enduml\n")
    assert view.classes == [UmlClass("Golden Retriever", stereotypes=("pet",)),
                            UmlClass("Animal", "abstract", ("+name : String",), ("+eat()",)),
                            UmlClass("Owner"), UmlClass("Park")]
    assert view.relations == [Relation("inheritance", "Golden Retriever", "Animal"),
                              Relation("association", "Owner", "Animal", True, "walks"),
                              Relation("association", "Owner", "Park")]
