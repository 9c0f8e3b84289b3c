"""The facts STRUDEL's country questions ask about a map (paper 004 §3.4), each answer
read off the map's features and the country records of `languages.geojson.countries`
(maintained sources, dated; see there), never typed in by hand.

A feature is a country the records know by its "ISO3166-1-Alpha-3" property, else by
its name; what is no country (Antarctica) is never counted, named or asked about.

Areas: the `geomap` engine draws in plate carrée (x = longitude, y = latitude, equal
aspect), which stretches east–west by 1/cos φ, so a country far north looks larger
than an equal-area projection (`languages.geojson.shapes.projected`, areas as on the
sphere) would show it: with countryinfo's shapes, France (Corsica included) is 1.23
times Sweden on the sphere, while Sweden's drawing is 1.22 times France's. "Largest"
asks what the image shows, so it is decided by the drawn area (`drawn_area`, square
degrees) and asked only when the largest is at least `MARGIN` times the second (a
difference a reader sees without measuring).

- quantification: how many countries (features drawn that are countries), how many
  separate polygons (asked only when each is drawn large enough to see and count: its
  larger side at least `SPECK` of the map's, about 4 points of the 7-inch drawing —
  Russia's smallest islands are drawn a point across, so its count is not asked);
- identification: which country is shown (a map of one country), else which takes up
  the largest area in the drawing; of that country, each fact its records give: its
  capital, currency (ISO 4217 code), continent and dialling code ("+43");
- structural: which country reaches furthest north (when it leads the next by over
  `NORTH_MARGIN` degrees and over `SPECK` of the map's larger side, so that the lead
  is seen); whether the subject country borders each other one, asked
  only when countryinfo's `borders` and the drawing agree (the shapes within
  `TOUCH_DEGREES` of each other exactly when countryinfo lists the border).

Countries the records do not know get only the counting and geometric facts.
"""

from __future__ import annotations

from diagbench.diagram.facts import Fact
from diagbench.diagram.geomap import Feature, GeoMap
from diagbench.languages.geojson.countries import Country, country, is_country
from diagbench.languages.geojson.shapes import plain

#: The largest country's drawn area must be this many times the second's to be asked
#: about: a 20 % difference is seen at a glance, a few per cent only by measuring.
MARGIN = 1.2
#: The northernmost country must lead the next by this many degrees.
NORTH_MARGIN = 0.5
#: A polygon is seen (and counted) when its larger side is at least this share of the
#: map's larger side.
SPECK = 0.01
#: Shapes closer than this (degrees) touch in the drawing.
TOUCH_DEGREES = 0.05


def map_facts(model: GeoMap) -> list[Fact]:
    """The facts of a map (see the module's docstring)."""
    if not model.drawn:
        return []
    facts = []
    if _all_seen(model):
        facts.append(Fact("quantification", "polygons", "How many separate filled shapes "
                          "(mainland parts and islands) are drawn on the map?",
                          model.counts()["polygons"]))
    drawn = [f for f in model.drawn if is_country(_iso3(f), f.name)]
    if not drawn:
        return facts
    facts.insert(0, Fact("quantification", "countries", "How many countries are drawn on "
                         "the map?", len(drawn)))
    areas = [drawn_area(f) for f in drawn]
    ranked = sorted(range(len(drawn)), key=lambda k: -areas[k])
    subject = None
    if len(drawn) == 1:
        subject, which = drawn[0], "the country shown on the map"
        question = "Which country is shown on the map?"
    elif areas[ranked[0]] >= MARGIN * areas[ranked[1]]:
        subject, which = drawn[ranked[0]], "the country covering the largest area on "\
            "the drawn map"
        question = "Which country covers the largest area on the drawn map?"
    known = _known(subject) if subject is not None else None
    if subject is not None and known is not None:
        facts.append(Fact("identification", "country", question, known.name))
        facts += _country_facts(known, which)
    facts += _north(drawn, _side(model))
    if subject is not None and known is not None:
        facts += _borders(subject, known, [f for f in drawn if f is not subject])
    return facts


#: The properties that give a country's ISO 3166-1 alpha-3 code (any case): the
#: geo-countries data package's, then Natural Earth's.
ISO3_KEYS = ("iso3166-1-alpha-3", "iso_a3", "adm0_a3", "iso_a3_eh", "iso3")


def _side(model: GeoMap) -> float:
    """The map's larger side, in degrees."""
    west, south, east, north = model.bbox or (0.0, 0.0, 0.0, 0.0)
    return max(east - west, north - south)


def _all_seen(model: GeoMap) -> bool:
    """Whether every polygon's larger side is at least `SPECK` of the map's."""
    least = SPECK * _side(model)
    for feature in model.drawn:
        for polygon in feature.polygons:
            xs, ys = [x for x, _ in polygon.exterior], [y for _, y in polygon.exterior]
            if max(max(xs) - min(xs), max(ys) - min(ys)) < least:
                return False
    return True


def _iso3(feature: Feature) -> str:
    codes = {key.lower(): value.strip('"') for key, value in feature.properties}
    return next((codes[k] for k in ISO3_KEYS if len(codes.get(k, "")) == 3
                 and codes[k].isalpha()), "")


def _known(feature: Feature) -> Country | None:
    return country(_iso3(feature), feature.name)


def drawn_area(feature: Feature) -> float:
    """The feature's area as the map draws it: in plate carrée, square degrees."""
    return float(plain(feature).area)


def _country_facts(known: Country, which: str) -> list[Fact]:
    facts = []
    if known.capital:
        facts.append(Fact("identification", "capital", f"What is the capital of {which}?",
                          known.capital))
    if known.currency:
        facts.append(Fact("identification", "currency", "What is the ISO 4217 code of the "
                          f"currency of {which}?", known.currency))
    if known.continent:
        facts.append(Fact("identification", "continent", f"On which continent is {which}?",
                          known.continent))
    if known.dialling_code:
        facts.append(Fact("identification", "dialling-code", "What is the international "
                          f"dialling code of {which}?", known.dialling_code))
    return facts


def _north(drawn: list[Feature], side: float) -> list[Fact]:
    if len(drawn) < 2:
        return []
    norths = sorted(((f.bbox or (0, 0, 0, 0))[3], f.name) for f in drawn)
    if norths[-1][0] - norths[-2][0] <= max(NORTH_MARGIN, SPECK * side):
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
