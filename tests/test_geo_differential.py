"""Differential tests of the GeoJSON reader: generated maps (the synth's real countries
at the three complexity levels, and the tests' own random maps: holes, multipolygons,
antimeridian-crossing rings, points and lines, nested GeometryCollections, empty and
null geometries, odd names) drawn by the real engine, the reader's counts and names
checked against what the SVG shows; what the drawing hides (vertices, areas) checked
against a walk of the JSON written here and the shoelace formula; the real files of
`../shared/data/realworld/geo-countries` as a sample of reality."""

from __future__ import annotations

import itertools
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest

from diagbench.languages import named
from diagbench.languages.geojson.engine import GeomapEngine, map_statistics
from diagbench.languages.geojson.facts import map_facts
from diagbench.languages.geojson.read import read_geojson
from diagbench.languages.geojson.shapes import plain, projected
from diagbench.languages.geojson.synth import synth_map
from tests.sizes import sized

pytestmark = pytest.mark.differential
REALWORLD = (Path(__file__).resolve().parents[1].parent / "shared" / "data" / "realworld"
             / "geo-countries" / "data" / "countries-split")
NAMES = ["Ruritania", "Grand Fenwick", "São Tomé-Nord", "A-B-C", "100% island", "", "x y"]


def _star(rng: random.Random, lon: float, lat: float, radius: float, points: int
          ) -> list[list[float]]:
    """A closed ring star-shaped about (lon, lat) (so simple), either orientation, of
    `points` ≥ 6 positions spread round it at 0.7–1 × `radius` (so the disc of radius
    0.7 · cos(π/6 + 0.2) · radius ≈ 0.5 × `radius` is inside)."""
    angles = [2 * math.pi * k / points + rng.uniform(-0.2, 0.2) for k in range(points)]
    ring = [[round(lon + rng.uniform(0.7, 1) * radius * math.cos(a), 4),
             round(lat + rng.uniform(0.7, 1) * radius * math.sin(a), 4)] for a in angles]
    if rng.random() < 0.5:
        ring.reverse()
    return [*ring, ring[0]]


def _polygon(rng: random.Random, lon: float, lat: float) -> list[list[list[float]]]:
    radius = rng.uniform(2, 6)
    holes = [_star(rng, lon + dx * radius / 4, lat, radius / 10, rng.randint(6, 8))
             for dx in (-1, 1)[:rng.randint(0, 2)]]  # within 0.35 × radius: inside
    return [_star(rng, lon, lat, radius, rng.randint(6, 14)), *holes]


def _geometry(rng: random.Random, depth: int = 0) -> dict[str, Any] | None:
    lon, lat = rng.uniform(-150, 150), rng.uniform(-60, 60)
    kind = rng.choice(["Polygon", "MultiPolygon", "LineString", "MultiLineString", "Point",
                       "MultiPoint", "GeometryCollection", "empty", "null", "antimeridian"])
    walk = [[round(lon + 3 * k + rng.uniform(-1, 1), 3), round(lat + rng.uniform(-3, 3), 3)]
            for k in range(rng.randint(2, 6))]
    if kind == "Polygon":
        return {"type": kind, "coordinates": _polygon(rng, lon, lat)}
    if kind == "MultiPolygon":  # parts 15° apart
        return {"type": kind, "coordinates": [_polygon(rng, lon + 15 * k, lat)
                                              for k in range(rng.randint(1, 3))]}
    if kind == "LineString":
        return {"type": kind, "coordinates": walk}
    if kind == "MultiLineString":
        return {"type": kind, "coordinates": [walk, [[x, y + 10] for x, y in walk]]}
    if kind == "Point":
        return {"type": kind, "coordinates": walk[0]}
    if kind == "MultiPoint":
        return {"type": kind, "coordinates": walk}
    if kind == "GeometryCollection" and depth < 2:
        members = [_geometry(rng, depth + 1) for _ in range(rng.randint(0, 3))]
        return {"type": kind, "geometries": [m for m in members if m is not None]}
    if kind == "antimeridian":  # a box from 175° to −175° (185°), written uncut
        return {"type": "Polygon", "coordinates": [[[175, lat], [-175, lat], [-175, lat + 4],
                                                    [175, lat + 4], [175, lat]]]}
    if kind == "null":
        return None
    return {"type": rng.choice(["Polygon", "MultiPolygon", "MultiPoint", "LineString"]),
            "coordinates": []}


def random_map(rng: random.Random) -> str:
    features = [{"type": "Feature", "properties": {"name": rng.choice(NAMES), "k": k},
                 "geometry": _geometry(rng)} for k in range(rng.randint(1, 6))]
    return json.dumps({"type": "FeatureCollection", "features": features}, indent=1)


def _maps(count: int) -> list[str]:
    texts = []
    for seed in range(count):
        texts += [synth_map(random.Random(seed), c) for c in ("low", "medium", "high")]
        texts += [random_map(random.Random(seed * 7 + k)) for k in range(3)]
    return texts


def _agree(texts: list[str], tmp_path: Path) -> None:
    """The engine's SVG shows the reader's counts and the drawn features' names."""
    engine = GeomapEngine(jobs=2, timeout=120.0)
    results = engine.render(texts, tmp_path, "svg")
    for text, result in zip(texts, results, strict=True):
        [parsed] = read_geojson(text)
        assert parsed.errors == (), (parsed.errors[:2], text[:300])
        assert result.ok and result.image is not None, (result.error, text[:300])
        drawn = map_statistics(result.image.read_text(encoding="utf-8"))
        names = [f.name for f in parsed.diagram.drawn]
        assert drawn == {**parsed.counts(), "names": names}, text[:300]


def test_engine_draws_the_counts_the_reader_reads_on_generated_maps(tmp_path: Path):
    texts = _maps(sized(3, 20))
    seen: set[str] = set()
    for text in texts:  # the generated maps cover every case they are meant to
        [parsed] = read_geojson(text)
        seen |= {f.geometry or "null" for f in parsed.diagram.features}
        seen |= {"antimeridian" for d in parsed.diagnostics if "antimeridian" in d.reason}
        seen |= {"hole"} if parsed.counts()["holes"] else set()
        seen |= {"empty"} if len(parsed.diagram.drawn) < len(parsed.diagram.features) else set()
    assert seen >= {"Polygon", "MultiPolygon", "LineString", "MultiLineString", "Point",
                    "MultiPoint", "GeometryCollection", "null", "antimeridian", "hole",
                    "empty"}
    _agree(texts, tmp_path)


@pytest.mark.skipif(not REALWORLD.is_dir(), reason="../shared/data/realworld is absent")
def test_engine_draws_the_counts_the_reader_reads_on_real_countries(tmp_path: Path):
    files = sorted(REALWORLD.glob("*.geojson"))
    step = max(1, len(files) // sized(8, len(files)))
    _agree([p.read_text(encoding="utf-8") for p in files[::step]], tmp_path)


# --- what the drawing hides: a JSON walk of our own, and the shoelace formula ----------

def _walk(geometry: dict[str, Any] | None) -> list[tuple[str, Any]]:
    """(kind, coordinates) of every part a geometry draws, walked from the JSON alone."""
    if geometry is None:
        return []
    kind, coordinates = geometry["type"], geometry.get("coordinates")
    if kind == "GeometryCollection":
        return [part for g in geometry["geometries"] for part in _walk(g)]
    if kind == "Point":
        return [("point", coordinates)] if coordinates else []
    singles = coordinates if kind.startswith("Multi") else [coordinates]
    name = {"Point": "point", "LineString": "line", "Polygon": "polygon"}[kind.removeprefix(
        "Multi")]
    return [(name, c) for c in singles if c]


def _shoelace(ring: list[list[float]], project: bool = False) -> float:
    if project:  # the Lambert cylindrical equal-area projection: x = λ, y = sin φ
        ring = [[math.radians(x), math.sin(math.radians(y))] for x, y in ring]
    return abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in itertools.pairwise(ring))) / 2


def _oracle(text: str) -> list[dict[str, Any]]:
    """Per feature with parts: polygons, holes, lines, points, vertices (a ring's
    closing position not counted) and the polygons' areas (plain, projected)."""
    data = json.loads(text)
    features = data["features"] if data["type"] == "FeatureCollection" else [data]
    out = []
    for feature in features:
        parts = _walk(feature["geometry"])
        if not parts:
            continue
        polygons = [c for kind, c in parts if kind == "polygon"]
        out.append({
            "polygons": len(polygons), "holes": sum(len(p) - 1 for p in polygons),
            "lines": sum(kind == "line" for kind, _ in parts),
            "points": sum(kind == "point" for kind, _ in parts),
            "vertices": sum(len(r) - 1 for p in polygons for r in p)
            + sum(len(c) for kind, c in parts if kind == "line")
            + sum(kind == "point" for kind, _ in parts),
            "areas": [sum((1 if k == 0 else -1) * _shoelace(r, project) for k, r in enumerate(p))
                      for project in (False, True) for p in polygons]})
    return out


def _reader_view(text: str) -> list[dict[str, Any]]:
    [parsed] = read_geojson(text)
    return [{"polygons": len(f.polygons), "holes": sum(len(p.holes) for p in f.polygons),
             "lines": len(f.lines), "points": len(f.points), "vertices": f.vertices}
            for f in parsed.diagram.drawn]


def _check_hidden(text: str) -> None:
    """The reader's parts and vertices are the JSON walk's, and shapely's areas (plain
    and projected) the shoelace formula's, on maps shapely finds valid."""
    oracle = _oracle(text)
    assert _reader_view(text) == [{k: v for k, v in o.items() if k != "areas"}
                                  for o in oracle], text[:300]
    [parsed] = read_geojson(text)
    assert not [d for d in parsed.diagnostics if "invalid" in d.reason], text[:300]
    for feature, o in zip(parsed.diagram.drawn, oracle, strict=True):
        half = len(o["areas"]) // 2
        # polygons of one feature do not overlap here, so the union's area is the sum
        assert plain(feature).area == pytest.approx(sum(o["areas"][:half]), rel=1e-9,
                                                    abs=1e-12), feature.name
        assert projected(feature).area == pytest.approx(sum(o["areas"][half:]), rel=1e-9,
                                                        abs=1e-15), feature.name


def test_vertices_and_areas_agree_with_a_json_walk_and_the_shoelace_formula():
    """The generated maps' antimeridian box is drawn across the map, and shapely and the
    shoelace formula agree on it as a plane polygon (its area spans 350°)."""
    for text in _maps(sized(3, 20)):
        _check_hidden(text)


@pytest.mark.skipif(not REALWORLD.is_dir(), reason="../shared/data/realworld is absent")
def test_vertices_and_areas_agree_on_real_countries():
    for path in sorted(REALWORLD.glob("*.geojson")):
        _check_hidden(path.read_text(encoding="utf-8"))


# --- the checks on real files: itself 1, a polygon moved in (0, 1), broken 0 ----

def _moved(text: str) -> str:
    """The first polygon part of the first feature moved 2° east (longitudes kept in
    range by moving west instead when they would pass 180°)."""
    data = json.loads(text)
    geometry = data["features"][0]["geometry"]
    part = geometry["coordinates"] if geometry["type"] == "Polygon" else (
        geometry["coordinates"][0])
    shift = 2.0 if max(x for ring in part for x, _ in ring) < 178 else -2.0
    for ring in part:
        for position in ring:
            position[0] += shift
    return json.dumps(data)


@pytest.mark.skipif(not REALWORLD.is_dir(), reason="../shared/data/realworld is absent")
def test_similarity_on_real_countries():
    language = named("geojson")
    files = sorted(REALWORLD.glob("*.geojson"))
    for path in files[::max(1, len(files) // sized(6, len(files)))]:
        gold = path.read_text(encoding="utf-8")
        assert language.compare_code(gold, gold, True).score == 1.0, path.name
        moved = language.compare_code(gold, _moved(gold), True)
        assert 0.0 < moved.iou < 1.0 and moved.property_match == 1.0, path.name
        assert 0.5 < moved.score < 1.0, path.name
        assert language.compare_code(gold, gold[: len(gold) // 2], True).score == 0.0, path.name


@pytest.mark.skipif(not REALWORLD.is_dir(), reason="../shared/data/realworld is absent")
def test_facts_on_real_countries_name_the_file_country_by_its_iso_code():
    """countryinfo knows every real file's country by its ISO code; the country asked
    about is the file's own, and its capital and dialling code are countryinfo's as its
    own API gives them (Antarctica has neither: no
    question)."""
    from countryinfo import CountryInfo

    for path in sorted(REALWORLD.glob("*.geojson")):
        [parsed] = read_geojson(path.read_text(encoding="utf-8"))
        facts = {f.subject: f.answer for f in map_facts(parsed.diagram)}
        [feature] = parsed.diagram.features
        assert facts["country"] == feature.name and facts["countries"] == 1, path.name
        info = CountryInfo(dict(feature.properties)["ISO3166-1-Alpha-3"].strip('"')).info()
        assert facts.get("capital") == (info.get("capital") or None), path.name
        codes = info.get("callingCodes") or []
        assert facts.get("dialling-code") == (f"+{codes[0]}" if codes else None), path.name
