"""The countries a map can show, each fact taken from a maintained source, or asked only
where a dated correction below vouches for it:

- name, ISO codes, region, subregion, borders and GeoJSON shape: countryinfo (MIT; its
  shapes Natural Earth's via johan/world.geo.json, its records mostly Wikipedia's);
- currency: the Unicode CLDR's dated territory currencies, as babel (BSD-3-Clause)
  ships them: the one legal-tender currency in force on `AS_OF` (none asked where CLDR
  lists two, as Panama's PAB and USD);
- dialling code: Google's libphonenumber metadata, as phonenumbers (Apache-2.0) ships
  it (the country calling code: "+1" for every North American Numbering Plan country);
- capital: countryinfo's, with `CAPITALS` corrected and none asked for the countries
  of `SHARED_CAPITALS`, whose capital has two right answers;
- continent as a person names it: countryinfo's region, the Americas split into North
  and South America by `SOUTH_AMERICA`; none asked for the countries of
  `TWO_CONTINENTS`, nor for what is not a country (`NOT_COUNTRIES`).

`sources()` names the versions (and CLDR's release) in use; `AS_OF` is the day the
facts hold and the tables below were checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Any

#: The day the facts hold: currencies in force then; the tables below checked then.
AS_OF = date(2026, 11, 1)

#: countryinfo's capitals that are out of date (ISO 3166-1 alpha-3: capital today).
CAPITALS = {
    "KAZ": "Astana",  # renamed from Nur-Sultan back to Astana on 17 September 2022
}

#: Countries whose capital has two right answers (the constitution's and the seat of
#: government, or a capital most states do not recognise): their capital is not asked.
SHARED_CAPITALS = {
    "BOL": "Sucre (constitutional), La Paz (seat of government)",
    "ZAF": "Pretoria (executive), Cape Town (legislative), Bloemfontein (judicial)",
    "BEN": "Porto-Novo (official), Cotonou (seat of government)",
    "CIV": "Yamoussoukro (official), Abidjan (most of the government)",
    "SWZ": "Mbabane (administrative), Lobamba (legislative and royal)",
    "LKA": "Sri Jayawardenepura Kotte (legislative), Colombo (executive)",
    "TZA": "Dodoma (official), Dar es Salaam (most of the government)",
    "ISR": "Jerusalem, not recognised as the capital by most states",
    "PSE": "East Jerusalem (claimed), Ramallah (seat of government)",
}

#: The Americas' countries and territories in South America (the UN's M49 region 005);
#: every other one of countryinfo's "Americas" is in North America (Central America
#: and the Caribbean included).
SOUTH_AMERICA = frozenset({"ARG", "BOL", "BRA", "BVT", "CHL", "COL", "ECU", "FLK", "GUF",
                           "GUY", "PER", "PRY", "SGS", "SUR", "URY", "VEN"})

#: Countries a person may rightly place on either of two continents: no continent asked.
TWO_CONTINENTS = frozenset({"RUS", "TUR", "KAZ", "AZE", "GEO", "ARM", "CYP", "EGY", "IDN"})

#: What countryinfo lists that is no country: never counted, named or asked about.
NOT_COUNTRIES = frozenset({"ATA"})


@dataclass(frozen=True, slots=True)
class Country:
    """One country and its facts ("" where a fact is not asked: see the module's
    docstring); `geometry`: its GeoJSON geometry, or None when countryinfo has none."""

    name: str
    iso3: str
    iso2: str
    capital: str
    currency: str
    continent: str
    dialling_code: str
    region: str
    subregion: str
    borders: tuple[str, ...]
    geometry: dict[str, Any] | None


@cache
def countries() -> dict[str, Country]:
    """Every country countryinfo knows, by ISO 3166-1 alpha-3 code, in its order (what
    is not a country, `NOT_COUNTRIES`, left out)."""
    from countryinfo import CountryInfo

    out = {}
    for record in CountryInfo.all().values():
        iso = record.get("ISO") or {}
        iso3, iso2 = iso.get("alpha3"), iso.get("alpha2") or ""
        if not iso3 or not record.get("name") or iso3 in NOT_COUNTRIES:
            continue
        shapes = (record.get("geoJSON") or {}).get("features") or []
        region = record.get("region") or ""
        out[iso3] = Country(record["name"], iso3, iso2, _capital(iso3, record.get("capital") or ""),
                            currency(iso2), continent(iso3, region),
                            dialling_code(iso2), region, record.get("subregion") or "",
                            tuple(record.get("borders") or ()),
                            shapes[0].get("geometry") if shapes else None)
    return out


def _capital(iso3: str, listed: str) -> str:
    if iso3 in SHARED_CAPITALS:
        return ""
    return CAPITALS.get(iso3, listed)


def currency(iso2: str) -> str:
    """The ISO 4217 code of the one legal tender of the territory `iso2` on `AS_OF`
    (CLDR's records), "" when there is none or more than one."""
    from babel.numbers import get_territory_currencies

    if not iso2:
        return ""
    tender = get_territory_currencies(iso2, AS_OF, tender=True, non_tender=False)
    return tender[0] if len(tender) == 1 else ""


def dialling_code(iso2: str) -> str:
    """The country calling code of the region `iso2` ("+7"), "" when it has none."""
    import phonenumbers

    code = phonenumbers.country_code_for_region(iso2) if iso2 else 0
    return f"+{code}" if code else ""


def continent(iso3: str, region: str) -> str:
    """The continent as a person names it, from countryinfo's `region`; "" when the
    country lies on two (`TWO_CONTINENTS`) or the region is none of the five."""
    if iso3 in TWO_CONTINENTS:
        return ""
    if region == "Americas":
        return "South America" if iso3 in SOUTH_AMERICA else "North America"
    return region if region in ("Africa", "Asia", "Europe", "Oceania") else ""


def sources() -> dict[str, str]:
    """The sources of the facts and their versions (CLDR's release for babel)."""
    from importlib.metadata import version

    import phonenumbers
    from babel.core import get_cldr_version

    return {"countryinfo": version("countryinfo"),
            "babel": f"{version('babel')} (CLDR {get_cldr_version()})",
            "phonenumbers": str(phonenumbers.__version__), "as of": AS_OF.isoformat()}


def country(iso3: str | None, name: str) -> Country | None:
    """The country with ISO code `iso3`, else the one named `name` (case ignored), if
    countryinfo knows it."""
    known = countries()
    if iso3 and iso3.upper() in known:
        return known[iso3.upper()]
    return _by_name().get(name.casefold())


def is_country(iso3: str | None, name: str) -> bool:
    """False for what is known to be no country (`NOT_COUNTRIES`, by code or name)."""
    if iso3 and iso3.upper() in NOT_COUNTRIES:
        return False
    return name.casefold() not in _not_country_names()


@cache
def _not_country_names() -> frozenset[str]:
    from countryinfo import CountryInfo

    return frozenset(str(r.get("name", "")).casefold() for r in CountryInfo.all().values()
                     if (r.get("ISO") or {}).get("alpha3") in NOT_COUNTRIES)


@cache
def _by_name() -> dict[str, Country]:
    return {c.name.casefold(): c for c in countries().values()}
