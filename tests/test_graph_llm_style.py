"""The graph reader on class, component and ER diagrams written the way language models
write them (tests/llm_grammar.py: packages with forward references, Java-like
declarations, stereotypes in quoted names): a seeded set, drawn by PlantUML in one warm
batch, counts what PlantUML draws."""

from __future__ import annotations

import random

import pytest

from diagbench.formats.plantuml.read import read_plantuml
from tests.graph_corpus import render_statistics
from tests.llm_grammar import KINDS, document
from tests.sizes import sized

KEYS = ("entities", "relations", "clusters", "notes")


@pytest.mark.differential
def test_llm_style_diagrams_count_as_plantuml_draws():
    rng = random.Random(30)
    sources = [document(rng, KINDS[k % len(KINDS)]) for k in range(sized(30, 300))]
    drawn = render_statistics(sources)
    assert sum(s is not None for s in drawn) >= 0.9 * len(sources)
    wrong = []
    for source, stats in zip(sources, drawn, strict=True):
        if stats is None:
            continue
        counts = read_plantuml(source)[0].counts()
        if any(counts.get(k) != stats[k] for k in KEYS):
            wrong.append(({k: counts.get(k) for k in KEYS}, {k: stats[k] for k in KEYS},
                          source))
    assert wrong == []


def test_forward_references_across_packages_are_entities_of_their_own():
    """A relation inside a package naming a class the next package declares: PlantUML
    draws the class twice (one in each package)."""
    text = ('@startuml\npackage "Product Catalog" {\n  class Product {\n  - id: Long\n  }\n'
            "  Product --> CollectionPoint : ships from\n}\n"
            'package "Logistics" {\n  class CollectionPoint extends BaseEntity '
            "implements Serializable {\n  }\n}\n@enduml\n")
    [parsed] = read_plantuml(text)
    names = sorted(e.id for e in parsed.diagram.entities)
    assert names == ["Logistics.BaseEntity", "Logistics.CollectionPoint",
                     "Logistics.Serializable", "Product Catalog.CollectionPoint",
                     "Product Catalog.Product"]
