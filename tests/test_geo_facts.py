"""Map facts: each country fact as a maintained source gives it today (the expected
values are facts of the world, checked by hand), "largest" as the drawing shows it,
and what is no country never counted."""

from __future__ import annotations

import json

import pytest

from diagbench.languages.geojson.countries import continent, countries, currency, sources
from diagbench.languages.geojson.facts import map_facts
from diagbench.languages.geojson.read import read_geojson


def _box(west: float, south: float, east: float, north: float) -> dict:
    return {"type": "Polygon", "coordinates": [[[west, south], [east, south], [east, north],
                                                [west, north], [west, south]]]}


def _map(*features: tuple[str, str, dict]) -> dict[str, object]:
    text = json.dumps({"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"name": name, "ISO3166-1-Alpha-3": iso3},
         "geometry": geometry} for name, iso3, geometry in features]})
    [parsed] = read_geojson(text)
    return {f.subject: f.answer for f in map_facts(parsed.diagram)}


@pytest.mark.parametrize(("iso3", "capital", "code", "money", "where"), [
    ("KAZ", "Astana", "+7", "KZT", ""),  # Astana again since 2022; on two continents
    ("DOM", "Santo Domingo", "+1", "DOP", "North America"),  # +1: the NANP's code
    ("BHS", "Nassau", "+1", "BSD", "North America"),
    ("URY", "Montevideo", "+598", "UYU", "South America"),  # UYI: a fund code, no tender
    ("SLV", "San Salvador", "+503", "USD", "North America"),  # the dollar since 2001
    ("BOL", "", "+591", "BOB", "South America"),  # Sucre and La Paz: not asked
    ("PAN", "Panama City", "+507", "", "North America"),  # PAB and USD both tender
    ("RUS", "Moscow", "+7", "RUB", ""),
    ("AUT", "Vienna", "+43", "EUR", "Europe"),
])
def test_country_facts_are_current(iso3, capital, code, money, where):
    country = countries()[iso3]
    assert (country.capital, country.dialling_code, country.currency, country.continent) \
        == (capital, code, money, where)


def test_the_sources_of_the_facts_and_their_date_are_named():
    named = sources()
    assert set(named) == {"countryinfo", "babel", "phonenumbers", "as of"}
    assert "CLDR" in named["babel"] and named["as of"] == "2026-11-01"


def test_currency_and_continent_by_hand():
    assert currency("SL") == "SLE" and currency("ZW") == "" and currency("") == ""
    assert continent("BRA", "Americas") == "South America"
    assert continent("CAN", "Americas") == "North America"
    assert continent("TUR", "Asia") == "" and continent("XXX", "Polar") == ""


def test_antarctica_is_no_country():
    assert "ATA" not in countries()
    alone = _map(("Antarctica", "ATA", _box(-180, -90, 180, -60)))
    assert alone == {"polygons": 1}
    # beside Chile: one country; Antarctica's drawn area (360 × 30) would be the largest
    with_chile = _map(("Antarctica", "ATA", _box(-180, -90, 180, -60)),
                      ("Chile", "CHL", _box(-76, -56, -66, -17)))
    assert with_chile["countries"] == 1 and with_chile["country"] == "Chile"


def test_largest_is_decided_by_the_drawn_area_not_the_true_one():
    # France −5…8° E, 42…51° N; Sweden 11…23° E, 55…69° N. On the sphere (λ in
    # degrees × Δ sin φ): France 13 · (0.77715 − 0.66913) = 1.404, Sweden
    # 12 · (0.93358 − 0.81915) = 1.373: France is the larger. Drawn in plate carrée:
    # France 13 × 9 = 117 square degrees, Sweden 12 × 14 = 168: Sweden 1.44 times
    # France, clearly the larger on the image.
    facts = _map(("France", "FRA", _box(-5, 42, 8, 51)), ("Sweden", "SWE", _box(11, 55, 23, 69)))
    assert facts["country"] == "Sweden" and facts["capital"] == "Stockholm"


def test_largest_is_asked_only_when_the_drawn_areas_differ_by_a_fifth():
    # 12 × 10 = 120 against 10 × 10 = 100: 1.2 times, asked; 11.9 × 10 = 119: not
    asked = _map(("Spain", "ESP", _box(0, 0, 12, 10)), ("Austria", "AUT", _box(20, 0, 30, 10)))
    assert asked["country"] == "Spain"
    close = _map(("Spain", "ESP", _box(0, 0, 11.9, 10)), ("Austria", "AUT", _box(20, 0, 30, 10)))
    assert "country" not in close and "capital" not in close and close["countries"] == 2


def test_polygons_are_counted_only_when_none_is_a_speck():
    # a 10° square and an island at 20° E: the map is 20.05° (or 20.25°) wide, so a
    # polygon must be 1 % of that, 0.2005° (0.2025°), across: an island of 0.05° is a
    # speck (not counted), one of 0.25° is seen (2 polygons)
    def with_island(side: float) -> dict[str, object]:
        geometry = {"type": "MultiPolygon", "coordinates": [
            _box(0, 0, 10, 10)["coordinates"], _box(20, 5, 20 + side, 5 + side)["coordinates"]]}
        return _map(("Spain", "ESP", geometry))
    assert "polygons" not in with_island(0.05)
    assert with_island(0.25)["polygons"] == 2


def test_northernmost_is_asked_only_when_its_lead_is_seen():
    # the map is 100° wide (0…100° E), so the lead must pass 1 % of it, 1°, as well as
    # 0.5°: 10.8 against 10 leads by 0.8°, not asked; 11.5 leads by 1.5°, asked
    def tops(north: float) -> dict[str, object]:
        return _map(("Spain", "ESP", _box(0, 0, 10, 10)),
                    ("Austria", "AUT", _box(90, 0, 100, north)))
    assert "northernmost" not in tops(10.8)
    assert tops(11.5)["northernmost"] == "Austria"
