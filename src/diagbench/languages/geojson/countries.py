"""The countries of countryinfo (MIT; its shapes from johan/world.geo.json, Natural
Earth's, its records mostly from Wikipedia, as its README says): each country's name,
ISO codes, capital, currencies, region, calling codes, borders and GeoJSON shape, read
from the package's data files, never typed in here."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any


@dataclass(frozen=True, slots=True)
class Country:
    """One country as countryinfo records it (`geometry`: its GeoJSON geometry, or None
    when countryinfo has no shape for it)."""

    name: str
    iso3: str
    capital: str
    currencies: tuple[str, ...]
    region: str
    subregion: str
    calling_codes: tuple[str, ...]
    borders: tuple[str, ...]
    geometry: dict[str, Any] | None


@cache
def countries() -> dict[str, Country]:
    """Every country countryinfo knows, by ISO 3166-1 alpha-3 code, in its order."""
    from countryinfo import CountryInfo

    out = {}
    for record in CountryInfo.all().values():
        iso3 = (record.get("ISO") or {}).get("alpha3")
        if not iso3 or not record.get("name"):
            continue
        shapes = (record.get("geoJSON") or {}).get("features") or []
        out[iso3] = Country(record["name"], iso3, record.get("capital") or "",
                            tuple(record.get("currencies") or ()), record.get("region") or "",
                            record.get("subregion") or "",
                            tuple(record.get("callingCodes") or ()),
                            tuple(record.get("borders") or ()),
                            shapes[0].get("geometry") if shapes else None)
    return out


def country(iso3: str | None, name: str) -> Country | None:
    """The country with ISO code `iso3`, else the one named `name` (case ignored), if
    countryinfo knows it."""
    known = countries()
    if iso3 and iso3.upper() in known:
        return known[iso3.upper()]
    return _by_name().get(name.casefold())


@cache
def _by_name() -> dict[str, Country]:
    return {c.name.casefold(): c for c in countries().values()}
