"""A feature's polygons as one shapely geometry: in degrees (`plain`), or in the Lambert
cylindrical equal-area projection (`projected`: x = λ, y = sin φ, radians, so an area
is the area on the unit sphere). An invalid polygon is repaired by shapely's
`make_valid` (its polygonal part kept); a feature without polygons is empty."""

from __future__ import annotations

from typing import Any

from diagbench.diagram.geomap import Feature


def plain(feature: Feature) -> Any:
    """The feature's polygons, in longitude/latitude degrees."""
    import shapely  # type: ignore[import-untyped]  # no stubs
    from shapely.geometry import MultiPolygon, Polygon  # type: ignore[import-untyped]

    return _repaired(shapely, MultiPolygon([Polygon(p.exterior, p.holes)
                                             for p in feature.polygons]))


def projected(feature: Feature) -> Any:
    """The feature's polygons in the equal-area projection."""
    import numpy as np
    import shapely
    from shapely.geometry import MultiPolygon, Polygon

    def project(xy: Any) -> Any:
        return np.column_stack([np.radians(xy[:, 0]), np.sin(np.radians(xy[:, 1]))])

    shape = MultiPolygon([Polygon(p.exterior, p.holes) for p in feature.polygons])
    return _repaired(shapely, shapely.transform(shape, project))


def _repaired(shapely: Any, shape: Any) -> Any:
    if shape.is_valid:
        return shape
    repaired = shapely.make_valid(shape)
    return shapely.unary_union([g for g in getattr(repaired, "geoms", [repaired])
                                if g.geom_type in ("Polygon", "MultiPolygon")])
