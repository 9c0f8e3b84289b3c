"""GeoJSON (STRUDEL's geographic maps): the reader (json + shapely, RFC 7946's
structure, diagnostics at the line and column of what is wrong), the model, the
facts from countryinfo, the synth, the `geomap` engine and what its SVG shows, and the
map similarity on hand-worked maps."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from diagbench.diagram.geomap import Polygon
from diagbench.languages import detect, named
from diagbench.languages.geojson.engine import GeomapEngine, map_statistics
from diagbench.languages.geojson.facts import map_facts
from diagbench.languages.geojson.read import read_geojson
from diagbench.languages.geojson.synth import synth_map

GEOJSON = named("geojson")
REALWORLD = (Path(__file__).resolve().parents[1].parent / "shared" / "data" / "realworld"
             / "geo-countries" / "data" / "countries-split")
SQUARE = [[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]]
HOLE = [[2, 2], [2, 4], [4, 4], [4, 2], [2, 2]]


def _feature(name: str, geometry: object, **properties: object) -> str:
    return json.dumps({"type": "Feature", "properties": {"name": name, **properties},
                       "geometry": geometry})


def _collection(*features: str) -> str:
    return '{"type": "FeatureCollection", "features": [\n' + ",\n".join(features) + "\n]}\n"


# every geometry type, a hole, an island, an empty and a null geometry: 7 features on
# lines 2-8; drawn: 5 (the empty MultiPolygon and the null geometry draw nothing)
MIXED = _collection(
    _feature("holed", {"type": "Polygon", "coordinates": [SQUARE, HOLE]}, pop=3),
    _feature("islands", {"type": "MultiPolygon", "coordinates": [
        [[[20, 0], [22, 0], [22, 2], [20, 0]]], [[[30, 0], [31, 0], [31, 1], [30, 0]]]]}),
    _feature("road", {"type": "LineString", "coordinates": [[0, -5], [5, -6], [10, -5]]}),
    _feature("towns", {"type": "MultiPoint", "coordinates": [[1, 20], [2, 21]]}),
    _feature("mixed", {"type": "GeometryCollection", "geometries": [
        {"type": "Point", "coordinates": [-5, -5]},
        {"type": "MultiLineString", "coordinates": [[[40, 0], [41, 1]], [[40, 2], [41, 3]]]},
        {"type": "GeometryCollection", "geometries": [
            {"type": "Polygon", "coordinates": [[[50, 0], [51, 0], [51, 1], [50, 0]]]}]}]}),
    _feature("nothing", {"type": "MultiPolygon", "coordinates": []}),
    _feature("unknown", None),
)


def _read(text: str):
    [parsed] = read_geojson(text)
    return parsed


def test_reader_reads_every_geometry_type_into_features():
    p = _read(MIXED)
    assert p.diagnostics == () and p.kind == "map" and p.language == "geojson"
    model = p.diagram
    assert [(f.name, f.geometry, f.line) for f in model.features] == [
        ("holed", "Polygon", 2), ("islands", "MultiPolygon", 3), ("road", "LineString", 4),
        ("towns", "MultiPoint", 5), ("mixed", "GeometryCollection", 6),
        ("nothing", "MultiPolygon", 7), ("unknown", "", 8)]
    # polygons: holed 1, islands 2, mixed 1; holes: 1; lines: road 1, mixed 2;
    # points: towns 2, mixed 1; parts 4 + 3 + 3
    assert p.counts() == {"features": 5, "polygons": 4, "holes": 1, "lines": 3, "points": 3,
                          "parts": 10}
    holed = model.features[0]
    assert holed.polygons == (Polygon(tuple((float(x), float(y)) for x, y in SQUARE),
                                      (tuple((float(x), float(y)) for x, y in HOLE),)),)
    assert holed.properties == (("name", '"holed"'), ("pop", "3"))
    assert holed.vertices == 4 + 4 and holed.bbox == (0, 0, 10, 10)
    assert model.features[3].vertices == 2 and model.features[2].bbox == (0, -6, 10, -5)
    assert model.bbox == (-5, -6, 51, 21)


def test_reader_reads_a_bare_geometry_and_a_lone_feature():
    bare = _read('{"type": "Point", "coordinates": [1.5, 2]}')
    assert bare.diagnostics == () and bare.diagram.features[0].name == "feature 1"
    assert bare.diagram.features[0].points == ((1.5, 2.0),)
    lone = _read(_feature("A", {"type": "Polygon", "coordinates": [SQUARE]}))
    assert lone.diagnostics == () and lone.counts()["polygons"] == 1
    assert lone.diagram.features[0].name == "A"


BAD_FEATURE = '{"type": "Feature", "properties": {}, "geometry": %s}'


@pytest.mark.parametrize(("text", "line", "column", "reason"), [
    ("", 1, 0, "empty source"),
    # json stops at the `"x"` after "Feature": column 22 of line 4
    ('{\n "type": "FeatureCollection",\n "features": [\n  {"type": "Feature" "x": 1}\n ]\n}',
     4, 22, "JSON: Expecting ',' delimiter"),
    ('{"type": "Topology"}', 1, 1, "unknown GeoJSON type 'Topology'"),
    ('{"features": []}', 1, 1, 'has no "type" member'),
    # the second feature (line 3) has no "type": at its brace, column 1
    (_collection(_feature("a", None), '{"properties": {}}'), 3, 1, 'has no "type" member'),
    # line 2: the ring `[[0, 0], [1, 0], [0, 0]]` starts after '... "coordinates": [',
    # 86 characters: column 87
    ('{"type": "FeatureCollection", "features": [\n' + BAD_FEATURE
     % '{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [0, 0]]]}' + "]}",
     2, 87, "a linear ring has at least 4 positions, this one 3"),
    ('{"type": "Polygon",\n "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1]]]}', 2, 18,
     "a linear ring is closed"),
    # coordinates nested 2 deep for a Polygon: at the coordinates array, line 2 column 17
    ('{"type": "Polygon",\n "coordinates": [[0, 0], [1, 0], [1, 1], [0, 0]]}', 2, 17,
     "arrays nested 3 deep, these 2: coordinates of the wrong depth"),
    ('{"type": "LineString", "coordinates": [[0, 0],\n [190.5, 1]]}', 2, 2,
     "longitude 190.5 outside [-180, 180]"),
    ('{"type": "MultiPoint", "coordinates": [[0, 91]]}', 1, 40, "latitude 91 outside [-90, 90]"),
    ('{"type": "LineString", "coordinates": [[0, 0]]}', 1, 39,
     "a LineString has at least 2 positions, this one 1"),
    ('{"type": "Point", "coordinates": [1, "2"]}', 1, 34, "a position is an array of 2 numbers"),
    ('{"type": "Point", "coordinates": [1, NaN]}', 1, 34, "not finite"),
    # the geometry object starts after '... "geometry": ', 50 characters: column 51
    (BAD_FEATURE % '{"type": "Circle", "coordinates": [1, 2]}', 1, 51,
     "unknown geometry type 'Circle'"),
    ('{"type": "Feature", "properties": {}}', 1, 1, 'a Feature has a "geometry" member'),
    ('{"type": "GeometryCollection"}', 1, 1, 'has a "geometries" array'),
])
def test_reader_reports_bad_input_at_its_line_and_column(text, line, column, reason):
    p = _read(text)
    error = p.errors[0]
    assert (error.line, error.column) == (line, column) and reason in error.reason, error
    assert p.counts()["features"] == 0  # a feature with an error draws nothing


def test_warnings_self_intersection_and_antimeridian_still_draw():
    bowtie = _read('{"type": "Polygon", "coordinates": [[[0, 0], [2, 2], [2, 0], [0, 2], '
                   '[0, 0]]]}')
    [warning] = bowtie.diagnostics
    assert warning.severity == "warning" and warning.reason.startswith(
        "shapely: invalid geometry: Self-intersection[1 1]")
    assert bowtie.errors == () and bowtie.counts()["polygons"] == 1
    crossing = _read('{"type": "Polygon",\n"coordinates": [[[170, 0], [-170, 0], [-170, 5], '
                     '[170, 5], [170, 0]]]}')
    [warning] = crossing.diagnostics
    assert warning.severity == "warning" and "antimeridian" in warning.reason
    assert (warning.line, warning.column) == (2, 17)


def test_rounding_past_the_antimeridian_and_a_ring_along_it():
    """Found on the real files: Natural Earth writes 180.00000000000014 (read: 1e-9° of
    rounding is allowed, 1e-3° is not), and Antarctica's ring runs from 180° to −180°
    along the pole (no crossing warning: both ends lie on the antimeridian)."""
    rounded = _read('{"type": "Point", "coordinates": [180.00000000000014, -90.0]}')
    assert rounded.diagnostics == () and rounded.diagram.features[0].points == (
        (180.00000000000014, -90.0),)
    assert "longitude 180.001 outside" in _read(
        '{"type": "Point", "coordinates": [180.001, 0]}').errors[0].reason
    # a cap round the pole: east to 180°, down to −90°, along the pole to −180°, back up
    along = _read('{"type": "Polygon", "coordinates": [[[-180, -80], [-90, -70], [0, -75], '
                  '[90, -70], [180.00000000000014, -80], [180.00000000000014, -90], '
                  '[-180, -90], [-180, -80]]]}')
    assert [d.reason for d in along.diagnostics if "antimeridian" in d.reason] == []


@pytest.mark.skipif(not REALWORLD.is_dir(), reason="../shared/data/realworld is absent")
def test_real_countries_read_without_errors():
    """Natural Earth writes a longitude of 180.00000000000014 in Russia and Antarctica
    (found here: the reader allows 1e-9° of rounding), and Antarctica's ring runs along
    the antimeridian (180 → -180 at the pole: not a crossing)."""
    files = sorted(REALWORLD.glob("*.geojson"))
    assert len(files) >= 40
    for path in files:
        p = _read(path.read_text(encoding="utf-8"))
        assert p.diagnostics == (), (path.name, p.diagnostics[:2])
        [feature] = p.diagram.features
        assert feature.line == 4, path.name  # each file writes its feature on line 4
        assert dict(feature.properties)["ISO3166-1-Alpha-3"].strip('"').isupper()


def test_recognised_by_suffix_and_content():
    assert detect(Path("x.geojson"), "") is GEOJSON
    assert detect(None, MIXED) is GEOJSON
    assert detect(None, '{"type": "Point", "coordinates": [0, 0]}') is GEOJSON
    assert detect(None, '{"name": "not a map"}') is not GEOJSON


# --- facts --------------------------------------------------------------------------------

def _box(west: float, south: float, east: float, north: float) -> dict:
    return {"type": "Polygon", "coordinates": [[[west, south], [east, south], [east, north],
                                                [west, north], [west, south]]]}


def test_facts_from_countryinfo_on_a_hand_drawn_map():
    # equal-area sizes in degrees of λ × sin φ: Spain 12·(sin 43.8° − sin 36°) =
    # 12·0.1043 = 1.25, Germany 9·(sin 55° − sin 47.3°) = 9·0.0843 = 0.76, Austria
    # 7.5·(sin 49° − sin 46.4°) = 7.5·0.0309 = 0.23: Spain is the largest (1.6× Germany)
    text = _collection(
        _feature("Germany", _box(6, 47.3, 15, 55), **{"ISO3166-1-Alpha-3": "DEU"}),
        _feature("Austria", _box(9.5, 46.4, 17, 49), **{"ISO3166-1-Alpha-3": "AUT"}),
        _feature("Spain", _box(-9.5, 36, 2.5, 43.8), **{"ISO3166-1-Alpha-3": "ESP"}))
    facts = {(f.subject, f.question): f.answer for f in map_facts(_read(text).diagram)}
    largest = "the largest country drawn on the map"
    assert facts == {
        ("countries", "How many countries are drawn on the map?"): 3,
        ("polygons", "How many separate filled shapes (mainland parts and islands) are "
                     "drawn on the map?"): 3,
        ("country", "Which is the largest country drawn on the map?"): "Spain",
        ("capital", f"What is the capital of {largest}?"): "Madrid",
        ("currency", f"What is the ISO 4217 code of the currency of {largest}?"): "EUR",
        ("continent", f"On which continent is {largest}?"): "Europe",
        ("dialling-code", f"What is the international dialling code of {largest}?"): "+34",
        ("northernmost", "Which country drawn on the map reaches furthest north?"):
            "Germany",
        # Spain borders neither in countryinfo, and the boxes are apart: both asked, False
        ("borders", "Does Spain share a land border with Germany on the map?"): False,
        ("borders", "Does Spain share a land border with Austria on the map?"): False,
    }


def test_facts_of_one_country_and_of_an_unknown_one():
    one = map_facts(_read(_feature("Austria", _box(9.5, 46.4, 17, 49))).diagram)
    answers = {f.subject: f.answer for f in one}  # found by name (no ISO property)
    assert answers["country"] == "Austria" and answers["capital"] == "Vienna"
    assert answers["dialling-code"] == "+43" and "northernmost" not in answers
    unknown = map_facts(_read(_feature("Atlantis", _box(-30, 30, -20, 35))).diagram)
    assert {f.subject for f in unknown} == {"countries", "polygons"}


def test_natural_earth_properties_name_the_country_and_give_its_code():
    """Natural Earth writes NAME/ADMIN and ISO_A3 (its "-99" is no code): the feature is
    named and known by them, the first name key in NAME_KEYS's order winning."""
    box = _box(9.5, 46.4, 17, 49)
    feature = json.dumps({"type": "Feature", "geometry": box, "properties": {
        "ADMIN": "Republic of Austria", "NAME_EN": "Austria", "ISO_A3": "AUT"}})
    [drawn] = _read(feature).diagram.features
    assert drawn.name == "Austria"  # name_en comes before admin
    answers = {f.subject: f.answer for f in map_facts(_read(feature).diagram)}
    assert answers["country"] == "Austria" and answers["capital"] == "Vienna"
    # by the code alone ("Österreich" is no name countryinfo knows): the answer is the
    # country's name as countryinfo gives it
    coded = json.dumps({"type": "Feature", "geometry": box, "properties": {
        "NAME": "Österreich", "ADM0_A3": "AUT", "ISO_A3": "-99"}})
    answers = {f.subject: f.answer for f in map_facts(_read(coded).diagram)}
    assert answers["country"] == "Austria" and answers["capital"] == "Vienna"


def test_facts_ask_a_border_only_where_countryinfo_and_the_drawing_agree():
    # Germany and Austria touch (boxes overlap) and countryinfo lists the border: True;
    # Austria drawn far away: the drawing disagrees with countryinfo, not asked
    near = _collection(_feature("Germany", _box(6, 47.3, 15, 55)),
                       _feature("Austria", _box(9.5, 46.4, 17, 49)))
    far = _collection(_feature("Germany", _box(6, 47.3, 15, 55)),
                      _feature("Austria", _box(30, 10, 31, 11)))
    borders = [f.answer for f in map_facts(_read(near).diagram) if f.subject == "borders"]
    assert borders == [True]
    assert not [f for f in map_facts(_read(far).diagram) if f.subject == "borders"]


# --- synth ----------------------------------------------------------------------------

@pytest.mark.parametrize(("complexity", "low", "high"), [
    ("low", 1, 1), ("medium", 2, 4), ("high", 6, 12)])
def test_synth_writes_valid_seeded_maps_of_real_countries(complexity, low, high):
    texts = [synth_map(random.Random(seed), complexity) for seed in range(8)]
    assert texts == [synth_map(random.Random(seed), complexity) for seed in range(8)]
    for text in texts:
        p = _read(text)
        assert p.diagnostics == (), p.diagnostics[:2]
        assert low <= p.counts()["features"] <= high and detect(None, text) is GEOJSON
        assert all(set(dict(f.properties)) == {"name", "ISO3166-1-Alpha-3"}
                   for f in p.diagram.features)
        assert len({f.name for f in p.diagram.features}) == len(p.diagram.features)


# --- engine -------------------------------------------------------------------------------

def test_engine_draws_what_the_reader_read(tmp_path: Path):
    texts = [MIXED, GEOJSON.example_paths()[0].read_text(encoding="utf-8"),
             '{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [0, 0]]]}',
             '{"type": "FeatureCollection", "features": []}',
             json.dumps({"type": "MultiPoint", "coordinates": [[k % 100, k // 100 % 80]
                                                               for k in range(5001)]})]
    engine = GeomapEngine(jobs=2, timeout=60.0)
    drawn = {}
    for fmt in ("png", "svg"):  # the second batch keeps the first's drawings
        (tmp_path / fmt).mkdir()
        drawn[fmt] = engine.render(texts, tmp_path / fmt, fmt)
    svgs = drawn["svg"]
    for text, png, svg in list(zip(texts, drawn["png"], svgs, strict=True))[:2]:
        assert png.ok and png.image is not None and png.image.read_bytes()[:4] == b"\x89PNG"
        assert svg.ok and svg.image is not None
        image = svg.image.read_text(encoding="utf-8")
        model = _read(text).diagram
        assert map_statistics(image) == {**model.counts(),
                                         "names": [f.name for f in model.drawn]}
        assert "plate carrée" in image and "longitude (°)" in image
    assert not svgs[2].ok and svgs[2].error_line == 1 and "at least 4" in (svgs[2].error or "")
    assert not svgs[3].ok and "nothing to draw" in (svgs[3].error or "")
    assert not svgs[4].ok and "5,001 parts, over the 5,000-part" in (svgs[4].error or "")
    assert engine.version().startswith("matplotlib ") and " + shapely " in engine.version()


# --- similarity -----------------------------------------------------------------------

def test_similarity_of_a_moved_polygon_a_renamed_feature_and_a_broken_map():
    gold = _collection(_feature("A", _box(0, 0, 2, 2)), _feature("B", _box(10, 0, 12, 2)))
    assert GEOJSON.compare_code(gold, gold, True).score == 1.0
    moved = _collection(_feature("A", _box(1, 0, 3, 2)), _feature("B", _box(10, 0, 12, 2)))
    c = GEOJSON.compare_code(gold, moved, True)
    # A moved by half its width: A∩A' is half of A, near the equator (equal-area ≈ plain);
    # IoU = (½a + a) / (2a + 2a − 1.5a) = 1.5 / 2.5 = 0.6 up to the sin φ projection
    assert c.iou == pytest.approx(0.6, abs=1e-3) and c.property_match == 1.0
    assert 0.0 < c.score < 1.0 and c.score == pytest.approx(0.8, abs=1e-3)
    renamed = _collection(_feature("A", _box(0, 0, 2, 2)), _feature("C", _box(10, 0, 12, 2)))
    r = GEOJSON.compare_code(gold, renamed, True)
    # C pairs with B by overlap, but its properties differ: 1 of 2 match
    assert r.pairs == (("A", "A"), ("B", "C")) and r.property_match == 0.5 and r.iou == 1.0
    for broken in ("{", '{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [0, 0]]]}'):
        assert GEOJSON.compare_code(gold, broken, True).score == 0.0
    assert GEOJSON.compare_code(gold, gold, False).score == 0.0
