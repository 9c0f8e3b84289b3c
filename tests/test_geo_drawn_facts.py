"""Every map fact's answer can be read off the drawing: the `geomap` engine's SVG is
read here on its own (the artists' ids name each feature; the areas and heights are
the paths' own, by the shoelace formula in the image's pixels), and each fact is
checked against it: the countries and polygons drawn, the country named (one drawn),
the largest by drawn area (asked exactly when it is 1.2 times the second in the
image), the northernmost (the highest on the image)."""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import unquote

import pytest

from diagbench.languages.geojson.engine import GeomapEngine
from diagbench.languages.geojson.facts import MARGIN, map_facts
from diagbench.languages.geojson.read import read_geojson
from diagbench.languages.geojson.synth import synth_map

REALWORLD = (Path(__file__).resolve().parents[1].parent / "shared" / "data" / "realworld"
             / "geo-countries" / "data" / "countries-split")
_SVG = "{http://www.w3.org/2000/svg}"
NUMBER = r"-?\d+(?:\.\d+)?"


def _box(west: float, south: float, east: float, north: float) -> dict:
    return {"type": "Polygon", "coordinates": [[[west, south], [east, south], [east, north],
                                                [west, north], [west, south]]]}


def _hand_map(*features: tuple[str, str, dict]) -> str:
    return json.dumps({"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"name": n, "ISO3166-1-Alpha-3": iso}, "geometry": g}
        for n, iso, g in features]})


def _subpaths(d: str) -> list[list[tuple[float, float]]]:
    """The closed sub-paths of an SVG path's `d` (matplotlib writes M, L and z)."""
    paths: list[list[tuple[float, float]]] = []
    for command, x, y in re.findall(rf"([MLz])\s*(?:({NUMBER})\s+({NUMBER}))?", d):
        if command == "M":
            paths.append([])
        if command in "ML":
            paths[-1].append((float(x), float(y)))
    return paths


def _shoelace(ring: list[tuple[float, float]]) -> float:
    return sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2)
               in zip(ring, ring[1:] + ring[:1], strict=True)) / 2


def _drawn(svg: str) -> tuple[dict[int, dict], list[float]]:
    """Per drawn feature: its name, its drawn area (exterior less holes: the holes run
    the other way) and its top (smallest y); and each polygon's larger side drawn."""
    features: dict[int, dict] = {}
    polygons: list[float] = []
    for group in ET.fromstring(svg).iter(f"{_SVG}g"):
        gid = group.get("id", "")
        if not gid.startswith("geo-"):
            continue
        _, index, kind, _, name = gid.split("-", 4)
        feature = features.setdefault(int(index), {"name": unquote(name), "area": 0.0,
                                                   "top": float("inf")})
        if kind != "polygon":
            continue
        rings = _subpaths(next(group.iter(f"{_SVG}path")).get("d", ""))
        xs, ys = [x for x, _ in rings[0]], [y for _, y in rings[0]]
        polygons.append(max(max(xs) - min(xs), max(ys) - min(ys)))
        feature["area"] += abs(sum(_shoelace(r) for r in rings))
        feature["top"] = min(feature["top"], *(y for r in rings for _, y in r))
    return features, polygons


def _maps() -> list[str]:
    maps = [synth_map(random.Random(seed), complexity)
            for seed in range(4) for complexity in ("low", "medium", "high")]
    # drawn, Sweden is 1.44 times France (true areas: France the larger); Spain and
    # Austria within a fifth of each other; Antarctica beside Chile
    maps += [_hand_map(("France", "FRA", _box(-5, 42, 8, 51)),
                       ("Sweden", "SWE", _box(11, 55, 23, 69))),
             _hand_map(("Spain", "ESP", _box(0, 0, 11.5, 10)),
                       ("Austria", "AUT", _box(20, 0, 30, 10))),
             _hand_map(("Antarctica", "ATA", _box(-180, -90, 180, -60)),
                       ("Chile", "CHL", _box(-76, -56, -66, -17)))]
    if REALWORLD.is_dir():
        real = sorted(REALWORLD.glob("*.geojson"))[::5]
        real += [REALWORLD / "Russia.geojson", REALWORLD / "Antarctica.geojson"]
        maps += [p.read_text(encoding="utf-8") for p in real]
    return maps


def test_every_fact_is_read_off_the_drawing(tmp_path: Path):
    maps = _maps()
    svgs = GeomapEngine(jobs=2, timeout=120.0).render(maps, tmp_path, "svg")
    asked_largest = []
    for k, (text, svg) in enumerate(zip(maps, svgs, strict=True)):
        assert svg.ok and svg.image is not None, (k, svg.error)
        features, polygons = _drawn(svg.image.read_text(encoding="utf-8"))
        [parsed] = read_geojson(text)
        facts = {f.subject: f.answer for f in map_facts(parsed.diagram)}
        countries = {i: f for i, f in features.items() if f["name"] != "Antarctica"}
        # counted only when every polygon is drawn at least 3 points across; the
        # smallest of a map not counted is under 5 points (Russia's: under 1)
        if "polygons" in facts:
            assert facts["polygons"] == len(polygons) and min(polygons) >= 3.0, k
        else:
            assert min(polygons) < 5.0, k
        assert facts.get("countries") == (len(countries) or None), k
        by_area = sorted(countries.values(), key=lambda f: -f["area"])
        if len(by_area) == 1:
            assert facts["country"] == by_area[0]["name"], k
        elif len(by_area) > 1:
            ratio = by_area[0]["area"] / by_area[1]["area"]
            if "country" in facts:
                asked_largest.append(facts["country"])
                assert facts["country"] == by_area[0]["name"], k
                assert ratio >= MARGIN * (1 - 1e-4), k
            else:
                assert ratio < MARGIN * (1 + 1e-4), k
            if "northernmost" in facts:  # the highest on the image, by 2 points at least
                first, second = sorted(countries.values(), key=lambda f: f["top"])[:2]
                assert facts["northernmost"] == first["name"], k
                assert second["top"] - first["top"] >= 2.0, k
    # the hand maps: asked of France and Sweden (Sweden), not of Spain and Austria
    assert "Sweden" in asked_largest and "Spain" not in asked_largest
    assert len(asked_largest) >= 3  # of the generated maps too


@pytest.mark.parametrize(("d", "area"), [
    # a 2 × 3 rectangle: 6; with a 1 × 1 hole running the other way: 6 − 1 = 5
    ("M 0 0 L 2 0 L 2 3 L 0 3 z", 6.0),
    ("M 0 0 L 2 0 L 2 3 L 0 3 z M 0.5 0.5 L 0.5 1.5 L 1.5 1.5 L 1.5 0.5 z", 5.0),
])
def test_the_drawn_area_by_hand(d, area):
    assert abs(sum(_shoelace(r) for r in _subpaths(d))) == area
