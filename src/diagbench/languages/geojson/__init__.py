"""GeoJSON: geographic maps (STRUDEL's geography domain), read by Python's json and
shapely, drawn on matplotlib in the plate carrée projection (the `geomap` engine). Its
styles are the map's: pastel colours, a sea-blue background with a graticule, a dark
map."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from diagbench.languages.geojson.styles import STYLES
from diagbench.languages.record import Drawn, Language, expect
from diagbench.languages.styled import DrawerStyles

if TYPE_CHECKING:
    from diagbench.compare.scored import Scored
    from diagbench.diagram.facts import Fact
    from diagbench.formats.parsed import Diagram, Parsed
    from diagbench.render.engines import Engine

#: The "type" members a GeoJSON text's top object may have (RFC 7946).
_TYPES = ("FeatureCollection", "Feature", "Point", "MultiPoint", "LineString",
          "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection")


def recognises(text: str) -> bool:
    """A GeoJSON source is a JSON object whose first 2,000 characters name a GeoJSON
    "type"."""
    head = text.removeprefix("\ufeff").lstrip()[:2000]
    return head.startswith("{") and any(f'"{t}"' in head for t in _TYPES) and '"type"' in head


class GeoJson(DrawerStyles, Language):
    """GeoJSON as a `Language`: its parts, each importing what it uses when first called."""

    DRAWER_STYLES = STYLES

    def recognises(self, text: str) -> bool:
        return recognises(text)

    def make_engine(self, jobs: int = 2, timeout: float = 20.0) -> Engine:
        from diagbench.languages.geojson.engine import GeomapEngine

        return GeomapEngine(jobs=jobs, timeout=timeout)

    def read(self, text: str) -> Sequence[Parsed[Diagram]]:
        from diagbench.languages.geojson.read import read_geojson

        return read_geojson(text)

    def drawn(self, kind: str, svg: str) -> Drawn:
        from diagbench.languages.geojson.engine import map_statistics

        return Drawn(map_statistics(svg))

    def compare(self, gold: Parsed[Diagram], pred: Parsed[Diagram] | None,
                valid: bool) -> Scored:
        from diagbench.languages.geojson.similarity import compare_maps

        return compare_maps(gold, pred, valid)

    def facts(self, diagram: Diagram) -> list[Fact]:
        from diagbench.diagram.geomap import GeoMap
        from diagbench.languages.geojson.facts import map_facts

        return map_facts(expect(diagram, GeoMap))

    def generate(self, rng: random.Random, complexity: str) -> str:
        from diagbench.languages.geojson.synth import synth_map

        return synth_map(rng, complexity)

    def edit(self, code: str, rng: random.Random) -> str | None:
        """The first feature moved half a degree east."""
        from diagbench.languages.geojson.variants import moved_east

        return moved_east(code)

    def rewrite(self, code: str, rng: random.Random) -> str | None:
        """Features reordered, rings started at another vertex, members reordered."""
        from diagbench.languages.geojson.variants import rewritten

        return rewritten(code, rng)


LANGUAGE = GeoJson(
    doc=__doc__ or "",
    name="geojson",
    title="GeoJSON",
    suffixes=(".geojson",),
    domain="geography",
    categories=("map",),
    kinds=("map",),
    engine="geomap",
    examples=("map-countries.geojson",),
    node_limits=(1, 12),
    size="features",
    libraries=("shapely", "matplotlib", "countryinfo", "babel", "phonenumberslite",),
)
