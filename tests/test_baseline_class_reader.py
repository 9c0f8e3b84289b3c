"""The offline vision baseline reads class names and relation directions from PlantUML renders."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from diagbench.diagram.classes import ClassDiagram, Relation
from diagbench.models.baselines.class_reader import (
    UnreadableDiagram,
    read_class_diagram,
)
from diagbench.render.plantuml_pipe import PlantUMLEngine

#: Every arrow form, written `Dog <arrow> Animal`: (kind, source, target) semantically.
ARROWS = {
    "--|>": ("inheritance", "Dog", "Animal"),
    "<|--": ("inheritance", "Animal", "Dog"),
    "..|>": ("realization", "Dog", "Animal"),
    "<|..": ("realization", "Animal", "Dog"),
    "*--": ("composition", "Dog", "Animal"),
    "--*": ("composition", "Animal", "Dog"),
    "o--": ("aggregation", "Dog", "Animal"),
    "--o": ("aggregation", "Animal", "Dog"),
    "..>": ("dependency", "Dog", "Animal"),
    "<..": ("dependency", "Animal", "Dog"),
    "--": ("association", "Dog", "Animal"),
    "-->": ("association", "Dog", "Animal"),
}
#: Diagrams with more than one relation: source lines -> expected relations.
DIAGRAMS = {
    "chain": ("Animal <|-- Mammal\nMammal <|-- Dog",
              {("inheritance", "Mammal", "Animal"), ("inheritance", "Dog", "Mammal")}),
    "mixed": ("Mammal --|> Animal\nMammal <|-- Dog",
              {("inheritance", "Mammal", "Animal"), ("inheritance", "Dog", "Mammal")}),
    "branch": ("Car *-- Engine\nCar <.. Wheel",
               {("composition", "Car", "Engine"), ("dependency", "Wheel", "Car")}),
    "dashed branch": ("Car <.. Engine\nCar <|.. Wheel",
                      {("dependency", "Engine", "Car"), ("realization", "Wheel", "Car")}),
    "prior-free": ("GR --|> D\nD o-- C", {("inheritance", "GR", "D"), ("aggregation", "D", "C")}),
    "single letters": ("A --* C", {("composition", "C", "A")}),
    "interface": ("interface Shape\nabstract class Circle\nCircle ..|> Shape",
                  {("realization", "Circle", "Shape")}),
}
_DECLARATIONS = ("class ", "interface ", "abstract class ", "enum ")


def source(body: str) -> str:
    """A class diagram in the benchmark's style: every class declared, then the relations."""
    lines = body.splitlines()
    declared = [line for line in lines if line.startswith(_DECLARATIONS)]
    relations = [line for line in lines if line not in declared]
    named = {line.split()[-1] for line in declared}
    used = dict.fromkeys(n for line in relations for n in line.split()[::2] if n not in named)
    lines = [*declared, *(f"class {n}" for n in used), *relations]
    return "@startuml\nhide empty members\n" + "\n".join(lines) + "\n@enduml\n"


@pytest.fixture(scope="module")
def renders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """Every diagram of this module rendered at once: name -> PNG bytes."""
    sources = {arrow: source(f"Dog {arrow} Animal") for arrow in ARROWS}
    sources |= {name: source(body) for name, (body, _) in DIAGRAMS.items()}
    results = PlantUMLEngine(jobs=2, timeout=30).render(
        list(sources.values()), tmp_path_factory.mktemp("class-renders"), "png")
    assert all(r.ok for r in results), [r.error for r in results if not r.ok]
    return {name: r.image.read_bytes() for name, r in zip(sources, results, strict=True)}


def resized(png: bytes, factor: float) -> bytes:
    """The image resized as the benchmark does it (LANCZOS), as PNG bytes."""
    with Image.open(io.BytesIO(png)) as image:
        size = (round(image.width * factor), round(image.height * factor))
        out = io.BytesIO()
        image.convert("RGB").resize(size, Image.Resampling.LANCZOS).save(out, "PNG")
    return out.getvalue()


def triples(reading: ClassDiagram) -> set[tuple[str, str, str]]:
    return {(r.kind, r.source, r.target) for r in reading.relations}


@pytest.mark.parametrize("arrow", list(ARROWS))
def test_two_classes_every_arrow_form(renders: dict[str, bytes], arrow: str) -> None:
    reading = read_class_diagram(renders[arrow])
    assert reading.names == ["Dog", "Animal"]  # written first, drawn on top
    assert reading.relations == [Relation(*ARROWS[arrow], navigable=arrow == "-->")]


@pytest.mark.parametrize("name", list(DIAGRAMS))
def test_chains_branches_and_prior_free_names(renders: dict[str, bytes], name: str) -> None:
    expected = DIAGRAMS[name][1]
    reading = read_class_diagram(renders[name])
    assert triples(reading) == expected
    assert set(reading.names) == {n for _, *pair in expected for n in pair}


@pytest.mark.parametrize("factor", [1.5, 2.0])
@pytest.mark.parametrize("name", ["<|..", "--o", "<..", "*--", "-->", "mixed", "prior-free"])
def test_resized_images(renders: dict[str, bytes], name: str, factor: float) -> None:
    expected = ({ARROWS[name]} if name in ARROWS else DIAGRAMS[name][1])
    reading = read_class_diagram(resized(renders[name], factor))
    assert triples(reading) == expected


def test_transparent_and_jpeg_images(renders: dict[str, bytes]) -> None:
    with Image.open(io.BytesIO(renders["mixed"])) as image:
        rgb = np.asarray(image.convert("RGB"))
    alpha = np.where(rgb.min(axis=2) == 255, 0, 255).astype(np.uint8)  # white -> transparent
    transparent = _png(Image.fromarray(np.dstack([rgb, alpha]), "RGBA"))
    jpeg = io.BytesIO()
    Image.fromarray(rgb).save(jpeg, "JPEG", quality=95)
    assert triples(read_class_diagram(transparent)) == DIAGRAMS["mixed"][1]
    assert triples(read_class_diagram(jpeg.getvalue())) == DIAGRAMS["mixed"][1]


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


@pytest.mark.parametrize(("data", "reason"), [
    (b"not an image at all", "not an image"),
    (_png(Image.new("RGB", (400, 300), "white")), "no class boxes found"),
    (_png(Image.new("RGB", (20, 20), "white")), "too small"),
])
def test_unreadable_images(data: bytes, reason: str) -> None:
    with pytest.raises(UnreadableDiagram, match=reason):
        read_class_diagram(data)
