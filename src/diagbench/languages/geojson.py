"""GeoJSON: geographic maps (STRUDEL's geography domain), read by Python's json and
shapely, drawn on matplotlib in the plate carrée projection (the `geomap` engine)."""

from __future__ import annotations

from diagbench.languages.record import Language

#: The "type" members a GeoJSON text's top object may have (RFC 7946).
_TYPES = ("FeatureCollection", "Feature", "Point", "MultiPoint", "LineString",
          "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection")


def recognises(text: str) -> bool:
    """A GeoJSON source is a JSON object whose first 2,000 characters name a GeoJSON
    "type"."""
    head = text.removeprefix("\ufeff").lstrip()[:2000]
    return head.startswith("{") and any(f'"{t}"' in head for t in _TYPES) and '"type"' in head


LANGUAGE = Language(
    doc=__doc__ or "",
    name="geojson",
    title="GeoJSON",
    suffixes=(".geojson",),
    domain="geography",
    categories=("map",),
    kinds=("map",),
    reader="diagbench.formats.geography.geojson:read_geojson",
    engine="geomap",
    statistics="diagbench.render.geomap:map_statistics",
    similarity="diagbench.compare.geomap:compare_maps",
    synth="diagbench.formats.geography.synth:synth_map",
    facts="diagbench.formats.geography.facts:map_facts",
    examples=("map-countries.geojson",),
    recognises=recognises,
    node_limits=(1, 12),
    size="features",
)
