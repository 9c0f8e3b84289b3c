"""The typed model of a geographic map (paper 004 Table 1: geographic maps, GeoJSON):
its features, each a name, its properties and its geometry as drawn — polygons (an
exterior ring and its holes), lines and points, in longitude/latitude degrees.

Coordinates are kept as tuples (not shapely objects), so the record is frozen and
compares by value. `GeoMap.counts()` are what the `geomap` engine draws: `features`
(features with something to draw: a null or empty geometry draws nothing), `polygons`
(polygon parts: each polygon of a MultiPolygon, islands included), `holes` (interior
rings), `lines` (line strings), `points`, and `parts` = polygons + lines + points. The
map's size is its number of `features`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: (longitude, latitude) in degrees.
Position = tuple[float, float]
Ring = tuple[Position, ...]
#: (west, south, east, north) in degrees.
Box = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Polygon:
    """One polygon part: its exterior ring and its holes, each closed (first position =
    last) as GeoJSON writes them."""

    exterior: Ring
    holes: tuple[Ring, ...] = ()

    @property
    def rings(self) -> tuple[Ring, ...]:
        return (self.exterior, *self.holes)


@dataclass(frozen=True, slots=True)
class Feature:
    """One feature: `name` (its "name" property, else "feature N"), `properties` as
    (key, value written as JSON) pairs in file order, `geometry` (the GeoJSON type;
    "" for a null geometry) and what it draws; `line` is the 1-based line of the
    feature's object in the file."""

    name: str
    geometry: str
    polygons: tuple[Polygon, ...] = ()
    lines: tuple[Ring, ...] = ()
    points: tuple[Position, ...] = ()
    properties: tuple[tuple[str, str], ...] = ()
    line: int = field(default=0, compare=False)

    @property
    def parts(self) -> int:
        return len(self.polygons) + len(self.lines) + len(self.points)

    @property
    def vertices(self) -> int:
        """Positions as written, a ring's closing repeat not counted again."""
        rings = sum(len(ring) - 1 for p in self.polygons for ring in p.rings)
        return rings + sum(len(line) for line in self.lines) + len(self.points)

    def positions(self) -> list[Position]:
        return ([xy for p in self.polygons for ring in p.rings for xy in ring]
                + [xy for line in self.lines for xy in line] + list(self.points))

    @property
    def bbox(self) -> Box | None:
        """(west, south, east, north) of its positions; None when it draws nothing."""
        return _box(self.positions())


@dataclass(frozen=True, slots=True)
class GeoMap:
    """The features of one GeoJSON file, in order."""

    features: tuple[Feature, ...] = ()

    @property
    def drawn(self) -> tuple[Feature, ...]:
        """The features with something to draw."""
        return tuple(f for f in self.features if f.parts)

    @property
    def bbox(self) -> Box | None:
        return _box([xy for f in self.features for xy in f.positions()])

    def counts(self) -> dict[str, int]:
        drawn = self.drawn
        polygons = sum(len(f.polygons) for f in drawn)
        lines = sum(len(f.lines) for f in drawn)
        points = sum(len(f.points) for f in drawn)
        return {"features": len(drawn), "polygons": polygons,
                "holes": sum(len(p.holes) for f in drawn for p in f.polygons),
                "lines": lines, "points": points, "parts": polygons + lines + points}


def _box(positions: list[Position]) -> Box | None:
    if not positions:
        return None
    xs, ys = [x for x, _ in positions], [y for _, y in positions]
    return (min(xs), min(ys), max(xs), max(ys))
