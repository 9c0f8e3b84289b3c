"""GeoJSON maps drawn on matplotlib (Agg) in the plate carrée (equirectangular)
projection — x = longitude, y = latitude, in degrees, equal aspect — PNG and SVG from
one drawing, in worker processes (`render.drawing`: time-out, memory limit).

Valid means the GeoJSON reader reads the file without error (json, RFC 7946's
structure, positions in range) and some feature has a geometry to draw; the reader's
message is the engine's error. Maps over `MAX_VERTICES` positions or `MAX_PARTS`
parts are refused. Each feature gets its own colour; a polygon is one path of its
exterior and its holes (exterior turned counter-clockwise, holes clockwise, so the
holes stay empty), a line a line, a point a dot marker. No names are written on the
map (which country is shown is a question); the axes say "longitude (°)", "latitude
(°)" and the title names the projection. A source in an envelope
(`languages.styled`) is drawn in its style: the features in Set3's pastel colours,
on a sea-blue background with a graticule, or matplotlib's dark background.

What the SVG shows (`map_statistics`): the drawer gives each artist the SVG id
`geo-<feature>-<kind>-<part>-<name>` (feature index in the file, kind polygon, line or
point, part index, the feature's name %-quoted), so the statistics read back the
features (distinct feature indices) and their names, the polygons, lines and points
(one group each), and the holes (a polygon path's sub-paths after the first: its `M`
commands less one).
"""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from typing import Any
from urllib.parse import quote, unquote

from diagbench.languages.geojson.styles import STYLES
from diagbench.languages.styled import opened
from diagbench.render.drawing import DrawingEngine, figure, images

#: Maps with more positions, or more parts (one artist each), are not drawn.
MAX_VERTICES = 200_000
MAX_PARTS = 5_000
#: The projection, as the figure's title names it.
PROJECTION = "plate carrée (equirectangular) projection: x = longitude, y = latitude"
_SVG = "{http://www.w3.org/2000/svg}"


def draw_map(source: str) -> dict[str, Any]:
    """{"svg": bytes, "png": bytes} of a GeoJSON map (runs in a worker), or {"error":
    the reader's message, "line": its line}."""
    import matplotlib

    from diagbench.languages.geojson.read import read_geojson

    style, source = opened(source, STYLES)
    [parsed] = read_geojson(source)
    problem = next(iter(parsed.errors), None)
    if problem is not None:
        return {"error": problem.reason, "line": problem.line}
    model = parsed.diagram
    vertices = sum(f.vertices for f in model.features)
    if model.bbox is None or not model.drawn:
        return {"error": "nothing to draw: no feature has a geometry", "line": 1}
    if vertices > MAX_VERTICES:
        return {"error": f"{vertices:,} positions, over the {MAX_VERTICES:,}-position "
                         "drawing limit", "line": None, "too_large": True}
    parts = model.counts()["parts"]
    if parts > MAX_PARTS:
        return {"error": f"{parts:,} parts, over the {MAX_PARTS:,}-part drawing limit",
                "line": None, "too_large": True}
    west, south, east, north = model.bbox
    pad = max(0.5, 0.03 * max(east - west, north - south))
    aspect = (north - south + 2 * pad) / (east - west + 2 * pad)
    colours = matplotlib.colormaps["Set3" if style == "pastel" else "tab20"]
    dark = matplotlib.style.library["dark_background"] if style == "dark" else {}
    with matplotlib.rc_context(dark), \
            figure(7.0, min(10.0, max(2.0, 7.0 * aspect)) + 0.6) as (fig, axes):
        if style == "sea-and-graticule":
            axes.set_facecolor("#cfe6f5")
            axes.grid(True, color="#8fb3cc", linewidth=0.5)
            axes.set_axisbelow(True)
        for k, feature in enumerate(model.features):
            colour = colours(k % colours.N)
            name = quote(feature.name, safe="")
            for j, polygon in enumerate(feature.polygons):
                axes.add_patch(_patch(polygon.rings, colour, f"geo-{k}-polygon-{j}-{name}"))
            for j, line in enumerate(feature.lines):
                axes.plot([x for x, _ in line], [y for _, y in line], color=colour,
                          linewidth=1.5, gid=f"geo-{k}-line-{j}-{name}")
            for j, (x, y) in enumerate(feature.points):
                axes.plot([x], [y], marker="o", markersize=5, linestyle="none",
                          color=colour, markeredgecolor="#222222", markeredgewidth=0.5,
                          gid=f"geo-{k}-point-{j}-{name}")
        axes.set_xlim(west - pad, east + pad)
        axes.set_ylim(south - pad, north + pad)
        axes.set_aspect("equal")
        axes.set_xlabel("longitude (°)")
        axes.set_ylabel("latitude (°)")
        axes.set_title(PROJECTION, fontsize=8)
        return images(fig)


def _patch(rings: tuple[tuple[tuple[float, float], ...], ...], colour: Any, gid: str) -> Any:
    """One path patch of a polygon's rings: the exterior counter-clockwise, the holes
    clockwise (matplotlib fills by the non-zero rule)."""
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path

    vertices: list[tuple[float, float]] = []
    codes: list[Any] = []
    for k, ring in enumerate(rings):
        counter_clockwise = signed_area(ring) > 0
        ordered = list(ring if counter_clockwise == (k == 0) else reversed(ring))
        vertices += ordered
        codes += [Path.MOVETO] + [Path.LINETO] * (len(ordered) - 2) + [Path.CLOSEPOLY]
    return PathPatch(Path(vertices, codes), facecolor=colour, edgecolor="#333333",
                     linewidth=0.6, gid=gid)


def signed_area(ring: tuple[tuple[float, float], ...]) -> float:
    """The shoelace formula: ½ Σ (xᵢ yᵢ₊₁ − xᵢ₊₁ yᵢ) over a closed ring; positive when
    it turns counter-clockwise."""
    return sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in itertools.pairwise(ring)) / 2


class GeomapEngine(DrawingEngine):
    """Render GeoJSON maps with matplotlib in worker processes (PNG and SVG from one
    drawing: `DrawingEngine`)."""

    name = "geomap"
    drawer = "diagbench.languages.geojson.engine:draw_map"
    preload = ("matplotlib.pyplot", "matplotlib.patches", "shapely.geometry")

    def version(self) -> str:
        return self.versions("matplotlib", "shapely")


def map_statistics(svg: str) -> dict[str, Any]:
    """What the drawer drew (see the module's docstring): features, polygons, holes,
    lines, points, parts, and the features' names in file order."""
    root = ET.fromstring(svg)
    names: dict[int, str] = {}
    counts = {"polygons": 0, "holes": 0, "lines": 0, "points": 0}
    for group in root.iter(f"{_SVG}g"):
        gid = group.get("id", "")
        if not gid.startswith("geo-"):
            continue
        _, feature, kind, _, name = gid.split("-", 4)
        names[int(feature)] = unquote(name)
        counts[f"{kind}s"] += 1
        if kind == "polygon":
            path = next(group.iter(f"{_SVG}path"), None)
            moves = path.get("d", "").count("M") if path is not None else 1
            counts["holes"] += max(0, moves - 1)
    return {"features": len(names), **counts,
            "parts": counts["polygons"] + counts["lines"] + counts["points"],
            "names": [names[k] for k in sorted(names)]}
