"""Other GeoJSON writings of a map: the same map written another way (`rewritten`),
and one small change to it (`moved_east`), for the common checks of a language."""

from __future__ import annotations

import json
import random
from typing import Any


def moved_east(code: str, degrees: float = 0.5) -> str | None:
    """The first feature moved `degrees` east (None when the code has no geometry to
    move)."""
    document = _loaded(code)
    features = document.get("features") if isinstance(document, dict) else None
    target = features[0] if isinstance(features, list) and features else document
    geometry = target.get("geometry", target) if isinstance(target, dict) else None
    if not isinstance(geometry, dict) or "coordinates" not in geometry:
        return None
    geometry["coordinates"] = _moved(geometry["coordinates"], degrees)
    return json.dumps(document)


def rewritten(code: str, rng: random.Random) -> str | None:
    """The same map written another way (None when the code is no JSON object): the
    features in another order, each polygon ring started at another vertex (its
    orientation kept), the properties and every object's members in another order,
    and indented. The drawing shows the same shapes (only overlapping features would
    stack in another order, and the colours, given in file order, move with them)."""
    document = _loaded(code)
    if not isinstance(document, dict):
        return None
    return json.dumps(_rewritten(document, rng), indent=2, ensure_ascii=False)


def _loaded(code: str) -> Any:
    try:
        return json.loads(code)
    except ValueError:
        return None


def _rewritten(value: Any, rng: random.Random) -> Any:
    if isinstance(value, list):
        return [_rewritten(v, rng) for v in value]
    if not isinstance(value, dict):
        return value
    out = {key: _rewritten(v, rng) for key, v in reversed(value.items())}
    if isinstance(out.get("features"), list):
        rng.shuffle(out["features"])
    if out.get("type") in ("Polygon", "MultiPolygon") and isinstance(out.get("coordinates"),
                                                                      list):
        depth = 0 if out["type"] == "Polygon" else 1
        out["coordinates"] = _rings_rotated(out["coordinates"], depth, rng)
    return out


def _rings_rotated(coordinates: list[Any], depth: int, rng: random.Random) -> list[Any]:
    """Each ring (of a list of rings `depth` lists down) started at another vertex."""
    if depth:
        return [_rings_rotated(c, depth - 1, rng) for c in coordinates]
    return [_rotated(ring, rng) for ring in coordinates]


def _rotated(ring: Any, rng: random.Random) -> Any:
    """A closed ring (first position = last) started at a random vertex, still closed."""
    if not isinstance(ring, list) or len(ring) < 4 or ring[0] != ring[-1]:
        return ring
    start = rng.randrange(len(ring) - 1)
    body = ring[:-1]
    return body[start:] + body[:start] + [body[start]]


def _moved(coordinates: Any, east: float) -> Any:
    """GeoJSON coordinates (a position or nested lists of them) moved `east` degrees."""
    if coordinates and isinstance(coordinates[0], (int, float)):
        return [coordinates[0] + east, *coordinates[1:]]
    return [_moved(c, east) for c in coordinates]
