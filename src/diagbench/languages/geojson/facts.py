"""The facts STRUDEL's country questions ask about a map (paper 004 §3.4), each answer
read off the map's features and countryinfo's records (`languages.geojson.countries`),
never typed in by hand.

A feature is a country countryinfo knows by its "ISO3166-1-Alpha-3" property, else by
its name. Areas are compared on the unit sphere (the equal-area projection of
`languages.geojson.similarity`), so "largest" is the largest in reality, not in plate carrée.

- quantification: how many countries (features drawn), how many separate polygons;
- identification: which country is shown (a map of one), else which is the largest
  (when it is at least `MARGIN` times the second); of that country, when countryinfo
  knows it: its capital, currency (ISO 4217 code), continent (countryinfo's region)
  and dialling code ("+43");
- structural: which country reaches furthest north (when it leads the next by over
  `NORTH_MARGIN` degrees); whether the largest country borders each other one, asked
  only when countryinfo's `borders` and the drawing agree (the shapes within
  `TOUCH_DEGREES` of each other exactly when countryinfo lists the border).

Countries countryinfo does not know get only the counting and geometric facts.
"""

from __future__ import annotations

from diagbench.diagram.facts import Fact
from diagbench.diagram.geomap import Feature, GeoMap
from diagbench.languages.geojson.countries import Country, country
from diagbench.languages.geojson.shapes import plain, projected

#: The largest country must be this many times the second to be asked about.
MARGIN = 1.2
#: The northernmost country must lead the next by this many degrees.
NORTH_MARGIN = 0.5
#: Shapes closer than this (degrees) touch in the drawing.
TOUCH_DEGREES = 0.05


def map_facts(model: GeoMap) -> list[Fact]:
    """The facts of a map (see the module's docstring)."""
    drawn = list(model.drawn)
    if not drawn:
        return []
    facts = [
        Fact("quantification", "countries", "How many countries are drawn on the map?",
             len(drawn)),
        Fact("quantification", "polygons", "How many separate filled shapes (mainland "
             "parts and islands) are drawn on the map?", model.counts()["polygons"]),
    ]
    areas = _areas(drawn)
    ranked = sorted(range(len(drawn)), key=lambda k: -areas[k])
    subject = None
    if len(drawn) == 1:
        subject, which = drawn[0], "the country shown on the map"
        question = "Which country is shown on the map?"
    elif areas[ranked[0]] >= MARGIN * areas[ranked[1]]:
        subject, which = drawn[ranked[0]], "the largest country drawn on the map"
        question = "Which is the largest country drawn on the map?"
    known = _known(subject) if subject is not None else None
    if subject is not None and known is not None:
        facts.append(Fact("identification", "country", question, known.name))
        facts += _country_facts(known, which)
    facts += _north(drawn)
    if subject is not None and known is not None:
        facts += _borders(subject, known, [f for f in drawn if f is not subject])
    return facts


#: The properties that give a country's ISO 3166-1 alpha-3 code (any case): the
#: geo-countries data package's, then Natural Earth's.
ISO3_KEYS = ("iso3166-1-alpha-3", "iso_a3", "adm0_a3", "iso_a3_eh", "iso3")


def _known(feature: Feature) -> Country | None:
    codes = {key.lower(): value.strip('"') for key, value in feature.properties}
    iso3 = next((codes[k] for k in ISO3_KEYS if len(codes.get(k, "")) == 3
                 and codes[k].isalpha()), "")
    return country(iso3, feature.name)


def _areas(features: list[Feature]) -> list[float]:
    return [projected(f).area for f in features]


def _country_facts(known: Country, which: str) -> list[Fact]:
    facts = []
    if known.capital:
        facts.append(Fact("identification", "capital", f"What is the capital of {which}?",
                          known.capital))
    if known.currencies:
        facts.append(Fact("identification", "currency", "What is the ISO 4217 code of the "
                          f"currency of {which}?", known.currencies[0]))
    if known.region:
        facts.append(Fact("identification", "continent", f"On which continent is {which}?",
                          known.region))
    if known.calling_codes:
        facts.append(Fact("identification", "dialling-code", "What is the international "
                          f"dialling code of {which}?", f"+{known.calling_codes[0]}"))
    return facts


def _north(drawn: list[Feature]) -> list[Fact]:
    if len(drawn) < 2:
        return []
    norths = sorted(((f.bbox or (0, 0, 0, 0))[3], f.name) for f in drawn)
    if norths[-1][0] - norths[-2][0] <= NORTH_MARGIN:
        return []
    return [Fact("structural", "northernmost", "Which country drawn on the map reaches "
                 "furthest north?", norths[-1][1])]


def _borders(subject: Feature, known: Country, others: list[Feature]) -> list[Fact]:
    facts = []
    shape = plain(subject)
    for other in others:
        neighbour = _known(other)
        if neighbour is None:
            continue
        listed = neighbour.iso3 in known.borders
        if listed == (shape.distance(plain(other)) <= TOUCH_DEGREES):
            facts.append(Fact("structural", "borders", f"Does {subject.name} share a land "
                              f"border with {other.name} on the map?", listed))
    return facts
