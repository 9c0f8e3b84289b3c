"""GeoJSON maps (RFC 7946), read by Python's `json` and checked by shapely into a
`GeoMap` (`diagbench.diagram.geomap`): one file is one map, a FeatureCollection, one
Feature or a bare geometry (Point, MultiPoint, LineString, MultiLineString, Polygon,
MultiPolygon, GeometryCollection, nested or empty).

The text is decoded by `json`'s own Python scanner with each object's and array's
offset kept, so every problem is reported at the line and column of the object or
array that is wrong: a JSON syntax error where `json` stops; a structural error (a
missing or unknown "type", coordinates of the wrong depth, a position that is not 2
finite numbers or more, a longitude outside [-180, 180] or a latitude outside [-90, 90], a line
of one position, a ring of fewer than 4 positions or not closed). A feature with an
error keeps its name and draws nothing. Two warnings (the map still draws): a geometry
shapely finds invalid (`shapely.validation.explain_validity`, e.g. a self-intersection:
drawing works, and the similarity repairs it with `make_valid`), and a ring or line
whose longitude jumps by more than 180° between two positions (it crosses the
antimeridian uncut, which RFC 7946 §3.1.9 asks to cut; it is drawn across the map).
"""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import dataclass, field
from json import decoder, scanner
from typing import Any

from diagbench.diagram.geomap import Feature, GeoMap, Polygon, Position, Ring
from diagbench.formats.diagnostics import Diagnostic, Severity
from diagbench.formats.parsed import Parsed

#: The geometry types of RFC 7946 §3.1.
GEOMETRIES = ("Point", "MultiPoint", "LineString", "MultiLineString", "Polygon",
              "MultiPolygon", "GeometryCollection")
#: How far past ±180° / ±90° a coordinate may be (rounding: Natural Earth writes
#: 180.00000000000014 in Russia and Antarctica); 1e-9° is under a millimetre.
TOLERANCE = 1e-9
#: How deep each geometry's coordinates nest (RFC 7946 §3.1.2–3.1.7).
DEPTHS = {"Point": 1, "MultiPoint": 2, "LineString": 2, "MultiLineString": 3, "Polygon": 3,
          "MultiPolygon": 4}
#: GeometryCollections nested deeper than this are an error.
MAX_NESTING = 16


#: json's own pure-Python scanner and its object and array parsers (CPython's
#: `json.decoder` and `json.scanner`; typeshed leaves them out).
_DECODER: Any = decoder
_SCANNER: Any = scanner


class _Object(dict[str, Any]):
    """A decoded JSON object and its offset in the text."""

    start = 0


class _Array(list[Any]):
    """A decoded JSON array and its offset in the text."""

    start = 0


def _object(s_and_end: tuple[str, int], *args: Any) -> tuple[_Object, int]:
    value, end = _DECODER.JSONObject(s_and_end, *args)
    located = _Object(value)
    located.start = s_and_end[1] - 1
    return located, end


def _array(s_and_end: tuple[str, int], *args: Any) -> tuple[_Array, int]:
    value, end = _DECODER.JSONArray(s_and_end, *args)
    located = _Array(value)
    located.start = s_and_end[1] - 1
    return located, end


def decode(text: str) -> Any:
    """`text` decoded as `json.loads` does, each object and array with its offset
    (`.start`); raises json.JSONDecodeError and RecursionError."""
    located: Any = json.JSONDecoder()
    located.parse_object = _object
    located.parse_array = _array
    located.scan_once = _SCANNER.py_make_scanner(located)
    return located.decode(text)


@dataclass(slots=True)
class _Found:
    """What one feature draws, and the problems found on the way (offset, reason,
    severity)."""

    polygons: list[Polygon] = field(default_factory=list)
    lines: list[Ring] = field(default_factory=list)
    points: list[Position] = field(default_factory=list)
    problems: list[tuple[int, str, Severity]] = field(default_factory=list)

    def error(self, at: Any, reason: str, owner: Any = None) -> None:
        """An error at `at`, or, when it is a number or string (no offset), at the array
        or object that holds it."""
        start = getattr(at, "start", getattr(owner, "start", 0))
        self.problems.append((start, reason, "error"))

    def warn(self, at: Any, reason: str) -> None:
        self.problems.append((getattr(at, "start", 0), reason, "warning"))

    @property
    def failed(self) -> bool:
        return any(s == "error" for _, _, s in self.problems)


def read_geojson(text: str) -> list[Parsed[GeoMap]]:
    """The map of a GeoJSON source, as one `Parsed`; never raises."""
    text = text.removeprefix("\ufeff")
    if not text.strip():
        return [_parsed(GeoMap(), [Diagnostic(1, "", "empty source: no GeoJSON object")])]
    try:
        data = decode(text)
    except json.JSONDecodeError as exc:
        return [_parsed(GeoMap(), [_at(text, exc.pos, f"JSON: {exc.msg}")])]
    except RecursionError:
        return [_parsed(GeoMap(), [_at(text, 0, "JSON: nested too deeply")])]
    except ValueError as exc:  # an integer over Python's digit limit
        return [_parsed(GeoMap(), [_at(text, 0, f"JSON: {exc}")])]
    top = _Found()
    features = []
    for k, feature in enumerate(_features(data, top)):
        found = _Found()
        geometry = feature if feature.get("type") in GEOMETRIES else feature.get("geometry")
        if feature.get("type") == "Feature" and "geometry" not in feature:
            found.error(feature, 'a Feature has a "geometry" member (null for none)')
        elif geometry is not None:
            _geometry(geometry, found, 0, feature)
            if not found.failed:
                _validity(geometry, found)
        top.problems.extend(found.problems)
        features.append(_feature(feature, k, found, _line(text, feature.start)))
    diagnostics = [_at(text, offset, reason, severity)
                   for offset, reason, severity in top.problems]
    return [_parsed(GeoMap(tuple(features)), diagnostics)]


def _parsed(model: GeoMap, diagnostics: list[Diagnostic]) -> Parsed[GeoMap]:
    return Parsed(0, 1, "geojson", "map", model, tuple(diagnostics))


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _at(text: str, offset: int, reason: str, severity: Severity = "error") -> Diagnostic:
    """A diagnostic at the line and column of `offset`."""
    line = _line(text, offset)
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return Diagnostic(line, text[start:end if end >= 0 else len(text)], reason, severity,
                      offset - start + 1)


def _type(value: Any, found: _Found, what: str, owner: Any = None) -> str | None:
    """The "type" of an object, or None (an error) when it is not an object with one."""
    if not isinstance(value, dict):
        found.error(value, f"{what} is an object, not {_short(value)}", owner)
        return None
    kind = value.get("type")
    if not isinstance(kind, str):
        found.error(value, f'{what} has no "type" member')
        return None
    return kind


def _features(data: Any, found: _Found) -> list[_Object]:
    """The features of the top object (a bare geometry is one feature); what is not one
    is an error in `found`."""
    kind = _type(data, found, "a GeoJSON text")
    if kind in ("Feature", *GEOMETRIES):
        return [data]
    if kind != "FeatureCollection":
        if kind is not None:
            found.error(data, f"unknown GeoJSON type {kind!r}")
        return []
    members = data.get("features")
    if not isinstance(members, list):
        found.error(data, 'a FeatureCollection has a "features" array')
        return []
    features = []
    for member in members:
        kind = _type(member, found, "a member of \"features\"", members)
        if kind == "Feature":
            features.append(member)
        elif kind is not None:
            found.error(member, f"a member of \"features\" is a Feature, not {kind!r}")
    return features


def _feature(value: _Object, k: int, found: _Found, line: int) -> Feature:
    """The feature (a bare geometry is an unnamed one); one with an error draws nothing."""
    properties = value.get("properties") if value.get("type") == "Feature" else None
    pairs = tuple((str(key), json.dumps(v, ensure_ascii=False, sort_keys=True))
                  for key, v in properties.items()) if isinstance(properties, dict) else ()
    name = _name(properties) if isinstance(properties, dict) else None
    geometry = value if value.get("type") in GEOMETRIES else value.get("geometry")
    kind = geometry.get("type") if isinstance(geometry, dict) else None
    drawn = _Found() if found.failed else found
    return Feature(name if isinstance(name, str) and name else f"feature {k + 1}",
                   kind if isinstance(kind, str) else "", tuple(drawn.polygons),
                   tuple(drawn.lines), tuple(drawn.points), pairs, line)


#: The properties that name a feature, in order of preference (any case): GeoJSON's
#: common "name", Natural Earth's "NAME_EN", "ADMIN", "NAME_LONG", others' "title".
NAME_KEYS = ("name", "name_en", "admin", "name_long", "title", "label")


def _name(properties: dict[str, Any]) -> str | None:
    """The feature's name: the first non-empty text of `NAME_KEYS`."""
    by_key = {str(key).lower(): value for key, value in reversed(properties.items())}
    return next((v.strip() for key in NAME_KEYS if isinstance(v := by_key.get(key), str)
                 and v.strip()), None)


def _geometry(value: Any, found: _Found, depth: int, owner: Any) -> None:
    """Check one geometry (held by `owner`) and add what it draws to `found`."""
    kind = _type(value, found, "a geometry", owner)
    if kind is None:
        return
    if kind == "GeometryCollection":
        members = value.get("geometries")
        if not isinstance(members, list):
            found.error(value, 'a GeometryCollection has a "geometries" array')
        elif depth >= MAX_NESTING:
            found.error(value, f"GeometryCollections nested over {MAX_NESTING} deep")
        else:
            for member in members:
                _geometry(member, found, depth + 1, members)
        return
    if kind not in GEOMETRIES:
        found.error(value, f"unknown geometry type {kind!r}")
        return
    if "coordinates" not in value:
        found.error(value, f'a {kind} has a "coordinates" member')
        return
    coordinates = value["coordinates"]
    depth_found = _depth(coordinates)
    if depth_found is not None and depth_found != DEPTHS[kind]:
        found.error(coordinates, f"the coordinates of a {kind} are arrays nested "
                    f"{DEPTHS[kind]} deep, these {depth_found}: coordinates of the wrong "
                    "depth", value)
        return
    multi = kind.startswith("Multi")
    items = (_array_of(coordinates, found, f"the coordinates of a {kind}", value) if multi
             else [coordinates])
    holder = coordinates if multi else value
    for item in items:
        if kind.endswith("Point"):
            if not (kind == "Point" and item == []):  # an empty Point
                position = _position(item, found, holder)
                if position is not None:
                    found.points.append(position)
        elif kind.endswith("LineString"):
            line = _positions(item, found, 2, "a LineString", holder)
            if line:
                found.lines.append(line)
                _antimeridian(item, line, found)
        else:
            rings = [_ring(ring, found, item)
                     for ring in _array_of(item, found, "a Polygon", holder)]
            if rings and all(rings):
                found.polygons.append(Polygon(rings[0], tuple(rings[1:])))  # type: ignore[arg-type]


def _depth(value: Any) -> int | None:
    """How deep arrays nest along the first members (a position's numbers are depth 1);
    None when an empty array ends the walk first (an empty geometry fits any depth)."""
    depth = 0
    while isinstance(value, list):
        if not value:
            return None
        depth, value = depth + 1, value[0]
    return depth


def _array_of(value: Any, found: _Found, what: str, owner: Any) -> list[Any]:
    if not isinstance(value, list):
        found.error(value, f"{what} is an array, not {_short(value)}", owner)
        return []
    return value


def _position(value: Any, found: _Found, owner: Any) -> Position | None:
    """A position: 2 numbers or more (RFC 7946 §3.1.1; a third is the altitude), finite,
    longitude and latitude in range."""
    if (not isinstance(value, list) or len(value) < 2
            or not all(isinstance(x, int | float) and not isinstance(x, bool) for x in value)):
        found.error(value, f"a position is an array of 2 numbers or more, not {_short(value)}",
                    owner)
        return None
    if not all(_finite(x) for x in value):
        found.error(value, f"a position of numbers that are not finite: {_short(value)}")
    elif not -180.0 - TOLERANCE <= value[0] <= 180.0 + TOLERANCE:
        found.error(value, f"longitude {value[0]} outside [-180, 180]")
    elif not -90.0 - TOLERANCE <= value[1] <= 90.0 + TOLERANCE:
        found.error(value, f"latitude {value[1]} outside [-90, 90]")
    else:
        return (float(value[0]), float(value[1]))
    return None


def _finite(number: float) -> bool:
    try:
        return math.isfinite(float(number))
    except OverflowError:  # an integer of hundreds of digits
        return False


def _positions(value: Any, found: _Found, least: int, what: str, owner: Any
               ) -> Ring | None:
    """The positions of a line or ring (at least `least` of them), or None; an empty
    array is an empty geometry (())."""
    items = _array_of(value, found, f"the positions of {what}", owner)
    if not all(isinstance(item, list) for item in items):
        found.error(value, f"{what} is an array of positions (arrays of numbers): "
                    "coordinates of the wrong depth", owner)
        return None
    positions = []
    for item in items:  # the first bad position only
        position = _position(item, found, value)
        if position is None:
            return None
        positions.append(position)
    if positions and len(positions) < least:
        found.error(value, f"{what} has at least {least} positions, this one {len(positions)}")
        return None
    return tuple(positions)


def _ring(value: Any, found: _Found, owner: Any) -> Ring | None:
    """A linear ring: closed, at least 4 positions."""
    ring = _positions(value, found, 4, "a linear ring", owner)
    if ring is None:
        return None
    if not ring:
        found.error(value, "a linear ring has at least 4 positions, this one 0")
        return None
    if ring[0] != ring[-1]:
        found.error(value, "a linear ring is closed: its last position repeats its first")
        return None
    _antimeridian(value, ring, found)
    return ring


def _antimeridian(at: Any, positions: Ring, found: _Found) -> None:
    """A warning when two positions in a row are over 180° of longitude apart, unless
    both lie on the antimeridian (a ring cut there runs along it: Antarctica's)."""
    if any(abs(a[0] - b[0]) > 180.0 and min(abs(a[0]), abs(b[0])) < 180.0 - TOLERANCE
           for a, b in itertools.pairwise(positions)):
        found.warn(at, "crosses the antimeridian uncut (a longitude jump over 180°; RFC 7946 "
                       "§3.1.9 cuts it): drawn across the map")


def _validity(geometry: _Object, found: _Found) -> None:
    """shapely's validity of a checked geometry: a warning when invalid."""
    from shapely.geometry import shape  # type: ignore[import-untyped]  # no stubs
    from shapely.validation import explain_validity  # type: ignore[import-untyped]

    try:
        shaped = shape(geometry)
        reason = None if shaped.is_valid else explain_validity(shaped)
    except Exception as exc:  # shapely's own refusal (GEOS) is the reason
        reason = str(exc) or type(exc).__name__
    if reason is not None:
        found.warn(geometry, f"shapely: invalid geometry: {reason}")


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."
