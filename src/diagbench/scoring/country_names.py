"""The other names a country goes by, so that an answer naming a country another
accepted way is right: its ISO 3166-1 short name, its common English name, former
names still in use, the usual abbreviations, and the shortened names of Natural Earth's
map data ("Dem. Rep. Congo"). Written for diagbench from these public facts.

Names are compared under `country_key`: `name_keys.label_key` (case, punctuation and
accents folded: "Cote d'Ivoire" is "Côte d'Ivoire") after a leading "the" is dropped
and "&" read as "and" — so a country written only one way needs no row here.

>>> same_country("USA", "United States of America"), same_country("Niger", "Nigeria")
(True, False)
"""

from __future__ import annotations

import re
from functools import cache

from diagbench.scoring.name_keys import label_key

#: ISO 3166-1 alpha-3 code → the names of that country (the code itself only where it
#: is in use as a name).
COUNTRY_NAMES: dict[str, tuple[str, ...]] = {
    "ARE": ("United Arab Emirates", "UAE", "U.A.E."),
    "ATF": ("French Southern and Antarctic Lands", "French Southern Territories",
            "Fr. S. Antarctic Lands"),
    "BHS": ("Bahamas", "Commonwealth of the Bahamas"),
    "BIH": ("Bosnia and Herzegovina", "Bosnia-Herzegovina", "Bosnia and Herz.", "Bosnia"),
    "BOL": ("Bolivia", "Plurinational State of Bolivia", "Bolivia (Plurinational State of)"),
    "BRN": ("Brunei", "Brunei Darussalam"),
    "CAF": ("Central African Republic", "Central African Rep."),
    "CHN": ("China", "People's Republic of China", "PRC"),
    "CIV": ("Côte d'Ivoire", "Ivory Coast", "Republic of Côte d'Ivoire"),
    "COD": ("Democratic Republic of the Congo", "DR Congo", "DRC", "Congo-Kinshasa",
            "Dem. Rep. Congo", "Congo, Democratic Republic of the",
            "Congo (Democratic Republic of the)"),
    "COG": ("Republic of the Congo", "Congo", "Congo-Brazzaville", "Congo Republic"),
    "CPV": ("Cabo Verde", "Cape Verde"),
    "CZE": ("Czechia", "Czech Republic"),
    "DOM": ("Dominican Republic", "Dominican Rep."),
    "ESH": ("Western Sahara", "W. Sahara"),
    "FLK": ("Falkland Islands", "Falklands", "Falkland Is.", "Falkland Islands (Malvinas)"),
    "FSM": ("Micronesia", "Federated States of Micronesia",
            "Micronesia (Federated States of)"),
    "GBR": ("United Kingdom", "UK", "U.K.", "Great Britain", "Britain",
            "United Kingdom of Great Britain and Northern Ireland"),
    "GMB": ("Gambia", "Republic of the Gambia"),
    "GNQ": ("Equatorial Guinea", "Eq. Guinea"),
    "HKG": ("Hong Kong", "Hong Kong SAR"),
    "IRL": ("Ireland", "Republic of Ireland"),
    "IRN": ("Iran", "Islamic Republic of Iran", "Iran (Islamic Republic of)",
            "Iran, Islamic Republic of"),
    "KGZ": ("Kyrgyzstan", "Kyrgyz Republic"),
    "KNA": ("Saint Kitts and Nevis", "St. Kitts and Nevis", "St Kitts and Nevis"),
    "KOR": ("South Korea", "Republic of Korea", "Korea, Republic of", "Korea (Republic of)"),
    "LAO": ("Laos", "Lao PDR", "Lao People's Democratic Republic"),
    "LCA": ("Saint Lucia", "St. Lucia", "St Lucia"),
    "MAC": ("Macao", "Macau"),
    "MDA": ("Moldova", "Republic of Moldova", "Moldova, Republic of"),
    "MKD": ("North Macedonia", "Macedonia", "Republic of North Macedonia",
            "Republic of Macedonia"),
    "MDV": ("Maldives", "Republic of Maldives"),
    "MMR": ("Myanmar", "Burma"),
    "NLD": ("Netherlands", "Holland", "Kingdom of the Netherlands"),
    "PRK": ("North Korea", "Democratic People's Republic of Korea", "DPRK",
            "Korea, Democratic People's Republic of"),
    "PHL": ("Philippines", "Republic of the Philippines"),
    "PSE": ("Palestine", "State of Palestine", "Palestine, State of"),
    "RUS": ("Russia", "Russian Federation"),
    "SLB": ("Solomon Islands", "Solomon Is."),
    "SRB": ("Serbia", "Republic of Serbia"),
    "SSD": ("South Sudan", "S. Sudan"),
    "SVK": ("Slovakia", "Slovak Republic"),
    "SWZ": ("Eswatini", "Swaziland", "Kingdom of Eswatini"),
    "SYR": ("Syria", "Syrian Arab Republic"),
    "TLS": ("Timor-Leste", "East Timor"),
    "TUR": ("Türkiye", "Turkey", "Republic of Türkiye"),
    "TZA": ("Tanzania", "United Republic of Tanzania", "Tanzania, United Republic of"),
    "USA": ("United States", "United States of America", "USA", "U.S.A.", "US", "U.S."),
    "VAT": ("Vatican City", "Holy See", "Vatican", "Vatican City State"),
    "VCT": ("Saint Vincent and the Grenadines", "St. Vincent and the Grenadines",
            "St Vincent and the Grenadines"),
    "VEN": ("Venezuela", "Bolivarian Republic of Venezuela",
            "Venezuela (Bolivarian Republic of)"),
    "VGB": ("British Virgin Islands", "Virgin Islands (British)", "Virgin Islands, British"),
    "VIR": ("United States Virgin Islands", "U.S. Virgin Islands", "US Virgin Islands",
            "Virgin Islands (U.S.)", "Virgin Islands, U.S."),
    "VNM": ("Vietnam", "Viet Nam"),
}

_THE = re.compile(r"^\s*the\s+", re.I)


def country_key(name: str) -> str:
    """`name` as countries are compared: without a leading "the", "&" as "and", then
    `label_key`.

    >>> country_key("The Bahamas"), country_key("Trinidad & Tobago")
    ('bahamas', 'trinidadandtobago')
    """
    return label_key(_THE.sub("", name).replace("&", " and "))


@cache
def _country_of() -> dict[str, str]:
    """Each name's key → the country's code."""
    return {country_key(name): code for code, names in COUNTRY_NAMES.items()
            for name in names}


def same_country(answer: str, gold: str) -> bool:
    """Whether `answer` and `gold` name the same country in the table (False when the
    gold is no name of the table)."""
    code = _country_of().get(country_key(gold))
    return code is not None and _country_of().get(country_key(answer)) == code
