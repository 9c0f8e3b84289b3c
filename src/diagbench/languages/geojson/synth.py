"""The seeded map generator (`baseline:synth`): GeoJSON FeatureCollections of real
countries, their shapes from countryinfo (`languages.geojson.countries`), written as
the real-world files are (one feature a line, properties "name" and
"ISO3166-1-Alpha-3"), coordinates rounded to `DIGITS` decimals to keep files small.

- low: one country;
- medium: a country and 1–3 of its neighbours (countryinfo's `borders`);
- high: 6–12 countries of one subregion or region with 6 or more.

Only countries whose rounded shape shapely finds valid are drawn (`_shaped`).
"""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

from diagbench.languages.geojson.countries import Country, countries

#: Decimals kept (0.01° ≈ 1 km).
DIGITS = 2


def synth_map(rng: random.Random, complexity: str) -> str:
    """A map of real countries at `complexity` (see the module's docstring)."""
    shaped = [countries()[iso3] for iso3 in _shaped()]
    if complexity == "low":
        chosen = [rng.choice(shaped)]
    elif complexity == "medium":
        known = {c.iso3: c for c in shaped}
        first = rng.choice([c for c in shaped if any(b in known for b in c.borders)])
        neighbours = [known[b] for b in first.borders if b in known]
        chosen = [first, *rng.sample(neighbours, min(len(neighbours), rng.randint(1, 3)))]
    else:
        groups: dict[str, list[Country]] = {}
        for c in shaped:
            for key in sorted({c.subregion, c.region} - {""}):
                groups.setdefault(key, []).append(c)
        name = rng.choice(sorted(k for k, v in groups.items() if len(v) >= 6))
        chosen = rng.sample(groups[name], rng.randint(6, min(12, len(groups[name]))))
    return feature_collection(chosen)


@cache
def _shaped() -> dict[str, Any]:
    """The countries with a valid shape left after rounding (shapely's validity: three
    of countryinfo's shapes are not, Sweden's with Gotland as a hole, Antarctica's and,
    rounded, Bermuda's), and its rounded coordinates, by ISO code."""
    from shapely.geometry import shape  # type: ignore[import-untyped]  # no stubs

    rounded = {c.iso3: {"type": c.geometry["type"],
                        "coordinates": _rounded(c.geometry["coordinates"])}
               for c in countries().values() if c.geometry is not None}
    return {iso3: g["coordinates"] for iso3, g in rounded.items()
            if g["coordinates"] and shape(g).is_valid}


def feature_collection(chosen: list[Country]) -> str:
    """The countries as a FeatureCollection, one feature a line."""
    lines = []
    for c in chosen:
        assert c.geometry is not None
        feature = {"type": "Feature",
                   "properties": {"name": c.name, "ISO3166-1-Alpha-3": c.iso3},
                   "geometry": {"type": c.geometry["type"], "coordinates": _shaped()[c.iso3]}}
        lines.append(json.dumps(feature, ensure_ascii=False, separators=(",", ":")))
    return '{"type":"FeatureCollection","features":[\n' + ",\n".join(lines) + "\n]}\n"


def _rounded(coordinates: Any) -> Any:
    """Coordinates rounded to `DIGITS`, repeated positions dropped; a ring left with
    fewer than 4 positions (a speck) is dropped, and a polygon without its exterior."""
    if coordinates and isinstance(coordinates[0], int | float):
        return [round(float(x), DIGITS) for x in coordinates[:2]]
    if coordinates and isinstance(coordinates[0][0], int | float):  # a ring
        ring = [_rounded(p) for p in coordinates]
        kept = [p for k, p in enumerate(ring) if k == 0 or p != ring[k - 1]]
        return kept if len(kept) >= 4 and kept[0] == kept[-1] else None
    parts = [_rounded(part) for part in coordinates]
    if coordinates and isinstance(coordinates[0][0][0], int | float):  # a polygon
        return [r for r in parts if r is not None] if parts and parts[0] is not None else None
    return [p for p in parts if p is not None]
